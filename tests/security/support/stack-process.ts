/**
 * The whole stack (every service behind the gateway, embedded adapters) in a process of its own on
 * loopback, so a suite's flood of requests does not share an event loop with the servers it
 * measures. Prints `READY <json>` with the gateway URL, the data folder and each service's URL, and
 * runs until SIGTERM; the data folder is removed on exit.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startAllInOne } from '@finsheet/standalone'

const dataDir = mkdtempSync(join(tmpdir(), 'finsheet-security-'))
const stack = await startAllInOne({
  port: 0,
  dataDir,
  logger: false,
  webRoot: process.env.WEB_ROOT ?? join(dataDir, 'no-web-build'),
  env: { ...process.env, LOG_LEVEL: 'silent' },
})
process.stdout.write(`READY ${JSON.stringify({ url: stack.url, port: stack.port, dataDir: stack.dataDir, services: stack.services })}\n`)

const stop = async () => {
  await stack.close()
  rmSync(dataDir, { recursive: true, force: true })
  process.exit(0)
}
process.once('SIGTERM', () => void stop())
process.once('SIGINT', () => void stop())
