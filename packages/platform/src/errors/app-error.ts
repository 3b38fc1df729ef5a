/**
 * An error a route can throw to answer with a status and a code. Each service lists its own
 * codes in one errors.ts, for example `export const workbookNotFound = () => new AppError('WORKBOOK_NOT_FOUND', 404, 'Workbook not found')`.
 */
export class AppError extends Error {
  /** Headers the answer carries, such as Retry-After on a 429 or 503. */
  readonly headers: Readonly<Record<string, string>>

  constructor(
    readonly code: string,
    readonly statusCode: number,
    message: string,
    options?: { cause?: unknown; headers?: Record<string, string> },
  ) {
    super(message, options)
    this.name = 'AppError'
    this.headers = options?.headers ?? {}
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError
}

/** Codes every service shares; service-specific ones live in the service's errors.ts. */
export const platformErrors = {
  validationFailed: (message: string) => new AppError('VALIDATION_FAILED', 400, message),
  malformedJson: (message: string) => new AppError('MALFORMED_JSON', 400, message),
  unauthenticated: (message = 'Authentication required') => new AppError('UNAUTHENTICATED', 401, message),
  invalidToken: (message = 'Invalid or expired token') => new AppError('INVALID_TOKEN', 401, message),
  forbidden: (message = 'Forbidden') => new AppError('FORBIDDEN', 403, message),
  notFound: (message = 'Not found') => new AppError('NOT_FOUND', 404, message),
  routeNotFound: (method: string, url: string) => new AppError('ROUTE_NOT_FOUND', 404, `Route ${method} ${url} not found`),
  payloadTooLarge: (limitBytes: number) => new AppError('PAYLOAD_TOO_LARGE', 413, `Request body is larger than ${limitBytes} bytes`),
  unsupportedMediaType: (type: string) => new AppError('UNSUPPORTED_MEDIA_TYPE', 415, `Unsupported content type: ${type}`),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError('RATE_LIMITED', 429, `Too many requests, retry in ${retryAfterSeconds} seconds`, { headers: { 'retry-after': String(retryAfterSeconds) } }),
  internal: () => new AppError('INTERNAL_ERROR', 500, 'Internal server error'),
  unavailable: (message = 'Service unavailable') => new AppError('SERVICE_UNAVAILABLE', 503, message),
}
