/**
 * The one way the web app talks to the backend: every call goes to `/api/<area>/...` with the
 * user's bearer token, and is retried as spec 2 §8 says — 3 attempts; a 429 waits 2 s then 4 s;
 * a 5xx or a network failure waits 1 s, 2 s, 4 s; any other 4xx fails at once; 204 gives null.
 * A 429 whose Retry-After asks for longer than the next wait fails at once too: asking again
 * sooner than the server allows cannot succeed (a sign-in lockout lasts minutes).
 */

import { EXPORT_NOTES_HEADER } from '@finsheet/contracts'

export const REQUEST_ATTEMPTS = 3
const RATE_LIMIT_FIRST_WAIT_MS = 2000
const SERVER_ERROR_FIRST_WAIT_MS = 1000

/** An HTTP answer that was not a success. Its message is 'API Error {status}: {text}'. */
export class ApiError extends Error {
  readonly status: number
  readonly statusText: string
  readonly body: unknown
  /** the service's error code, when the body is `{ error: { code, message } }` */
  readonly code: string | undefined
  /** how long the server asked to wait before trying again (its Retry-After), when it said */
  readonly retryAfterSeconds: number | null

  constructor(status: number, statusText: string, body: unknown, retryAfterSeconds: number | null = null) {
    const serviceError = readServiceError(body)
    super(`API Error ${status}: ${serviceError?.message ?? statusText}`)
    this.name = 'ApiError'
    this.status = status
    this.statusText = statusText
    this.body = body
    this.code = serviceError?.code
    this.retryAfterSeconds = retryAfterSeconds
  }
}

/** A success status whose body is an HTML page: a proxy or server fault, not an answer. */
export class HtmlResponseError extends Error {
  constructor() {
    super('Server returned an HTML error page instead of JSON. This usually indicates a server error or timeout.')
    this.name = 'HtmlResponseError'
  }
}

/** Every attempt failed with a retryable answer; `lastError` is the final one. */
export class RetriesExhaustedError extends Error {
  readonly lastError: ApiError
  readonly status: number

  constructor(message: string, lastError: ApiError) {
    super(message)
    this.name = 'RetriesExhaustedError'
    this.lastError = lastError
    this.status = lastError.status
  }
}

function readServiceError(body: unknown): { code?: string; message: string } | null {
  if (body && typeof body === 'object' && 'error' in body) {
    const error = (body as { error: unknown }).error
    if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') {
      const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined
      return { code, message: error.message }
    }
    if (typeof error === 'string') return { message: error }
  }
  return null
}

/** The HTTP status of any error the client throws, or undefined for other errors. */
export function errorStatus(error: unknown): number | undefined {
  if (error instanceof ApiError || error instanceof RetriesExhaustedError) return error.status
  return undefined
}

/** Whether a call failed for want of any answer (no network, the server unreachable), after its retries. */
export function isUnreachable(error: unknown): boolean {
  const failure = error instanceof RetriesExhaustedError ? error.lastError : error
  return failure instanceof ApiError && failure.status === NETWORK_ERROR_STATUS && failure.statusText === NETWORK_ERROR_TEXT
}

/** Whether a status may pass by itself: too many requests, a server error, or no answer at all. */
function isPassingStatus(status: number): boolean {
  return status === 429 || status >= 500
}

/** Whether a failed call may succeed later as it is (so its work is kept and tried again). */
export function isPassingFailure(error: unknown): boolean {
  const status = errorStatus(error)
  return status === undefined || isPassingStatus(status)
}

/**
 * How long to wait before attempt `attempt + 1` after a failed attempt `attempt` (1-based), or
 * null when the failure is final.
 */
export function retryDelay(status: number, attempt: number, attempts = REQUEST_ATTEMPTS, retryAfterSeconds: number | null = null): number | null {
  if (attempt >= attempts || !isPassingStatus(status)) return null
  if (status === 429) {
    const wait = RATE_LIMIT_FIRST_WAIT_MS * 2 ** (attempt - 1)
    return retryAfterSeconds !== null && retryAfterSeconds * 1000 > wait ? null : wait
  }
  return SERVER_ERROR_FIRST_WAIT_MS * 2 ** (attempt - 1)
}

/** Seconds of a Retry-After header given as a number; null for none or a date. */
export function retryAfterOf(header: string | null): number | null {
  if (header === null || !/^\d+$/.test(header.trim())) return null
  return Number(header.trim())
}

export interface ApiClientOptions {
  /** where `/api` lives; '' for the page's own origin */
  baseUrl?: string
  /** the current user's token, or null when signed out */
  getToken?: () => Promise<string | null> | string | null
  /** called once when an authenticated call answers 401, so the app can sign the user out */
  onUnauthorized?: () => void
  fetch?: typeof fetch
  sleep?: (ms: number) => Promise<void>
  attempts?: number
}

export interface RequestOptions {
  body?: unknown
  /** a multipart body; sent as is, without a JSON content type */
  form?: FormData
  query?: Record<string, string | number | boolean | undefined>
  signal?: AbortSignal
  /** health and status checks carry no token */
  anonymous?: boolean
  /** lets the request finish after the page is gone (saving on page hide); bodies up to 64 KB */
  keepalive?: boolean
  /** read the answer as a file, or as it arrives (its body, in the type `accept` names), rather than as JSON */
  as?: 'json' | 'file' | 'stream'
  /** the type of answer asked for (Accept); JSON when absent */
  accept?: string
}

