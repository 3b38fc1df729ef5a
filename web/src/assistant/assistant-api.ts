import type {
  AgentStep,
  AgentToolCallEvent,
  AiModelOption,
  ApplyChangesetBody,
  ApplyChangesetResponse,
  AvailableModelsResponse,
  ChangeLogResponse,
  Changeset,
  ChangesetBrief,
  ChangesetResponse,
  ChatBody,
  ChatResponse,
  ChatToolCallEvent,
  ChatToolResultEvent,
  FormulaSuggestion,
  FormulaSuggestionsResponse,
  GenerateFormulaBody,
  ModelGenerationProgress,
  ProcessActionBody,
  ProcessActionResponse,
} from '@finsheet/contracts'
import { ASSISTANT_ERROR_TEXTS, CHAT_STREAM_EVENTS, DEFAULT_AI_MODEL, FALLBACK_MODEL_VALUES, HOSTED_MODELS, PROCESS_ACTION_STREAM_EVENTS } from '@finsheet/contracts'
import type { ApiClient } from '../api/api-client'
import { ApiError, RetriesExhaustedError } from '../api/api-client'
import type { EventStreamOptions, StreamEvent } from './event-stream'
import { AssistantRequestError, postEventStream, serviceErrorOf } from './event-stream'

/** The model picker's list: loaded, or the built-in fallback when the list could not be read. */
export interface ModelList {
  models: AiModelOption[]
  defaultModel: string
  /** the service did not answer: these are the built-in three */
  fallback: boolean
}

/** The three models the picker offers when the list cannot be loaded: one GPT-4o and two Claude models. */
export function fallbackModels(): ModelList {
  const models = FALLBACK_MODEL_VALUES.map((value) => HOSTED_MODELS.find((model) => model.value === value)!).map((model) => ({ ...model, available: true }))
  return { models, defaultModel: DEFAULT_AI_MODEL, fallback: true }
}

/** GET /api/ai/availableModels; the spec's fallback list when it fails. */
export async function loadModels(api: ApiClient): Promise<ModelList> {
  try {
    const answer = await api.get<AvailableModelsResponse>('/ai/availableModels')
    if (!answer || !Array.isArray(answer.models)) return fallbackModels()
    return { models: answer.models, defaultModel: answer.defaultModel, fallback: false }
  } catch (error) {
    console.warn('The model list could not be loaded; offering the built-in models', error)
    return fallbackModels()
  }
}

/** What an assistant request failed with, in the terms assistantErrorText takes. */
export interface AssistantFailure {
  status: number
  code?: string
  message: string
}

/** Any error of an assistant call, as a failure the panel can word (never the raw body). */
export function failureOf(error: unknown): AssistantFailure {
  if (error instanceof AssistantRequestError) return { status: error.status, code: error.code, message: error.message }
  const apiError = error instanceof RetriesExhaustedError ? error.lastError : error
  if (apiError instanceof ApiError) {
    if (apiError.status === 500 && apiError.statusText === 'Network error') return { status: 0, message: 'Failed to fetch' }
    const serviceError = serviceErrorOf(apiError.body)
    return { status: apiError.status, code: apiError.code, message: serviceError?.message ?? (apiError.statusText || ASSISTANT_ERROR_TEXTS.chatNotOk) }
  }
  if (error instanceof TypeError) return { status: 0, message: error.message }
  return { status: 500, message: error instanceof Error ? error.message : String(error) }
}

/** An `error` event after the stream began. */
function streamFailure(data: unknown): AssistantRequestError {
  const serviceError = serviceErrorOf(data)
  // the stream had begun: the request itself was answered with 200
  return new AssistantRequestError(200, serviceError?.message ?? ASSISTANT_ERROR_TEXTS.chatFailure, serviceError?.code)
}

export interface ChatHandlers {
  delta(text: string): void
  toolCall(call: ChatToolCallEvent): void
  toolResult(result: ChatToolResultEvent): void
}

