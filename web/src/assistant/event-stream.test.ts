import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { StreamEvent } from './event-stream'
import { AssistantRequestError, postEventStream } from './event-stream'

/** A local server answering each path as the test says, speaking server-sent events or JSON errors. */
let server: Server
let baseUrl: string
const routes = new Map<string, (response: ServerResponse, body: string, authorization: string | undefined) => unknown>()

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const route = routes.get(request.url ?? '')
      if (!route) return response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"NOT_FOUND","message":"Route not found"}}')
      void route(response, Buffer.concat(chunks).toString(), request.headers.authorization)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const stream = (response: ServerResponse) => response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' })
const event = (response: ServerResponse, name: string, data: unknown) => response.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`)

async function collect(path: string, options: Partial<Parameters<typeof postEventStream>[3]> = {}): Promise<StreamEvent[]> {
  const events: StreamEvent[] = []
  await postEventStream(path, { message: 'hello' }, (e) => events.push(e), { getToken: () => 'token-1', baseUrl, ...options })
  return events
}

describe('postEventStream', () => {
  it('posts the body with the token and hands over each event, parsed, as it arrives', async () => {
    let heardFirst: () => void = () => undefined
    const first = new Promise<void>((resolve) => (heardFirst = resolve))
    routes.set('/api/ai/chat', async (response, body, authorization) => {
      stream(response)
      event(response, 'delta', { text: `${JSON.parse(body).message} ` })
      // the second event is written only once the first was read: a reader that waited for the end would hang
      await first
      event(response, 'delta', { text: authorization ?? '' })
      response.write('event: done\ndata: {"success":tr')
      response.end('ue}\n\n')
    })
    const events: StreamEvent[] = []
    await postEventStream('/ai/chat', { message: 'hello' }, (e) => {
      events.push(e)
      if (events.length === 1) heardFirst()
    }, { getToken: () => 'token-1', baseUrl })
    expect(events).toEqual([
      { event: 'delta', data: { text: 'hello ' } },
      { event: 'delta', data: { text: 'Bearer token-1' } },
      { event: 'done', data: { success: true } },
    ])
  })

  it("gives a JSON refusal as its status, code and message, and tells a refused token", async () => {
    routes.set('/api/ai/refused', (response) => response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"code":"UNAUTHORIZED","message":"The token has expired"}}'))
    const onUnauthorized = vi.fn()
    const failure = await collect('/ai/refused', { onUnauthorized }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(AssistantRequestError)
    expect(failure).toMatchObject({ status: 401, code: 'UNAUTHORIZED', message: 'The token has expired' })
    expect(onUnauthorized).toHaveBeenCalledOnce()
  })

  it('never passes on an error page or a body it cannot read as the message', async () => {
    routes.set('/api/ai/html', (response) => response.writeHead(500, 'Internal Server Error', { 'content-type': 'text/html' }).end('<html><body>stack trace at line 3</body></html>'))
    routes.set('/api/ai/json', (response) => response.writeHead(502, 'Bad Gateway', { 'content-type': 'application/json' }).end('{"unexpected":true}'))
    expect(await collect('/ai/html').catch((error: unknown) => error)).toMatchObject({ status: 500, message: 'Internal Server Error' })
    expect(await collect('/ai/json').catch((error: unknown) => error)).toMatchObject({ status: 502, message: 'Bad Gateway' })
  })

  it('takes a whole JSON answer as its done event', async () => {
    routes.set('/api/ai/whole', (response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"response":"Hi"}'))
    expect(await collect('/ai/whole')).toEqual([{ event: 'done', data: { success: true, response: 'Hi' } }])
  })

  it('says the backend cannot be reached with status 0, and rejects with the abort when stopped', async () => {
    const unreachable = await postEventStream('/ai/chat', {}, () => undefined, { getToken: () => null, baseUrl: 'http://127.0.0.1:9' }).catch((error: unknown) => error)
    expect(unreachable).toMatchObject({ status: 0, message: 'Failed to fetch' })

    routes.set('/api/ai/slow', (response) => {
      stream(response)
      event(response, 'delta', { text: 'partial' })
    })
    const abort = new AbortController()
    const events: StreamEvent[] = []
    const run = postEventStream('/ai/slow', {}, (e) => {
      events.push(e)
      abort.abort()
    }, { getToken: () => null, baseUrl, signal: abort.signal })
    await expect(run).rejects.toThrow(/abort/i)
    expect(events).toEqual([{ event: 'delta', data: { text: 'partial' } }])
  })
})
