import type { FastifyReply } from 'fastify'

/** Aborted when the client goes away before the answer is finished, so the model request stops too. */
export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController()
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('The client closed the connection'))
  })
  return controller.signal
}
