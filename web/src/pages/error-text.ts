import { ApiError, RetriesExhaustedError } from '../api/api-client'

/**
 * The part of an error a person can read: the service's own message without the
 * 'API Error {status}: ' prefix of the request layer, or the error's message.
 */
export function errorText(error: unknown, fallback = 'Something went wrong'): string {
  const source = error instanceof RetriesExhaustedError ? error.lastError : error
  if (source instanceof ApiError) return source.message.replace(/^API Error \d+: /, '') || fallback
  if (source instanceof Error && source.message) return source.message
  return fallback
}
