/**
 * The spreadsheet service as replicas in worker threads behind a router on the service's port.
 *
 * A workbook's recalculation runs on the event loop of the thread that holds it open, up to the
 * engine's time budget (1 s a formula): in one thread, every other user's request waits that long.
 * Here each thread is a whole replica (the service keeps nothing between requests but caches, and
 * replicas already agree through the store's revisions), and the router sends a workbook's requests
 * to the thread that has it open, unless that thread is held by another workbook's calculation: then
 * to a free one, which opens the workbook from the store. A thread that stops (out of memory, say)
 * is replaced; only the requests it was answering fail.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Worker } from 'node:worker_threads'
import replyFrom from '@fastify/reply-from'
import { DEFAULT_WORKBOOK_ID } from '@finsheet/contracts'
import { AppError, createBaseApp, errorBody, type Logger, type ServiceApp } from '@finsheet/platform'
import { startModuleWorker } from '@finsheet/workbook'
import type { ThreadData, ThreadMessage } from './thread-messages.js'
import { ThreadRouting, type RoutedThread } from './thread-routing.js'

export interface SpreadsheetThreadsOptions {
  /** Replicas started; at least 1. */
  threads: number
  /** The environment each replica reads its config from. */
  env: Record<string, string | undefined>
  /** The router's logger, or false for silence; the replicas log at its level. */
  logger?: Logger | false
  /** Each replica's heap limit in MB: a workbook that needs more stops its thread, not the process. */
  memoryMb?: number
  /** Each replica's young generation in MB; V8's default when absent. */
  youngMb?: number
}

