import { once } from 'node:events'
import type { Worker } from 'node:worker_threads'
import type { Logger } from '@finsheet/platform'
import { startModuleWorker } from '@finsheet/workbook'

/** What a service's thread is started with. */
export interface ServiceThreadData {
  /** The service's environment, PORT and HOST included. */
  env: Record<string, string | undefined>
  logLevel: string | false
}

export type ServiceThreadMessage = { type: 'listening' } | { type: 'failed'; message: string; code?: string }

/** A service of the stack that runs in a worker thread of its own and listens on its own port. */
export interface ThreadedService {
  listen(options: { port: number; host: string }): Promise<void>
  close(): Promise<void>
}

/**
 * The vectordb service in a worker thread. Indexing a workbook reads and models all of its cells (a
 * million-cell workbook: 128 MB of JSON, seconds of work): on the process's own thread that held the
 * gateway and every other service with it. A thread that stops is started again on the same port.
 */
export function vectordbThread(env: Record<string, string | undefined>, logger: Logger | false): ThreadedService & { readonly thread: Worker | null } {
  const logLevel = logger === false ? false : logger.level
  let worker: Worker | null = null
  let closing = false

  const start = (port: number, host: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const data: ServiceThreadData = { env: { ...env, PORT: String(port), HOST: host }, logLevel }
      const started = startModuleWorker(new URL('./vectordb-thread', import.meta.url), { workerData: data })
      worker = started
      let listening = false
      started.on('message', (message: ServiceThreadMessage) => {
        if (message.type === 'listening') {
          listening = true
          resolve()
        } else reject(Object.assign(new Error(message.message), { code: message.code }))
      })
      started.on('error', (error) => {
        if (!listening) reject(error)
        else if (logger) logger.error({ err: error }, 'the vectordb thread failed')
      })
      started.once('exit', (code) => {
        if (worker === started) worker = null
        if (!listening) return reject(new Error(`the vectordb thread stopped (exit ${code}) before it listened`))
        if (closing) return
        if (logger) logger.error({ code }, 'the vectordb thread stopped: starting it again')
        start(port, host).catch((error: unknown) => logger && logger.error({ err: error }, 'the vectordb thread could not start again'))
      })
    })

  return {
    /** The thread running the service now. */
    get thread() {
      return worker
    },
    listen: ({ port, host }) => start(port, host),
    async close() {
      closing = true
      const running = worker
      if (!running) return
      const exited = once(running, 'exit')
      running.postMessage({ type: 'close' })
      await exited
    },
  }
}
