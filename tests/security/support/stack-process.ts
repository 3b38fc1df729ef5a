/**
 * The whole stack (every service behind the gateway, embedded adapters) in a process of its own on
 * loopback, so a suite's flood of requests does not share an event loop with the servers it
 * measures, and a request that took the process down shows as its exit. Prints `READY <json>` with
 * the gateway URL, the data folder and each service's URL, and runs until SIGTERM. Its data lives in
 * a temporary folder removed on exit, or in the folder given as its first argument, kept (to start
 * again on it); the gateway listens on the port given as its second argument, or on any free port.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startAllInOne } from '@finsheet/standalone'

const kept = process.argv[2] || undefined
const dataDir = kept ?? mkdtempSync(join(tmpdir(), 'finsheet-security-'))
const stack = await startAllInOne({
  port: Number(process.argv[3] || 0),
  dataDir,
  logger: false,
  webRoot: process.env.WEB_ROOT ?? join(dataDir, 'no-web-build'),
  env: { ...process.env, LOG_LEVEL: 'silent' },
})
process.stdout.write(`READY ${JSON.stringify({ url: stack.url, port: stack.port, dataDir: stack.dataDir, services: stack.services })}\n`)

const stop = async () => {
  await stack.close()
  if (!kept) rmSync(dataDir, { recursive: true, force: true })
  process.exit(0)
}
process.once('SIGTERM', () => void stop())
process.once('SIGINT', () => void stop())
