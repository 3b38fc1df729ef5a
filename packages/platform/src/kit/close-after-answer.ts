import type { Socket } from 'node:net'
import type { FastifyReply } from 'fastify'

/** How long a connection closed after a refused body keeps taking what the client still sends. */
export const LINGER_MS = 5_000

const lingering = new WeakSet<Socket>()

/**
 * Answers on a connection that closes after the answer, for a request whose body is refused while
 * the client may still be sending it (413). Closing at once would reset the connection under a
 * client that is still writing, and it would see a broken connection instead of the 413; keeping the
 * connection would read the rest of the body as the next request. So the server says
 * `Connection: close`, sends its answer and its end of the connection, and drops whatever else
 * arrives for up to LINGER_MS before closing for good.
 */
export function closeAfterAnswer(reply: FastifyReply): void {
  reply.header('connection', 'close')
  // The body is read and dropped from here on, whoever was reading it.
  reply.request.raw.resume()
  const socket = reply.raw.socket as (Socket & { destroySoon?: () => void }) | null
  if (!socket || typeof socket.destroySoon !== 'function' || lingering.has(socket)) return
  lingering.add(socket)
  // Node's server calls destroySoon once an answer marked Connection: close has been sent.
  socket.destroySoon = function lingeringClose(this: Socket) {
    if (this.writable) this.end()
    const timer = setTimeout(() => this.destroy(), LINGER_MS)
    timer.unref()
    this.once('close', () => clearTimeout(timer))
  }
}
