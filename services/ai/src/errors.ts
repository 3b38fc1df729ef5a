import { AI_ERROR_CODES, AI_PROVIDER_LABELS, FINANCIAL_MODEL_TYPES, MAX_ASSISTANT_MESSAGE_LENGTH } from '@finsheet/contracts'
import { AppError } from '@finsheet/platform'
import type { ProviderError } from './providers/provider-error.js'

const thousands = (n: number) => n.toLocaleString('en-US')
const REQUEST_CANCELLED = 'REQUEST_CANCELLED'

/** An error whose answer carries a retry-after header (the app's onError hook sets it). */
export class RetryLaterError extends AppError {
  constructor(
    code: string,
    statusCode: number,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(code, statusCode, message)
  }
}

/** Every error the ai service answers with, by code. The assistant panel words them with assistantErrorText. */
export const aiErrors = {
  unknownModel: (model: string, available: readonly string[]) =>
    new AppError(AI_ERROR_CODES.unknownModel, 400, `Unknown model ${JSON.stringify(model)}. Available models: ${available.join(', ')}`),
  modelNotConfigured: (model: string, reason: string) => new AppError(AI_ERROR_CODES.modelNotConfigured, 400, `The model ${model} is not configured: ${reason}`),
  emptyMessage: () => new AppError(AI_ERROR_CODES.emptyMessage, 400, 'The message is empty: type a question or a command'),
  emptyDescription: () => new AppError(AI_ERROR_CODES.emptyMessage, 400, 'Describe the formula you need'),
  messageTooLong: (length: number) =>
    new AppError(AI_ERROR_CODES.messageTooLong, 413, `The message has ${thousands(length)} characters; at most ${thousands(MAX_ASSISTANT_MESSAGE_LENGTH)} are accepted`),
  dailyLimitReached: (used: number, limit: number, resetSeconds: number) =>
    new RetryLaterError(
      AI_ERROR_CODES.dailyLimit,
      429,
      `You have used today’s AI allowance (${thousands(used)} of ${thousands(limit)} tokens). It renews at midnight UTC, in ${duration(resetSeconds)}; the Local (offline) model keeps working meanwhile.`,
      resetSeconds,
    ),
  emptyResponse: (providerLabel: string) => new AppError(AI_ERROR_CODES.emptyResponse, 502, `${providerLabel} returned an empty answer; try again or choose another model`),
  tooManyToolCalls: (limit: number) => new AppError(AI_ERROR_CODES.toolLimit, 502, `The model called tools ${limit} times without answering; ask a narrower question`),
  workbookNotFound: () => new AppError('WORKBOOK_NOT_FOUND', 404, 'Workbook not found'),
  changesetNotFound: () => new AppError('CHANGESET_NOT_FOUND', 404, 'Changeset not found'),
  workbookRequired: () =>
    new AppError('WORKBOOK_REQUIRED', 400, 'Open a workbook for the assistant to work on: send its workbookId (only a command that creates a new model goes without one)'),
  modelGenerationUnavailable: () =>
    new AppError('MODEL_GENERATION_UNAVAILABLE', 503, 'Creating financial models is not available on this server: its model generator is not set up. Agent mode can still change an open workbook.'),
  unknownModelType: (modelType: string) =>
    new AppError('UNKNOWN_MODEL_TYPE', 400, `Unknown model type ${JSON.stringify(modelType.slice(0, 50))}. Model types: ${FINANCIAL_MODEL_TYPES.join(', ')}`),
  invalidModelParameter: (message: string) => new AppError('INVALID_MODEL_PARAMETER', 400, message),
  emptyCompanyName: () => new AppError('INVALID_COMPANY_NAME', 400, 'Name the company the model is for: companyName is empty'),
  jobNotFound: () => new AppError('JOB_NOT_FOUND', 404, 'Job not found'),
  modelGenerationFailed: (reason: string) => new AppError('MODEL_GENERATION_FAILED', 502, `The model could not be created: ${reason}`),
  modelGenerationPending: (jobId: string) =>
    new AppError('MODEL_GENERATION_PENDING', 504, `The model is still being created (job ${jobId}); it will appear in your workbooks when it is done`),
  fileNotFound: () => new AppError('FILE_NOT_FOUND', 404, 'File not found'),
  noFigures: (name: string) => new AppError('NO_DATA_EXTRACTED', 400, `The file ${name} has no extracted figures to ask about (only processed PDF documents have them)`),
  serviceUnavailable: (service: string) => new AppError('UPSTREAM_UNAVAILABLE', 502, `The ${service} service could not be reached; try again in a moment`),
  serviceAnsweredBadly: (service: string) => new AppError('UPSTREAM_INVALID_ANSWER', 502, `The ${service} service answered in an unexpected form`),
  /** The client went away before the answer was ready. */
  cancelled: () => new AppError(REQUEST_CANCELLED, 499, 'The request was cancelled'),
  /** A provider failure, after its retries. */
  provider: (error: ProviderError): AppError => {
    const label = AI_PROVIDER_LABELS[error.provider]
    switch (error.kind) {
      case 'authentication':
        return new AppError(AI_ERROR_CODES.providerAuthentication, 502, error.message)
      case 'rate_limited':
        return new RetryLaterError(AI_ERROR_CODES.providerRateLimited, 429, error.message, error.retryAfterSeconds ?? 30)
      case 'timeout':
        return new AppError(AI_ERROR_CODES.providerTimeout, 504, error.message)
      case 'unavailable':
      case 'unreachable':
        return new AppError(AI_ERROR_CODES.providerUnavailable, 502, error.message)
      case 'rejected':
        return new AppError(AI_ERROR_CODES.providerRejected, 502, error.message)
      case 'aborted':
        return new AppError(REQUEST_CANCELLED, 499, `The request to ${label} was cancelled`)
    }
  },
}

function duration(seconds: number): string {
  const total = Math.max(1, Math.ceil(seconds / 60))
  const hours = Math.floor(total / 60)
  const minutes = total % 60
  if (hours === 0) return `${minutes} min`
  return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`
}
