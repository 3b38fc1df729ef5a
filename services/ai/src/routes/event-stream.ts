import type { FastifyReply, FastifyRequest } from 'fastify'
import { errorBody, toAppError } from '@finsheet/platform'

export function wantsEventStream(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/event-stream')
}

/**
 * A server-sent event stream that begins with its first event: until then the route can still
 * fail with an ordinary JSON error and status; after, a failure is an `error` event.
 */
export class EventStream {
  private open = false

  constructor(
    private readonly request: FastifyRequest,
    private readonly reply: FastifyReply,
  ) {}

  get started(): boolean {
    return this.open
  }

  send(event: string, data: unknown): void {
    if (!this.open) {
      this.open = true
      this.reply.hijack()
      this.reply.raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // Proxies such as nginx would otherwise hold the events back.
        'x-accel-buffering': 'no',
        'x-request-id': this.request.id,
      })
    }
    if (this.reply.raw.writableEnded || this.reply.raw.destroyed) return
    this.reply.raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
  }

  /** Ends the stream with an `error` event (logged like any failed request). */
  fail(error: unknown): void {
    const appError = toAppError(error)
    if (appError.statusCode >= 500) this.request.log.error({ err: error }, 'streamed request failed')
    else this.request.log.info({ code: appError.code, statusCode: appError.statusCode }, appError.message)
    this.send('error', errorBody(appError))
    this.end()
  }

  end(): void {
    if (this.open && !this.reply.raw.writableEnded) this.reply.raw.end()
  }
}
