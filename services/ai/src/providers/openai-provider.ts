/**
 * OpenAI Chat Completions through the official SDK. The same code drives any server speaking that
 * API (vLLM, llama.cpp, Ollama) at another base URL: provider `openai-compatible`.
 */
import OpenAI from 'openai'
import type { ChatCompletionChunk, ChatCompletionMessageParam, ChatCompletionTool, ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions'
import type { Logger } from '@finsheet/platform'
import {
  DEFAULT_MAX_OUTPUT_TOKENS,
  parseToolArguments,
  type AssistantMessage,
  type ChatProvider,
  type CompletionRequest,
  type CompletionResult,
  type ConversationMessage,
  type StopReason,
  type StreamCallbacks,
  type ToolCall,
  type ToolSpec,
} from './conversation.js'
import { abortedError, connectionReason, isConnectionFailure, providerErrorForStatus, ProviderError, timeoutError, unreachableError } from './provider-error.js'
import { boundRetryWaits, PROVIDER_ATTEMPTS, type Fetch } from './provider-fetch.js'
import { sdkLogging } from './sdk-logger.js'

export interface OpenAiProviderOptions {
  provider: 'openai' | 'openai-compatible'
  /** A compatible server without keys still needs a non-empty one for the SDK. */
  apiKey: string
  baseUrl?: string
  /** Per attempt. */
  timeoutMs: number
  logger?: Logger
  fetch?: Fetch
}

/** A compatible server that leaves a call's id out still gets one, so results can name it. */
const madeUpId = (index: number) => `call_${index}`

export function createOpenAiProvider(options: OpenAiProviderOptions): ChatProvider {
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    maxRetries: PROVIDER_ATTEMPTS - 1,
    timeout: options.timeoutMs,
    fetch: boundRetryWaits(undefined, options.fetch),
    ...sdkLogging(options.logger, options.provider),
  })
  const credentialVariable = options.provider === 'openai' ? 'OPENAI_API_KEY' : 'OPENAI_API_KEY (sent to OPENAI_BASE_URL)'

  function providerError(error: unknown): unknown {
    if (error instanceof ProviderError) return error
    if (error instanceof OpenAI.APIUserAbortError) return abortedError(options.provider)
    if (error instanceof OpenAI.APIConnectionTimeoutError) return timeoutError(options.provider, options.timeoutMs, PROVIDER_ATTEMPTS)
    if (error instanceof OpenAI.APIConnectionError) return unreachableError(options.provider, error.cause instanceof Error ? error.cause.message : error.message)
    if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
      const text = (error.error as { message?: unknown } | undefined)?.message
      return providerErrorForStatus(options.provider, error.status, error.headers, typeof text === 'string' ? text : error.message, {
        attempts: PROVIDER_ATTEMPTS,
        credentialVariable,
        secrets: [options.apiKey],
      })
    }
    if (isConnectionFailure(error)) return unreachableError(options.provider, connectionReason(error))
    return error
  }

  return {
    provider: options.provider,
    async complete(request: CompletionRequest, callbacks?: StreamCallbacks): Promise<CompletionResult> {
      const params: ChatCompletionCreateParamsBase = {
        model: request.model,
        messages: toOpenAiMessages(request.messages),
        ...(request.tools && request.tools.length > 0 ? { tools: request.tools.map(toOpenAiTool) } : {}),
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        // OpenAI's own API wants max_completion_tokens; compatible servers know max_tokens.
        ...(options.provider === 'openai'
          ? { max_completion_tokens: request.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS }
          : { max_tokens: request.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS }),
      }
      try {
        if (!callbacks) {
          const response = await client.chat.completions.create({ ...params, stream: false }, { signal: request.signal })
          const choice = response.choices[0]
          const toolCalls = (choice?.message.tool_calls ?? []).flatMap((call, index): ToolCall[] =>
            call.type === 'function' ? [readToolCall(call.id || madeUpId(index), call.function.name, call.function.arguments)] : [],
          )
          const message: AssistantMessage = { role: 'assistant', content: choice?.message.content ?? '', toolCalls }
          return {
            message,
            stopReason: stopReasonOf(choice?.finish_reason ?? null, toolCalls.length),
            usage: { inputTokens: response.usage?.prompt_tokens ?? 0, outputTokens: response.usage?.completion_tokens ?? 0 },
            model: response.model || request.model,
          }
        }
        const stream = await client.chat.completions.create({ ...params, stream: true, stream_options: { include_usage: true } }, { signal: request.signal })
        return await readStream(stream, request.model, callbacks)
      } catch (error) {
        throw providerError(error)
      }
    },
  }
}

