/**
 * The vectordb service in a worker thread of the all-in-one process (see threaded-service.ts): it builds
 * the service from the environment it is handed, listens on the port chosen for it and says so.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { createLogger } from '@finsheet/platform'
import { createVectordbService, loadVectordbConfig } from '@finsheet/vectordb-service'
import type { ServiceThreadData, ServiceThreadMessage } from './threaded-service.js'

const { env, logLevel } = workerData as ServiceThreadData
const parent = parentPort
if (!parent) throw new Error('vectordb-thread runs as a worker thread')
const say = (message: ServiceThreadMessage) => parent.postMessage(message)

try {
  const app = await createVectordbService(loadVectordbConfig(env), { logger: logLevel === false ? false : createLogger('vectordb', logLevel) })
  await app.listen({ port: Number(env.PORT), host: env.HOST ?? '127.0.0.1' })
  parent.on('message', (message: { type: 'close' }) => {
    if (message.type !== 'close') return
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  })
  say({ type: 'listening' })
} catch (error) {
  say({ type: 'failed', message: error instanceof Error ? error.message : String(error), code: (error as NodeJS.ErrnoException).code })
  process.exit(1)
}
