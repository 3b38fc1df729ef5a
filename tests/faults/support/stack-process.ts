/**
 * The all-in-one stack in a process of its own, for the fault suites: a suite can SIGKILL it and
 * start it again on the same data, and measures it from a loop it does not share. Its data lives in
 * the folder given as the first argument (kept on exit); the gateway listens on the port given as the
 * second (0: any free one). The environment chooses the adapters (REDIS_URL, S3_ENDPOINT, …). Prints
 * `READY <url>` and runs until SIGTERM or until it is killed; on SIGUSR2 prints `LOOP <json>`, the
 * event loop's delay percentiles since the last one.
 */
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { createLogger } from '@finsheet/platform'
import { startAllInOne } from '@finsheet/standalone'

const [dataDir, port] = process.argv.slice(2)
const stack = await startAllInOne({
  port: Number(port ?? 0),
  dataDir,
  // Errors only, as JSON lines on stdout: the suites count the requests that failed inside.
  logger: createLogger(null, 'error'),
  webRoot: join(dataDir, 'no-web-build'),
  env: { RATE_LIMIT_MAX: '1000000', AUTOSAVE_QUIET_MS: '0', ...process.env },
})
process.stdout.write(`READY ${stack.url}\n`)

// On SIGUSR2, how long the event loop was held up since the last report (ms): every service shares it.
const loopDelay = monitorEventLoopDelay({ resolution: 10 })
loopDelay.enable()
process.on('SIGUSR2', () => {
  const ms = (ns: number) => Math.round(ns / 1e6)
  process.stdout.write(`LOOP ${JSON.stringify({ p50: ms(loopDelay.percentile(50)), p99: ms(loopDelay.percentile(99)), max: ms(loopDelay.max) })}\n`)
  loopDelay.reset()
})

const stop = async () => {
  await stack.close()
  process.exit(0)
}
process.once('SIGTERM', () => void stop())
process.once('SIGINT', () => void stop())
