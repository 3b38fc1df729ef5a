import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { platformErrors } from '../errors/app-error.js'
import { createBaseApp, type ServiceApp } from './create-service-app.js'

let app: ServiceApp
let port: number

beforeAll(async () => {
  app = createBaseApp({ name: 'linger-test', bodyLimit: 1024 })
  // Refused on arrival, as the gateway refuses a declared length past its limit.
  app.addHook('onRequest', async (request) => {
    if (Number(request.headers['content-length'] ?? 0) > 1024) throw platformErrors.payloadTooLarge(1024)
  })
  app.post('/items', async () => ({ ok: true }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  port = (app.server.address() as { port: number }).port
})
afterAll(async () => app?.close())

describe('a connection closed after a 413', () => {
  it('takes what the client still sends after the answer instead of resetting under it, and has ended its side', async () => {
    const outcome = await new Promise<{ answer: string; ended: boolean; error: string | null }>((resolve) => {
      // Half-open, as a client busy sending is: the server's end does not end the client's sending.
      const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true })
      let answer = ''
      let ended = false
      let error: string | null = null
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')))
      socket.on('error', (caught: NodeJS.ErrnoException) => (error = caught.code ?? caught.message))
      socket.on('end', () => {
        ended = true
        // A client that has not noticed yet goes on sending its body for a while.
        const chunk = Buffer.alloc(256 * 1024, 32)
        let sent = 0
        const more = setInterval(() => {
          if (sent++ < 12 && !socket.destroyed) socket.write(chunk, () => undefined)
          else {
            clearInterval(more)
            setTimeout(() => {
              socket.destroy()
              resolve({ answer, ended, error })
            }, 100)
          }
        }, 20)
      })
      socket.write(`POST /items HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n`)
      socket.write(Buffer.alloc(64 * 1024, 32))
    })
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 413 /)
    expect(outcome.answer.toLowerCase()).toContain('connection: close')
    expect(outcome.ended).toBe(true)
    // Closed at once, the server would answer these writes with a reset (ECONNRESET or EPIPE).
    expect(outcome.error).toBeNull()
  })
})
