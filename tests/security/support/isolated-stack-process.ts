/**
 * The all-in-one stack in a process of its own, for the hostile-input suites: a request that took the
 * process down shows as its exit, and the latency of another user's edit is measured from a loop the
 * servers do not share. Prints `READY <url>` and runs until SIGTERM. Its data lives in a temporary
 * folder removed on exit, or in the folder given as its first argument, kept (to start again on it);
 * the gateway listens on the port given as its second argument, or on any free port.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startAllInOne } from '@finsheet/standalone'

const kept = process.argv[2] || undefined
const dataDir = kept ?? mkdtempSync(join(tmpdir(), 'finsheet-security-'))
const stack = await startAllInOne({
  port: Number(process.argv[3] ?? 0),
  dataDir,
  logger: false,
  webRoot: join(dataDir, 'no-web-build'),
  env: { ...process.env, LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '1000000', AUTOSAVE_QUIET_MS: '0' },
})
process.stdout.write(`READY ${stack.url}\n`)

const stop = async () => {
  await stack.close()
  if (kept === undefined) rmSync(dataDir, { recursive: true, force: true })
  process.exit(0)
}
process.once('SIGTERM', () => void stop())
process.once('SIGINT', () => void stop())