/** How often a thread beats (see thread-routing.ts for what its silence means). */
const BEAT_MS = 10
/** A workbook's id in the paths that name one (`/workbook/:id/…`, `/workbooks/:id/…`). */
const WORKBOOK_PATH = /^\/workbooks?\/([^/?#]+)/
const NOT_WORKBOOK_IDS = new Set(['default', 'import'])

/** How long a request waits for a thread when every one is restarting. */
const RESTART_WAIT_MS = 30_000
/** How long a failed request waits to learn whether its thread stopped, to say so. */
const EXIT_WAIT_MS = 1_000

interface Thread extends RoutedThread {
  worker: Worker
  url: string
  exited: Promise<void>
}

export async function createSpreadsheetThreads(options: SpreadsheetThreadsOptions): Promise<ServiceApp> {
  const count = Math.max(1, Math.floor(options.threads))
  const logger = options.logger ?? false
  const logLevel = logger === false ? false : logger.level
  const data: ThreadData = { env: options.env, logLevel, beatMs: BEAT_MS }
  const resourceLimits = {
    ...(options.memoryMb ? { maxOldGenerationSizeMb: options.memoryMb } : {}),
    ...(options.youngMb ? { maxYoungGenerationSizeMb: options.youngMb } : {}),
  }
  const threads: Thread[] = []
  const routing = new ThreadRouting<Thread>(() => threads)
  /** Requests waiting for a thread to start, when none runs. */
  let waiting: Array<() => void> = []
  let closing = false

  const app = createBaseApp({ name: 'spreadsheet', logger })
  app.removeAllContentTypeParsers()
  // Bodies pass through as streams: the replica parses and limits them.
  app.addContentTypeParser('*', (_request: unknown, payload: IncomingMessage, done: (error: null, body: IncomingMessage) => void) => done(null, payload))

  const start = (slot: number): Promise<Thread> =>
    new Promise((resolve, reject) => {
      const worker = startModuleWorker(new URL('./spreadsheet-thread', import.meta.url), { workerData: data, resourceLimits })
      const thread: Thread = { worker, url: '', lastBeat: performance.now(), inFlight: new Map(), stopped: false, exited: new Promise((resolveExit) => worker.once('exit', () => resolveExit())) }
      worker.on('message', (message: ThreadMessage) => {
        if (message.type === 'beat') thread.lastBeat = performance.now()
        else if (message.type === 'listening') {
          thread.url = `http://127.0.0.1:${message.port}`
          threads[slot] = thread
          resolve(thread)
          for (const wake of waiting) wake()
          waiting = []
        } else reject(new Error(`a spreadsheet thread did not start: ${message.message}`))
      })
      worker.on('error', (error: Error & { code?: string }) => {
        if (logger) logger.error({ err: error, thread: slot }, error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'a spreadsheet thread ran out of memory' : 'a spreadsheet thread failed')
      })
      worker.on('exit', (code) => {
        thread.stopped = true
        routing.forget(thread)
        if (!thread.url) reject(new Error(`a spreadsheet thread stopped while starting (exit ${code})`))
        else if (!closing) {
          if (logger) logger.warn({ thread: slot, code }, 'a spreadsheet thread stopped; starting another')
          start(slot).catch((error: unknown) => logger && logger.error({ err: error }, 'a spreadsheet thread could not be restarted'))
        }
      })
    })

  await app.register(replyFrom, { disableRequestLogging: true })

  /** A thread for the request, waiting for one to start again if every one stopped. */
  async function threadFor(workbookId: string): Promise<Thread | undefined> {
    const chosen = routing.choose(workbookId)
    if (chosen || closing) return chosen
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, RESTART_WAIT_MS)
      waiting.push(() => {
        clearTimeout(timer)
        resolve()
      })
    })
    return routing.choose(workbookId)
  }

  app.all('/*', async (request, reply) => {
    const match = WORKBOOK_PATH.exec(request.url)
    // Every user's first workbook answers to the same id, so that one is told apart by its user's token.
    const named = match && !NOT_WORKBOOK_IDS.has(match[1]) ? match[1] : ''
    const workbookId = named === DEFAULT_WORKBOOK_ID ? `${named} ${request.headers.authorization ?? ''}` : named
    const thread = await threadFor(workbookId)
    if (!thread) return reply.status(503).send(errorBody(new AppError('SERVICE_UNAVAILABLE', 503, 'The spreadsheet service is starting; try again in a moment')))
    ;(reply.raw as ServerResponse).once('close', routing.begin(thread, workbookId))
    return reply.from(`${thread.url}${request.url}`, {
      rewriteHeaders: (headers) => {
        const { connection: _connection, 'keep-alive': _keepAlive, ...endToEnd } = headers
        return endToEnd
      },
      onError: (failed, { error }) => {
        failed.log.warn({ err: error }, 'a spreadsheet thread did not answer')
        // The connection drops a moment before the thread's exit is reported.
        const stopped = Promise.race([thread.exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(resolve, EXIT_WAIT_MS, false))])
        void stopped.then((didStop) => {
          const answer = didStop
            ? new AppError('SERVICE_UNAVAILABLE', 503, 'The spreadsheet thread answering this request stopped (it needed more memory than a request may take); reload the workbook to see what was saved')
            : new AppError('SERVICE_UNAVAILABLE', 503, 'The spreadsheet service is unavailable')
          if (!failed.sent) void failed.status(503).send(errorBody(answer))
        })
      },
    })
  })

  app.addHook('onClose', async () => {
    closing = true
    for (const wake of waiting) wake()
    await Promise.all(
      threads.map(async (thread) => {
        if (!thread || thread.stopped) return
        thread.worker.postMessage({ type: 'close' })
        const timer = setTimeout(() => void thread.worker.terminate(), 10_000)
        await thread.exited
        clearTimeout(timer)
      }),
    )
  })

  try {
    await Promise.all(Array.from({ length: count }, (_, slot) => start(slot)))
  } catch (error) {
    closing = true
    await Promise.all(threads.map((thread) => thread?.worker.terminate()))
    throw error
  }
  app.log.info({ threads: count }, 'spreadsheet threads started')
  return app
}
