/** The outside stores a service depends on. */
export type OutsideStore = 'documents' | 'blobs' | 'jobs'

const MESSAGES: Record<OutsideStore, string> = {
  documents: 'The document store is busy. Nothing was changed; try again in a moment.',
  blobs: 'File storage cannot be reached. Nothing was stored; try again in a moment.',
  jobs: 'The job queue cannot be reached. Nothing was stored; try again in a moment.',
}

/** Seconds a client is told to wait before trying again. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5

/**
 * A store could not be reached, or stayed locked past the wait: the operation did nothing, and the
 * same one may succeed in a moment. Adapters throw it so that a request answers 503 with Retry-After
 * (not a 500), and a job is retried.
 */
export class DependencyUnavailableError extends Error {
  constructor(
    readonly store: OutsideStore,
    options?: { cause?: unknown },
  ) {
    super(MESSAGES[store], options)
    this.name = 'DependencyUnavailableError'
  }
}

const NETWORK_FAILURES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED', 'UND_ERR_SOCKET'])

/** Whether `error` says the server could not be reached or dropped the connection (not that it refused the request). */
export function isNetworkFailure(error: unknown): boolean {
  const { code, message, cause } = (error ?? {}) as { code?: unknown; message?: unknown; cause?: unknown }
  if (typeof code === 'string' && NETWORK_FAILURES.has(code)) return true
  if (typeof message === 'string' && /socket hang up|Connection is closed|Stream isn't writeable|connect ECONNREFUSED/.test(message)) return true
  return cause !== undefined && cause !== error && isNetworkFailure(cause)
}
