import { createParser } from 'eventsource-parser'
import { ASSISTANT_ERROR_TEXTS } from '@finsheet/contracts'

/**
 * The assistant's streamed answers: a POST sent with `Accept: text/event-stream`, read as
 * server-sent events as they arrive. Until the stream begins the service answers failures as
 * ordinary JSON errors with their status; after, as an `error` event.
 */

/** A failed assistant request, as the panel words it: `status` 0 when the backend was never reached. */
export class AssistantRequestError extends Error {
  readonly status: number
  readonly code: string | undefined

  constructor(status: number, message: string, code?: string) {
    super(message)
    this.name = 'AssistantRequestError'
    this.status = status
    this.code = code
  }
}

export interface StreamEvent {
  event: string
  data: unknown
}

export interface EventStreamOptions {
  /** the bearer token of the signed-in user */
  getToken(): Promise<string | null> | string | null
  signal?: AbortSignal
  /** called once when the backend refuses the token */
  onUnauthorized?(): void
  /** where `/api` lives; '' for the page's own origin */
  baseUrl?: string
  fetch?: typeof fetch
}

/** The `{ error: { code, message } }` of a service's answer, when it is one. */
export function serviceErrorOf(body: unknown): { code?: string; message: string } | null {
  if (!body || typeof body !== 'object' || !('error' in body)) return null
  const error = (body as { error: unknown }).error
  if (typeof error === 'string') return { message: error }
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') {
    return { code: 'code' in error && typeof error.code === 'string' ? error.code : undefined, message: error.message }
  }
  return null
}

/**
 * Posts `body` to `/api{path}` and calls `onEvent` for every event of the answer, in order. Resolves
 * when the stream ends; rejects with an AssistantRequestError for an answer that is not a stream
 * (its status and the service's message, never the raw body), or with the abort when `signal` fires.
 */
export async function postEventStream(path: string, body: unknown, onEvent: (event: StreamEvent) => void, options: EventStreamOptions): Promise<void> {
  const token = await options.getToken()
  const headers: Record<string, string> = { Accept: 'text/event-stream', 'Content-Type': 'application/json' }
  if (token) headers.Authorization = `Bearer ${token}`
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  let response: Response
  try {
    response = await fetchImpl(`${options.baseUrl ?? ''}/api${path}`, { method: 'POST', headers, body: JSON.stringify(body), credentials: 'include', signal: options.signal })
  } catch (error) {
    if (options.signal?.aborted) throw error
    throw new AssistantRequestError(0, 'Failed to fetch')
  }
  const type = response.headers.get('content-type') ?? ''
  if (!response.ok || !type.includes('text/event-stream')) {
    const text = await response.text().catch(() => '')
    let parsed: unknown = null
    try {
      parsed = type.includes('json') && text ? JSON.parse(text) : null
    } catch {
      parsed = null
    }
    if (response.status === 401 && token) options.onUnauthorized?.()
    const serviceError = serviceErrorOf(parsed)
    if (response.ok) {
      // a whole JSON answer where a stream was asked for: given as its done event
      if (parsed !== null && serviceError === null) {
        onEvent({ event: 'done', data: parsed })
        return
      }
      throw new AssistantRequestError(502, ASSISTANT_ERROR_TEXTS.chatNotOk)
    }
    throw new AssistantRequestError(response.status, serviceError?.message ?? (response.statusText || ASSISTANT_ERROR_TEXTS.chatNotOk), serviceError?.code)
  }
  if (!response.body) throw new AssistantRequestError(502, ASSISTANT_ERROR_TEXTS.chatNotOk)

  const parser = createParser({
    onEvent: (message) => {
      let data: unknown = message.data
      try {
        data = JSON.parse(message.data)
      } catch {
        // not JSON: passed on as text
      }
      onEvent({ event: message.event ?? 'message', data })
    },
  })
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    parser.feed(decoder.decode(value, { stream: true }))
  }
  parser.feed(decoder.decode())
}
