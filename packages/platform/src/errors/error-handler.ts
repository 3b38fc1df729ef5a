import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { AppError, isAppError, platformErrors } from './app-error.js'
import { DEPENDENCY_RETRY_AFTER_SECONDS, DependencyUnavailableError } from './dependency-unavailable.js'
import { closeAfterAnswer } from '../kit/close-after-answer.js'

export interface ErrorBodyShape {
  error: { code: string; message: string }
}

export function errorBody(error: AppError): ErrorBodyShape {
  return { error: { code: error.code, message: error.message } }
}

const fastifyCodeMap: Record<string, (error: FastifyError) => AppError> = {
  FST_ERR_CTP_INVALID_JSON_BODY: (error) => platformErrors.malformedJson(`Malformed JSON in request body: ${error.message}`),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => platformErrors.malformedJson("Body cannot be empty when content-type is set to 'application/json'"),
  FST_ERR_CTP_BODY_TOO_LARGE: (error) => new AppError('PAYLOAD_TOO_LARGE', 413, error.message),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (error) => new AppError('UNSUPPORTED_MEDIA_TYPE', 415, error.message),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: (error) => new AppError('BAD_CONTENT_LENGTH', 400, error.message),
}

/** Turns anything thrown in a request into an AppError; unknown errors become a bare 500. */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error
  if (error instanceof DependencyUnavailableError) {
    return new AppError('SERVICE_UNAVAILABLE', 503, error.message, { headers: { 'retry-after': String(DEPENDENCY_RETRY_AFTER_SECONDS) } })
  }
  const fastifyError = error as Partial<FastifyError> & { validation?: unknown; validationContext?: string }
  if (fastifyError && typeof fastifyError === 'object') {
    if (fastifyError.validation) return platformErrors.validationFailed(fastifyError.message ?? 'Invalid request')
    if (fastifyError.code && fastifyCodeMap[fastifyError.code]) return fastifyCodeMap[fastifyError.code](fastifyError as FastifyError)
    if (error instanceof SyntaxError && 'body' in (error as object)) {
      return platformErrors.malformedJson(`Malformed JSON in request body: ${(error as Error).message}`)
    }
    const status = fastifyError.statusCode
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return new AppError(fastifyError.code ?? 'BAD_REQUEST', status, fastifyError.message ?? 'Bad request')
    }
  }
  return platformErrors.internal()
}

/** One error handler for every service: 4xx messages are shown, 5xx details stay in the log. */
export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const appError = toAppError(error)
  if (appError.statusCode === 503) {
    // A store out of reach is an event of the infrastructure, not a fault of this code.
    request.log.warn({ err: error }, appError.message)
  } else if (appError.statusCode >= 500) {
    request.log.error({ err: error }, 'request failed')
  } else {
    request.log.info({ code: appError.code, statusCode: appError.statusCode }, appError.message)
  }
  for (const [name, value] of Object.entries(appError.headers)) reply.header(name, value)
  if (appError.statusCode === 429 && !reply.hasHeader('retry-after')) reply.header('retry-after', '1')
  // A refused body may still be arriving: the connection is closed after the answer, or the rest of
  // the body would be read as the next request on it.
  if (appError.statusCode === 413) closeAfterAnswer(reply)
  void reply.status(appError.statusCode).send(errorBody(appError))
}