/** A downloaded file and the name the server gave it. */
export interface DownloadedFile {
  blob: Blob
  fileName: string | null
  /** What the file holds differently from the workbook ('charts exported as pictures: 2'), when the server says */
  notes: string | null
}

/** A network failure is reported as this status and text. */
const NETWORK_ERROR_STATUS = 500
const NETWORK_ERROR_TEXT = 'Network error'

export class ApiClient {
  private readonly baseUrl: string
  private readonly options: ApiClientOptions
  private readonly fetchImpl: typeof fetch
  private readonly sleep: (ms: number) => Promise<void>

  constructor(options: ApiClientOptions = {}) {
    this.options = options
    this.baseUrl = (options.baseUrl ?? '').replace(/\/$/, '')
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
  }

  get<T>(path: string, options?: RequestOptions): Promise<T> {
    return this.request<T>('GET', path, options)
  }

  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return this.request<T>('POST', path, { ...options, body })
  }

  put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return this.request<T>('PUT', path, { ...options, body })
  }

  delete<T>(path: string, options?: RequestOptions): Promise<T> {
    return this.request<T>('DELETE', path, options)
  }

  upload<T>(path: string, form: FormData, options?: RequestOptions): Promise<T> {
    return this.request<T>('POST', path, { ...options, form })
  }

  /** GETs a file (an export) with the same token and retries as any call. */
  download(path: string, options?: RequestOptions): Promise<DownloadedFile> {
    return this.request<DownloadedFile>('GET', path, { ...options, as: 'file' })
  }

  /**
   * GETs an answer to read as it arrives (lines of JSON, say): its body, once the service has answered
   * with success; retried as any call until then. A failure while reading comes from the body's reader.
   */
  stream(path: string, accept: string, options?: RequestOptions): Promise<ReadableStream<Uint8Array>> {
    return this.request<ReadableStream<Uint8Array>>('GET', path, { ...options, as: 'stream', accept })
  }

  /** `path` is relative to /api, e.g. '/users/login'. Resolves with the parsed JSON body, or null for 204. */
  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const attempts = this.options.attempts ?? REQUEST_ATTEMPTS
    const url = this.url(path, options.query)
    const exhaustedMessage = options.form ? 'Upload failed after retries' : 'Request failed after retries'
    for (let attempt = 1; ; attempt++) {
      const headers: Record<string, string> = { Accept: options.accept ?? 'application/json' }
      if (!options.anonymous) {
        const token = await this.options.getToken?.()
        if (token) headers.Authorization = `Bearer ${token}`
      }
      let body: BodyInit | undefined
      if (options.form) body = options.form
      else if (options.body !== undefined) {
        headers['Content-Type'] = 'application/json'
        body = JSON.stringify(options.body)
      }

      let failure: ApiError
      try {
        const response = await this.fetchImpl(url, { method, headers, body, credentials: 'include', signal: options.signal, keepalive: options.keepalive })
        if (response.status === 204) return null as T
        if (options.as === 'stream' && response.ok && response.body) return response.body as T
        if (options.as === 'file' && response.ok) {
          return { blob: await response.blob(), fileName: fileNameOf(response.headers.get('content-disposition')), notes: response.headers.get(EXPORT_NOTES_HEADER) } as T
        }
        const parsed = await readBody(response)
        if (response.ok) return parsed as T
        failure = new ApiError(response.status, response.statusText, parsed, retryAfterOf(response.headers.get('retry-after')))
        if (response.status === 401 && headers.Authorization) this.options.onUnauthorized?.()
      } catch (error) {
        if (options.signal?.aborted || error instanceof HtmlResponseError) throw error
        failure = new ApiError(NETWORK_ERROR_STATUS, NETWORK_ERROR_TEXT, null)
      }

      const wait = retryDelay(failure.status, attempt, attempts, failure.retryAfterSeconds)
      if (wait === null) {
        throw isPassingStatus(failure.status) && attempt > 1 ? new RetriesExhaustedError(exhaustedMessage, failure) : failure
      }
      await this.sleep(wait)
    }
  }

  private url(path: string, query?: RequestOptions['query']): string {
    const search = new URLSearchParams()
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(key, String(value))
    const qs = search.toString()
    return `${this.baseUrl}/api${path.startsWith('/') ? path : `/${path}`}${qs ? `?${qs}` : ''}`
  }
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text()
  if (text === '') return null
  const type = response.headers.get('content-type') ?? ''
  if (type.includes('json')) {
    try {
      return JSON.parse(text)
    } catch {
      return text
    }
  }
  if (/^\s*</.test(text) && response.ok) throw new HtmlResponseError()
  return text
}

/** The file name of a Content-Disposition header, preferring the UTF-8 form. */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(disposition)
  if (extended) {
    try {
      return decodeURIComponent(extended[1])
    } catch {
      // fall back to the plain form
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(disposition)
  return plain ? plain[1] : null
}
