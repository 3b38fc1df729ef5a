/**
 * The retry policy of every provider request: 3 attempts; 429 and 5xx retried after the wait the
 * provider asks for (retry-after), else after 0.5 s, then 1 s; each attempt bounded by the request
 * timeout. The OpenAI and Anthropic SDKs implement this themselves (configured with maxRetries 2);
 * @google/genai does not read retry-after, so its requests go through `retryingFetch`.
 */
import { retryAfterMs } from './provider-error.js'

export const PROVIDER_ATTEMPTS = 3
/** The longest wait between attempts we accept; a provider asking for more fails at once, saying when to retry. */
export const MAX_RETRY_WAIT_MS = 30_000
/** The first wait when the provider names none; it doubles. */
export const BASE_RETRY_DELAY_MS = 500

export type Fetch = typeof fetch

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500
}

/**
 * For SDKs that retry on their own: a retryable answer asking for a wait longer than `maxWaitMs`
 * is marked `x-should-retry: false`, which both SDKs obey, so the request fails now with the
 * provider's retry-after instead of holding the user for minutes.
 */
export function boundRetryWaits(maxWaitMs: number = MAX_RETRY_WAIT_MS, base: Fetch = fetch): Fetch {
  return async (input, init) => {
    const response = await base(input, init)
    if (!isRetryableStatus(response.status)) return response
    const wait = retryAfterMs(response.headers)
    if (wait === undefined || wait <= maxWaitMs) return response
    const headers = new Headers(response.headers)
    headers.set('x-should-retry', 'false')
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
  }
}

/** An attempt got no response headers within the timeout. */
export class AttemptTimeoutError extends Error {
  override readonly name = 'AttemptTimeoutError'
  constructor(
    readonly timeoutMs: number,
    readonly attempts: number,
  ) {
    super(`No answer within ${timeoutMs} ms (${attempts} attempts)`)
  }
}

export interface RetryingFetchOptions {
  attempts?: number
  /** Bounds each attempt until its response headers arrive; a streamed body may take longer. */
  timeoutMs: number
  maxWaitMs?: number
  baseDelayMs?: number
  fetch?: Fetch
}

/** A fetch that applies the retry policy itself; the caller's abort signal stops it at once, waits included. */
export function retryingFetch(options: RetryingFetchOptions): Fetch {
  const attempts = options.attempts ?? PROVIDER_ATTEMPTS
  const maxWaitMs = options.maxWaitMs ?? MAX_RETRY_WAIT_MS
  const baseDelayMs = options.baseDelayMs ?? BASE_RETRY_DELAY_MS
  const base = options.fetch ?? fetch
  return async (input, init) => {
    const callerSignal = init?.signal ?? undefined
    let lastError: unknown
    for (let attempt = 1; attempt <= attempts; attempt++) {
      callerSignal?.throwIfAborted()
      const controller = new AbortController()
      const onAbort = () => controller.abort(callerSignal?.reason)
      callerSignal?.addEventListener('abort', onAbort, { once: true })
      let timedOut = false
      const timer = setTimeout(() => {
        timedOut = true
        controller.abort()
      }, options.timeoutMs)
      let response: Response
      try {
        response = await base(input, { ...init, signal: controller.signal })
      } catch (error) {
        callerSignal?.throwIfAborted()
        lastError = timedOut ? new AttemptTimeoutError(options.timeoutMs, attempt) : error
        if (attempt < attempts) await sleep(baseDelayMs * 2 ** (attempt - 1), callerSignal)
        continue
      } finally {
        clearTimeout(timer)
        // The body may still be streaming: the caller's signal keeps reaching it through the controller.
      }
      if (!isRetryableStatus(response.status) || attempt === attempts) return response
      const asked = retryAfterMs(response.headers)
      if (asked !== undefined && asked > maxWaitMs) return response
      await response.body?.cancel().catch(() => undefined)
      await sleep(asked ?? baseDelayMs * 2 ** (attempt - 1), callerSignal)
    }
    throw lastError
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
