import { AI_PROVIDER_LABELS, type AiProvider } from '@finsheet/contracts'

/**
 * How a provider request failed, after the provider's retries:
 * - `authentication`: the provider refused the configured credentials (401, 403 on a key);
 * - `rate_limited`: still 429 after every attempt, or the provider asked for a longer wait than we give;
 * - `timeout`: no answer within the request timeout;
 * - `unavailable`: still 5xx after every attempt;
 * - `unreachable`: no connection (DNS, refused, reset);
 * - `rejected`: the provider refused the request itself (400, 404 for an unknown model, 413...);
 * - `aborted`: the caller cancelled (the user pressed Stop, or the deadline passed).
 */
export type ProviderErrorKind = 'authentication' | 'rate_limited' | 'timeout' | 'unavailable' | 'unreachable' | 'rejected' | 'aborted'

/** A failed provider request. Its message never carries a credential or a provider's raw error body. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError'
  readonly status: number | undefined
  /** How long the provider asked us to wait, for a rate limit. */
  readonly retryAfterSeconds: number | undefined

  constructor(
    readonly kind: ProviderErrorKind,
    readonly provider: AiProvider,
    message: string,
    details: { status?: number; retryAfterSeconds?: number } = {},
  ) {
    super(message)
    this.status = details.status
    this.retryAfterSeconds = details.retryAfterSeconds
  }
}

/** The wait a response asks for: `retry-after-ms`, or `retry-after` in seconds or as a date. */
export function retryAfterMs(headers: Headers | undefined | null): number | undefined {
  if (!headers) return undefined
  const millis = Number.parseFloat(headers.get('retry-after-ms') ?? '')
  if (Number.isFinite(millis) && millis >= 0) return millis
  const text = headers.get('retry-after')
  if (!text) return undefined
  const seconds = Number.parseFloat(text)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
  const date = Date.parse(text)
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now())
}

/** Key-like strings a provider may echo back in an error message (OpenAI shows part of a wrong key). */
const SECRET_PATTERNS = [/\b(sk|pk|rk)-[A-Za-z0-9_*-]{6,}/g, /\bsk-ant-[A-Za-z0-9_*-]{6,}/g, /\bAIza[0-9A-Za-z_-]{10,}/g, /\bya29\.[0-9A-Za-z._-]+/g]

/** A provider's error text made safe to show and log: known secrets and key-like strings removed, shortened. */
export function safeProviderText(text: string, secrets: readonly string[] = []): string {
  let safe = text
  for (const secret of secrets) if (secret.length >= 4) safe = safe.split(secret).join('[redacted]')
  for (const pattern of SECRET_PATTERNS) safe = safe.replace(pattern, '[redacted]')
  safe = safe.replace(/\s+/g, ' ').trim()
  return safe.length > 300 ? `${safe.slice(0, 297)}...` : safe
}

/**
 * The ProviderError for an HTTP failure the SDK reported with its status, headers and message.
 * The provider's text is only kept for requests it refused (4xx other than 401 and 429), where it
 * says what to fix (an unknown model, a bad parameter).
 */
export function providerErrorForStatus(
  provider: AiProvider,
  status: number,
  headers: Headers | undefined | null,
  providerText: string,
  context: { attempts: number; credentialVariable: string; secrets: readonly string[] },
): ProviderError {
  const label = AI_PROVIDER_LABELS[provider]
  if (status === 401 || status === 403) {
    return new ProviderError(
      'authentication',
      provider,
      `${label} refused the service’s credentials (${status === 401 ? '401 Unauthorized' : '403 Forbidden'}); check ${context.credentialVariable}`,
      { status },
    )
  }
  if (status === 429) {
    const wait = retryAfterMs(headers)
    const retryAfterSeconds = wait === undefined ? undefined : Math.max(1, Math.ceil(wait / 1000))
    return new ProviderError(
      'rate_limited',
      provider,
      `${label} is limiting requests (429 Too Many Requests)${retryAfterSeconds === undefined ? '' : `; try again in ${retryAfterSeconds} seconds`}`,
      { status, retryAfterSeconds },
    )
  }
  if (status === 408) return new ProviderError('timeout', provider, `${label} timed out answering (408) after ${context.attempts} attempts; try again`, { status })
  if (status >= 500) {
    return new ProviderError('unavailable', provider, `${label} failed (status ${status}) after ${context.attempts} attempts; try again in a moment`, { status })
  }
  const detail = safeProviderText(providerText, context.secrets)
  return new ProviderError('rejected', provider, `${label} refused the request (status ${status})${detail ? `: ${detail}` : ''}`, { status })
}

export function timeoutError(provider: AiProvider, timeoutMs: number, attempts: number): ProviderError {
  return new ProviderError(
    'timeout',
    provider,
    `${AI_PROVIDER_LABELS[provider]} did not answer within ${Math.round(timeoutMs / 100) / 10} seconds (${attempts} attempts); try again or choose a faster model`,
  )
}

export function unreachableError(provider: AiProvider, reason: string): ProviderError {
  return new ProviderError('unreachable', provider, `${AI_PROVIDER_LABELS[provider]} could not be reached: ${safeProviderText(reason)}`)
}

export function abortedError(provider: AiProvider): ProviderError {
  return new ProviderError('aborted', provider, 'The request was cancelled')
}

/** A dropped or refused connection as fetch reports it (while sending, or while reading a streamed body). */
export function isConnectionFailure(error: unknown): error is Error {
  if (!(error instanceof Error)) return false
  const code = (error.cause as { code?: unknown } | undefined)?.code ?? (error as { code?: unknown }).code
  if (typeof code === 'string' && (code.startsWith('UND_ERR') || ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT'].includes(code))) return true
  return error instanceof TypeError && (error.message === 'terminated' || error.message === 'fetch failed')
}

/** The reason a connection failure gives, for the message. */
export function connectionReason(error: Error): string {
  return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message
}
