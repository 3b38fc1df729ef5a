/**
 * What the provider stubs share: an HTTP server on a loopback port that records every request it
 * receives and answers each with the next turn of a script. A turn is written once, in neutral
 * terms (text, tool calls, an error, no answer at all), and each stub renders it in its API's own
 * format, streamed or whole as the request asks.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/** A tool call a scripted reply makes. `arguments` as text is sent as written, valid JSON or not. */
export interface ScriptedToolCall {
  id?: string
  name: string
  arguments: Record<string, unknown> | string
}

export interface ScriptedReply {
  text?: string
  toolCalls?: ScriptedToolCall[]
  /** Default: tool use when there are calls, else the end of the turn. */
  stopReason?: 'end_turn' | 'tool_use' | 'max_tokens' | 'content_filter'
  /** Default: a count derived from the sizes of the request and the reply. */
  usage?: { inputTokens: number; outputTokens: number }
  /** A streamed reply's connection drops after its text, before the reply ends. */
  cutOff?: boolean
  /** A streamed reply waits this long before each event, as a model generating text does. Default 0. */
  paceMs?: number
}

export type ScriptedTurn =
  | { reply: ScriptedReply }
  /** An HTTP error in the API's error format, with its headers (retry-after...). */
  | { error: { status: number; message?: string; headers?: Record<string, string> } }
  /** Accepts the request and never answers: the client's timeout fires. */
  | { hang: true }

export type TurnSource = ScriptedTurn | ((request: RecordedRequest) => ScriptedTurn)

export interface RecordedRequest {
  method: string
  path: string
  query: Record<string, string>
  headers: Record<string, string>
  /** The JSON body, parsed. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any
  /** When it arrived, in ms since the server started (to check waits between retries). */
  at: number
}

export interface StubServer {
  /** The base URL to give the SDK (OPENAI_BASE_URL, ANTHROPIC_BASE_URL, the Vertex base URL). */
  readonly url: string
  /** Every request the API route received, in order, authorised or not. */
  readonly requests: RecordedRequest[]
  /** Appends turns to the script; each request takes the next one. */
  enqueue(...turns: TurnSource[]): void
  /** Turns not used yet. */
  pending(): number
  /** Forgets the script and the recorded requests. */
  reset(): void
  close(): Promise<void>
}

export interface StubOptions {
  /** The key (or bearer token) requests must carry; others get the API's 401. Default: any. */
  apiKey?: string
  /** Answers requests when the script is empty; default a 500 saying so, which makes a test fail visibly. */
  fallback?: TurnSource
}

/** How one API speaks: where its route is, how it authenticates, and how it writes answers. */
export interface ApiDialect {
  name: string
  isCompletionRoute(method: string, path: string): boolean
  credentialOf(request: RecordedRequest): string | undefined
  /** Writes the API's error body for a status. */
  sendError(response: ServerResponse, status: number, message: string, headers?: Record<string, string>, request?: RecordedRequest): void
  /** Writes a scripted reply, streamed when the request asked for it. */
  sendReply(request: RecordedRequest, reply: ScriptedReply, response: ServerResponse): void | Promise<void>
}

export async function startStubServer(dialect: ApiDialect, options: StubOptions = {}): Promise<StubServer> {
  const started = Date.now()
  const requests: RecordedRequest[] = []
  let turns: TurnSource[] = []
  const sockets = new Set<Socket>()

  const server: Server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://stub')
      const text = Buffer.concat(chunks).toString('utf8')
      let body: unknown = null
      try {
        body = text ? JSON.parse(text) : null
      } catch {
        body = text
      }
      const request: RecordedRequest = {
        method: incoming.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: Object.fromEntries(Object.entries(incoming.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')])),
        body,
        at: Date.now() - started,
      }
      if (!dialect.isCompletionRoute(request.method, request.path)) {
        dialect.sendError(response, 404, `${dialect.name} stub: no route ${request.method} ${request.path}`)
        return
      }
      requests.push(request)
      if (options.apiKey !== undefined && dialect.credentialOf(request) !== options.apiKey) {
        dialect.sendError(response, 401, `Incorrect API key provided: ${dialect.credentialOf(request) ?? '(none)'}`, undefined, request)
        return
      }
      const source = turns.shift() ?? options.fallback
      const turn = typeof source === 'function' ? source(request) : source
      if (!turn) {
        dialect.sendError(response, 500, `${dialect.name} stub: no scripted reply left for request ${requests.length}`)
        return
      }
      if ('hang' in turn) return
      if ('error' in turn) {
        dialect.sendError(response, turn.error.status, turn.error.message ?? `Scripted error ${turn.error.status}`, turn.error.headers, request)
        return
      }
      void Promise.resolve(dialect.sendReply(request, turn.reply, response)).catch(() => response.destroy())
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...more) => {
      turns.push(...more)
    },
    pending: () => turns.length,
    reset: () => {
      turns = []
      requests.length = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

// ---- helpers the dialects share ------------------------------------------------------------------

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers })
  response.end(JSON.stringify(body))
}

/** Starts a server-sent event stream; the stub writes its events and ends it. */
export function startEventStream(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
}

/** A reply's text in the pieces a streaming model would send: a few words at a time. */
export function textPieces(text: string): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? []
  const pieces: string[] = []
  for (let i = 0; i < words.length; i += 3) pieces.push(words.slice(i, i + 3).join(''))
  return pieces
}

/** Argument text in the pieces a streaming model would send. */
export function jsonPieces(text: string): string[] {
  const pieces: string[] = []
  for (let i = 0; i < text.length; i += 12) pieces.push(text.slice(i, i + 12))
  return pieces
}

export function argumentText(call: ScriptedToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments)
}

/** Token counts the stubs report when a reply names none: about four characters a token. */
export function defaultUsage(request: RecordedRequest, reply: ScriptedReply): { inputTokens: number; outputTokens: number } {
  if (reply.usage) return reply.usage
  const outputText = (reply.text ?? '') + (reply.toolCalls ?? []).map((call) => call.name + argumentText(call)).join('')
  return { inputTokens: Math.ceil(JSON.stringify(request.body ?? '').length / 4), outputTokens: Math.max(1, Math.ceil(outputText.length / 4)) }
}

/** Drops the connection once what was written has left, before the reply ends. */
export function cutOff(response: ServerResponse): void {
  setTimeout(() => response.destroy(), 30)
}

/** Writes streamed events, waiting `paceMs` before each so that a client sees them arrive over time. */
export function pacedWriter(response: ServerResponse, paceMs = 0): (text: string) => Promise<void> {
  return async (text) => {
    if (paceMs > 0) await new Promise((resolve) => setTimeout(resolve, paceMs))
    if (!response.destroyed) response.write(text)
  }
}
