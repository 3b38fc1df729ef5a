import { Transform } from 'node:stream'
import type { FastifyRequest } from 'fastify'
import { handleError, platformErrors, type ServiceApp } from '@finsheet/platform'
import { isUploadPath, pathOf } from './routes-policy.js'

export interface BodyLimits {
  /** Largest JSON body. */
  bodyLimit: number
  /** Largest body of an upload route: the upload limit and the multipart framing around the file. */
  uploadBodyLimit: number
}

export interface BodyLimitGuard {
  /** Whether a request's streamed body went past its limit (the proxy then answers 413, not 502). */
  wentPastLimit(request: FastifyRequest): boolean
  /** Answers 413 for a request whose body went past its limit, closing the connection. */
  refuse(request: FastifyRequest, reply: Parameters<typeof handleError>[2]): void
}

const expectsContinue = (request: { headers: Record<string, string | string[] | undefined> }) =>
  String(request.headers.expect ?? '').toLowerCase() === '100-continue'

/**
 * Every body larger than its route's limit answers 413 and the connection closes after the answer:
 * - a declared Content-Length past the limit is refused on arrival, and a client that asked
 *   `Expect: 100-continue` gets the 413 instead of the go-ahead, so it never sends the body;
 * - a body without a length (chunked) is counted as it streams through to the service and cut one
 *   byte past the limit, so the service never reads the excess.
 * The 100 Continue is sent only once the request has passed every check (size, token, rate), so
 * a refused client is not invited to upload.
 */
export function registerBodyLimits(app: ServiceApp, limits: BodyLimits): BodyLimitGuard {
  const limitOf = (url: string) => (isUploadPath(pathOf(url)) ? limits.uploadBodyLimit : limits.bodyLimit)
  /** Requests whose streamed body went past its limit. */
  const tooLarge = new WeakSet<object>()

  // With a listener here Node no longer answers 100 Continue by itself: the last onRequest hook does.
  app.server.on('checkContinue', (request, response) => app.server.emit('request', request, response))

  app.addHook('onRequest', async (request) => {
    const declared = Number(request.headers['content-length'] ?? 0)
    const limit = limitOf(request.url)
    if (declared > limit) throw platformErrors.payloadTooLarge(limit)
  })

  app.addHook('preParsing', async (request, _reply, payload) => {
    // A declared length was checked on arrival; without one and without chunks there is no body.
    if (request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] === undefined) return payload
    const limit = limitOf(request.url)
    let received = 0
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length
        if (received <= limit) return done(null, chunk)
        tooLarge.add(request.raw)
        done(platformErrors.payloadTooLarge(limit))
      },
    })
    payload.on('error', (error) => counted.destroy(error))
    return payload.pipe(counted)
  })

  return {
    wentPastLimit: (request) => tooLarge.has(request.raw),
    refuse: (request, reply) => handleError(platformErrors.payloadTooLarge(limitOf(request.url)), request, reply),
  }
}

/** The go-ahead for a client waiting to send its body; added after every check that may refuse it. */
export function registerContinue(app: ServiceApp): void {
  app.addHook('onRequest', async (request, reply) => {
    if (expectsContinue(request) && !reply.raw.headersSent) reply.raw.writeContinue()
  })
}
