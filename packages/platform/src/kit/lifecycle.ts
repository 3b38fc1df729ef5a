import type { FastifyInstance } from 'fastify'

/** Closes the app on SIGTERM or SIGINT, letting in-flight requests finish, then exits. */
export function closeOnSignals(app: Pick<FastifyInstance, 'close' | 'log'>, timeoutMs = 10_000): void {
  let closing = false
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    const timer = setTimeout(() => {
      app.log.error('graceful shutdown timed out')
      process.exit(1)
    }, timeoutMs)
    timer.unref()
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while shutting down')
        process.exit(1)
      },
    )
  }
  process.once('SIGTERM', shutdown)
  process.once('SIGINT', shutdown)
}