async function readStream(stream: AsyncIterable<ChatCompletionChunk>, requested: string, callbacks: StreamCallbacks): Promise<CompletionResult> {
  let content = ''
  let model = requested
  let finishReason: string | null = null
  let usage = { inputTokens: 0, outputTokens: 0 }
  // Calls arrive in pieces keyed by their index: the first piece names it, later ones add argument text.
  const calls: Array<{ id: string; name: string; text: string; announced: boolean }> = []
  for await (const chunk of stream) {
    if (chunk.model) model = chunk.model
    if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens ?? 0, outputTokens: chunk.usage.completion_tokens ?? 0 }
    const choice = chunk.choices[0]
    if (!choice) continue
    if (choice.finish_reason) finishReason = choice.finish_reason
    const delta = choice.delta
    if (delta?.content) {
      content += delta.content
      callbacks.onTextDelta?.(delta.content)
    }
    for (const piece of delta?.tool_calls ?? []) {
      const call = (calls[piece.index] ??= { id: '', name: '', text: '', announced: false })
      if (piece.id && !call.id) call.id = piece.id
      if (piece.function?.name && !call.name) call.name = piece.function.name
      if (piece.function?.arguments) call.text += piece.function.arguments
      if (!call.announced && call.name) {
        call.announced = true
        callbacks.onToolCallStart?.({ id: call.id || madeUpId(piece.index), name: call.name })
      }
    }
  }
  const toolCalls = calls.flatMap((call, index) => (call ? [readToolCall(call.id || madeUpId(index), call.name, call.text)] : []))
  return { message: { role: 'assistant', content, toolCalls }, stopReason: stopReasonOf(finishReason, toolCalls.length), usage, model }
}

function readToolCall(id: string, name: string, text: string): ToolCall {
  return { id, name, rawArguments: text, ...parseToolArguments(text) }
}

function stopReasonOf(finishReason: string | null, toolCalls: number): StopReason {
  if (toolCalls > 0) return 'tool_use'
  switch (finishReason) {
    case 'stop':
      return 'end_turn'
    case 'length':
      return 'max_tokens'
    case 'content_filter':
      return 'content_filter'
    case 'tool_calls':
    case 'function_call':
      return 'tool_use'
    default:
      return finishReason === null ? 'end_turn' : 'other'
  }
}

function toOpenAiTool(tool: ToolSpec): ChatCompletionTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }
}

export function toOpenAiMessages(messages: readonly ConversationMessage[]): ChatCompletionMessageParam[] {
  return messages.flatMap((message): ChatCompletionMessageParam[] => {
    switch (message.role) {
      case 'system':
      case 'user':
        return [{ role: message.role, content: message.content }]
      case 'assistant':
        return [
          {
            role: 'assistant',
            content: message.content === '' && message.toolCalls.length > 0 ? null : message.content,
            ...(message.toolCalls.length > 0
              ? {
                  tool_calls: message.toolCalls.map((call) => ({
                    id: call.id,
                    type: 'function' as const,
                    function: { name: call.name, arguments: call.rawArguments ?? JSON.stringify(call.arguments ?? {}) },
                  })),
                }
              : {}),
          },
        ]
      case 'tool':
        // Chat Completions has no error flag on a tool message: the text says it.
        return message.results.map((result) => ({
          role: 'tool' as const,
          tool_call_id: result.toolCallId,
          content: result.isError && !/^error\b/i.test(result.content) ? `Error: ${result.content}` : result.content,
        }))
    }
  })
}
