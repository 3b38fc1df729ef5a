/**
 * Chat: one question answered by the chosen model (with read-only workbook tools when a workbook is
 * open and tools are plugged in), or by the offline assistant for model `local`.
 */
import { AI_PROVIDER_LABELS, MAX_ASSISTANT_MESSAGE_LENGTH, type AssistantContext, type ChatBody, type ChatResponse, type WorkbookMetadata } from '@finsheet/contracts'
import type { AuthUser, Logger } from '@finsheet/platform'
import type { FilesClient } from '../clients/files-client.js'
import type { SpreadsheetClient } from '../clients/spreadsheet-client.js'
import { runConversation, type Toolset } from '../conversation/tool-loop.js'
import { aiErrors } from '../errors.js'
import type { DocumentFigures } from '../local/document-answers.js'
import { answerLocally } from '../local/local-assistant.js'
import type { ConversationMessage, TokenUsage } from '../providers/conversation.js'
import type { ModelRegistry } from '../providers/model-registry.js'
import { ProviderError } from '../providers/provider-error.js'
import type { UsageStore } from '../usage/usage-store.js'
import { chatSystemPrompt } from './system-prompt.js'

/** Tool calls one chat answer may make (reads only); the agent has its own budget. */
export const MAX_CHAT_TOOL_CALLS = 12

/** What a tool factory is given to offer tools for one chat request. */
export interface ChatToolsRequest {
  user: AuthUser
  /** The user's token, for calls to other services on their behalf. */
  token: string
  workbook: WorkbookMetadata
  context?: AssistantContext
}

/** The hook that offers tools to chat when a workbook is open (read-only workbook tools); none by default. */
export type ChatToolsFactory = (request: ChatToolsRequest) => Toolset | undefined | Promise<Toolset | undefined>

export interface AssistantServices {
  registry: ModelRegistry
  usage: UsageStore
  spreadsheet: SpreadsheetClient
  files: FilesClient
  chatTools?: ChatToolsFactory
  logger?: Pick<Logger, 'error'>
}

/** Progress of a streamed chat. */
export interface ChatEvents {
  delta(text: string): void
  toolCall(call: { id: string; name: string }): void
  toolResult(result: { id: string; name: string; isError: boolean }): void
}

export interface ChatInput {
  user: AuthUser
  token: string
  body: ChatBody
  signal?: AbortSignal
  /** Given for a streamed answer. */
  events?: ChatEvents
}

/** Refuses an empty message (400) and one longer than the limit (413); the same rule holds for agent commands. */
export function checkAssistantMessage(text: string): void {
  if (text.trim() === '') throw aiErrors.emptyMessage()
  if (text.length > MAX_ASSISTANT_MESSAGE_LENGTH) throw aiErrors.messageTooLong(text.length)
}

export async function runChat(services: AssistantServices, input: ChatInput): Promise<ChatResponse> {
  const { body, user, token, signal, events } = input
  checkAssistantMessage(body.message)
  const model = services.registry.resolve(body.model)
  const workbook = body.workbookId ? await services.spreadsheet.workbook(token, body.workbookId, signal) : undefined
  const document = await documentFigures(services, token, body.context, signal)

  if (model.kind === 'local') {
    const response = answerLocally({ message: body.message, document })
    if (events) for (const piece of response.match(/\S+\s*|\s+/g) ?? []) events.delta(piece)
    return { success: true, response, model: model.option.value, provider: 'local', usage: { inputTokens: 0, outputTokens: 0 }, toolCalls: [] }
  }

  await services.usage.assertWithinDailyLimit(user.uid)
  const toolset = workbook && services.chatTools ? await services.chatTools({ user, token, workbook, context: body.context }) : undefined
  const messages: ConversationMessage[] = [
    { role: 'system', content: chatSystemPrompt({ workbook, context: body.context, document, tools: toolset !== undefined }) },
    ...(body.history ?? []).map((entry): ConversationMessage => (entry.role === 'user' ? { role: 'user', content: entry.content } : { role: 'assistant', content: entry.content, toolCalls: [] })),
    { role: 'user', content: body.message },
  ]
  const spent: TokenUsage = { inputTokens: 0, outputTokens: 0 }
  try {
    const outcome = await runConversation({
      provider: model.provider,
      model: model.option.value,
      messages,
      toolset,
      maxToolCalls: MAX_CHAT_TOOL_CALLS,
      signal,
      stream: events !== undefined,
      callbacks: {
        onTextDelta: (text) => events?.delta(text),
        onToolCallStart: (call) => events?.toolCall(call),
        onToolResult: (call, result) => events?.toolResult({ id: call.id, name: call.name, isError: result.isError }),
        onUsage: (usage) => {
          spent.inputTokens += usage.inputTokens
          spent.outputTokens += usage.outputTokens
        },
      },
    })
    if (outcome.stoppedBy === 'tool_limit') throw aiErrors.tooManyToolCalls(MAX_CHAT_TOOL_CALLS)
    if (outcome.message.content.trim() === '') throw aiErrors.emptyResponse(AI_PROVIDER_LABELS[model.option.provider])
    return {
      success: true,
      response: outcome.message.content,
      model: model.option.value,
      provider: model.option.provider,
      usage: outcome.usage,
      toolCalls: outcome.toolCalls.map(({ call, result }) => ({ id: call.id, name: call.name, arguments: call.arguments, isError: result.isError })),
    }
  } catch (error) {
    if (error instanceof ProviderError) throw aiErrors.provider(error)
    throw error
  } finally {
    await recordUsage(services, user, spent, { purpose: 'chat', model: model.option.value, provider: model.option.provider })
  }
}

/** The figures of the PDF a question is about: sent along, or read from the user's uploaded file. */
async function documentFigures(services: AssistantServices, token: string, context: AssistantContext | undefined, signal: AbortSignal | undefined): Promise<DocumentFigures | undefined> {
  if (context?.document) return { fileName: context.document.fileName ?? 'the document', data: context.document.data }
  if (!context?.fileId) return undefined
  const file = await services.files.file(token, context.fileId, signal)
  const data = file.processedData?.data
  if (!file.isPdf || !data) throw aiErrors.noFigures(file.name)
  return { fileName: file.name, data }
}

/** Records spent tokens; a failure to record is logged, never turned into a failed answer. */
export async function recordUsage(services: Pick<AssistantServices, 'usage' | 'logger'>, user: AuthUser, spent: TokenUsage, details: Parameters<UsageStore['record']>[2]): Promise<void> {
  try {
    await services.usage.record(user.uid, spent, details)
  } catch (error) {
    services.logger?.error({ err: error, userId: user.uid, ...details, ...spent }, 'could not record AI token usage')
  }
}
