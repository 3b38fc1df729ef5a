/**
 * One spreadsheet service replica in a worker thread (see spreadsheet-threads.ts): it builds the
 * service from the environment it is handed, listens on a loopback port of its own, tells the parent
 * which, and beats every few milliseconds so that the parent can see when its event loop is held.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { createLogger } from '@finsheet/platform'
import { loadSpreadsheetConfig } from '../config.js'
import { createSpreadsheetService } from '../service.js'
import type { ThreadData, ThreadMessage } from './thread-messages.js'

const { env, logLevel, beatMs } = workerData as ThreadData
const parent = parentPort
if (!parent) throw new Error('spreadsheet-thread runs as a worker thread')
const say = (message: ThreadMessage) => parent.postMessage(message)

try {
  const config = loadSpreadsheetConfig({ ...env, PORT: '0', HOST: '127.0.0.1' })
  const app = await createSpreadsheetService(config, { logger: logLevel === false ? false : createLogger('spreadsheet', logLevel) })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  const beat = setInterval(() => say({ type: 'beat' }), beatMs)
  parent.on('message', (message: { type: 'close' }) => {
    if (message.type !== 'close') return
    clearInterval(beat)
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  })
  say({ type: 'listening', port: typeof address === 'object' && address ? address.port : 0 })
} catch (error) {
  say({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
  process.exit(1)
}
