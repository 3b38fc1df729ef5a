/**
 * The all-in-one stack in a process of its own for the API benchmark, so that the load generator
 * does not share an event loop with the servers it measures. Prints `READY <url>` and runs until
 * SIGTERM; its data lives in a temporary folder removed on exit.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startAllInOne } from '@finsheet/standalone'

const dataDir = mkdtempSync(join(tmpdir(), 'finsheet-api-bench-'))
const stack = await startAllInOne({
  port: 0,
  dataDir,
  logger: false,
  webRoot: join(dataDir, 'no-web-build'),
  env: { ...process.env, LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '1000000' },
})
process.stdout.write(`READY ${stack.url}\n`)

const stop = async () => {
  await stack.close()
  rmSync(dataDir, { recursive: true, force: true })
  process.exit(0)
}
process.once('SIGTERM', () => void stop())
process.once('SIGINT', () => void stop())