/** POST /api/ai/chat, streamed; resolves with the whole answer of its `done` event. */
export async function streamChat(body: ChatBody, handlers: ChatHandlers, options: EventStreamOptions): Promise<ChatResponse> {
  let done: ChatResponse | null = null
  let failed: AssistantRequestError | null = null
  await postEventStream(
    '/ai/chat',
    body,
    ({ event, data }: StreamEvent) => {
      if (event === CHAT_STREAM_EVENTS.delta) handlers.delta(String((data as { text?: unknown }).text ?? ''))
      else if (event === CHAT_STREAM_EVENTS.toolCall) handlers.toolCall(data as ChatToolCallEvent)
      else if (event === CHAT_STREAM_EVENTS.toolResult) handlers.toolResult(data as ChatToolResultEvent)
      else if (event === CHAT_STREAM_EVENTS.done) done = data as ChatResponse
      else if (event === CHAT_STREAM_EVENTS.error) failed = streamFailure(data)
    },
    options,
  )
  if (failed) throw failed
  if (!done) throw new AssistantRequestError(0, 'The answer was cut off before it ended (NetworkError)')
  return done
}

export interface ActionHandlers {
  delta(text: string): void
  toolCall(call: AgentToolCallEvent): void
  toolResult(step: AgentStep): void
  /** where the changeset stands after a turn that wrote (`done` carries it whole) */
  changeset(brief: ChangesetBrief): void
  /** how far the generation of a new model has come */
  progress(progress: ModelGenerationProgress): void
}

/** POST /api/spreadsheet/process-action, streamed; resolves with the action response of `done`. */
export async function streamAction(body: ProcessActionBody, handlers: ActionHandlers, options: EventStreamOptions): Promise<ProcessActionResponse> {
  let done: ProcessActionResponse | null = null
  let failed: AssistantRequestError | null = null
  await postEventStream(
    '/spreadsheet/process-action',
    body,
    ({ event, data }: StreamEvent) => {
      if (event === PROCESS_ACTION_STREAM_EVENTS.delta) handlers.delta(String((data as { text?: unknown }).text ?? ''))
      else if (event === PROCESS_ACTION_STREAM_EVENTS.toolCall) handlers.toolCall(data as AgentToolCallEvent)
      else if (event === PROCESS_ACTION_STREAM_EVENTS.toolResult) handlers.toolResult(data as AgentStep)
      else if (event === PROCESS_ACTION_STREAM_EVENTS.changeset) handlers.changeset((data as { changeset: ChangesetBrief }).changeset)
      else if (event === PROCESS_ACTION_STREAM_EVENTS.progress) handlers.progress(data as ModelGenerationProgress)
      else if (event === PROCESS_ACTION_STREAM_EVENTS.done) done = data as ProcessActionResponse
      else if (event === PROCESS_ACTION_STREAM_EVENTS.error) failed = streamFailure(data)
    },
    options,
  )
  if (failed) throw failed
  if (!done) throw new AssistantRequestError(0, 'The answer was cut off before it ended (NetworkError)')
  return done
}

export const changesetPath = (id: string) => `/spreadsheet/changesets/${encodeURIComponent(id)}`

export function applyChangeset(api: ApiClient, id: string, body: ApplyChangesetBody): Promise<ApplyChangesetResponse> {
  return api.post<ApplyChangesetResponse>(`${changesetPath(id)}/apply`, body)
}

export async function discardChangeset(api: ApiClient, id: string): Promise<Changeset> {
  return (await api.post<ChangesetResponse>(`${changesetPath(id)}/discard`, {})).changeset
}

export async function getChangeset(api: ApiClient, id: string): Promise<Changeset> {
  return (await api.get<ChangesetResponse>(changesetPath(id))).changeset
}

/** The workbook's changes after `since`, oldest first, to tell whether a change is still the latest. */
export function changesSince(api: ApiClient, workbookId: string, since: number): Promise<ChangeLogResponse> {
  return api.get<ChangeLogResponse>(`/spreadsheet/workbook/${encodeURIComponent(workbookId)}/changes`, { query: { since, limit: 500 } })
}

/** POST /api/ai/generate-formula: formula cards for what the user describes. */
export async function generateFormulas(api: ApiClient, body: GenerateFormulaBody, signal?: AbortSignal): Promise<FormulaSuggestion[]> {
  const answer = await api.post<FormulaSuggestionsResponse>('/ai/generate-formula', body, { signal })
  return answer.suggestions
}
