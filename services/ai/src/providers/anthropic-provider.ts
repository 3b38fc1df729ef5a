/** Anthropic Messages through the official SDK. */
import Anthropic from '@anthropic-ai/sdk'
import type { ContentBlockParam, MessageCreateParamsBase, MessageParam, RawMessageStreamEvent, Tool } from '@anthropic-ai/sdk/resources/messages'
import type { Logger } from '@finsheet/platform'
import {
  DEFAULT_MAX_OUTPUT_TOKENS,
  parseToolArguments,
  systemText,
  type ChatProvider,
  type CompletionRequest,
  type CompletionResult,
  type ConversationMessage,
  type StopReason,
  type StreamCallbacks,
  type ToolCall,
} from './conversation.js'
import { abortedError, connectionReason, isConnectionFailure, providerErrorForStatus, ProviderError, timeoutError, unreachableError } from './provider-error.js'
import { boundRetryWaits, PROVIDER_ATTEMPTS, type Fetch } from './provider-fetch.js'
import { sdkLogging } from './sdk-logger.js'

export interface AnthropicProviderOptions {
  apiKey: string
  baseUrl?: string
  /** Per attempt. */
  timeoutMs: number
  logger?: Logger
  fetch?: Fetch
}

export function createAnthropicProvider(options: AnthropicProviderOptions): ChatProvider {
  const client = new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    maxRetries: PROVIDER_ATTEMPTS - 1,
    timeout: options.timeoutMs,
    fetch: boundRetryWaits(undefined, options.fetch),
    ...sdkLogging(options.logger, 'anthropic'),
  })

  function providerError(error: unknown): unknown {
    if (error instanceof ProviderError) return error
    if (error instanceof Anthropic.APIUserAbortError) return abortedError('anthropic')
    if (error instanceof Anthropic.APIConnectionTimeoutError) return timeoutError('anthropic', options.timeoutMs, PROVIDER_ATTEMPTS)
    if (error instanceof Anthropic.APIConnectionError) return unreachableError('anthropic', error.cause instanceof Error ? error.cause.message : error.message)
    if (error instanceof Anthropic.APIError && typeof error.status === 'number') {
      const body = error.error as { error?: { message?: unknown } } | undefined
      const text = body?.error?.message
      return providerErrorForStatus('anthropic', error.status, error.headers, typeof text === 'string' ? text : error.message, {
        attempts: PROVIDER_ATTEMPTS,
        credentialVariable: 'ANTHROPIC_API_KEY',
        secrets: [options.apiKey],
      })
    }
    if (isConnectionFailure(error)) return unreachableError('anthropic', connectionReason(error))
    return error
  }

  return {
    provider: 'anthropic',
    async complete(request: CompletionRequest, callbacks?: StreamCallbacks): Promise<CompletionResult> {
      const system = systemText(request.messages)
      const params: MessageCreateParamsBase = {
        model: request.model,
        max_tokens: request.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
        messages: toAnthropicMessages(request.messages),
        ...(system === undefined ? {} : { system }),
        ...(request.tools && request.tools.length > 0
          ? { tools: request.tools.map((tool): Tool => ({ name: tool.name, description: tool.description, input_schema: tool.parameters as Tool['input_schema'] })) }
          : {}),
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      }
      try {
        if (!callbacks) {
          const response = await client.messages.create({ ...params, stream: false }, { signal: request.signal })
          let content = ''
          const toolCalls: ToolCall[] = []
          for (const block of response.content) {
            if (block.type === 'text') content += block.text
            else if (block.type === 'tool_use') toolCalls.push(toolCallOf(block.id, block.name, block.input))
          }
          return {
            message: { role: 'assistant', content, toolCalls },
            stopReason: stopReasonOf(response.stop_reason, toolCalls.length),
            usage: { inputTokens: response.usage.input_tokens, outputTokens: response.usage.output_tokens },
            model: response.model || request.model,
          }
        }
        const stream = await client.messages.create({ ...params, stream: true }, { signal: request.signal })
        return await readStream(stream, request.model, callbacks)
      } catch (error) {
        throw providerError(error)
      }
    },
  }
}

async function readStream(stream: AsyncIterable<RawMessageStreamEvent>, requested: string, callbacks: StreamCallbacks): Promise<CompletionResult> {
  let content = ''
  let model = requested
  let stopReason: string | null = null
  const usage = { inputTokens: 0, outputTokens: 0 }
  // Blocks by their index: text is streamed as it comes, a tool call's input as pieces of JSON text.
  const toolBlocks = new Map<number, { id: string; name: string; text: string }>()
  for await (const event of stream) {
    switch (event.type) {
      case 'message_start':
        model = event.message.model || model
        usage.inputTokens = event.message.usage.input_tokens ?? 0
        usage.outputTokens = event.message.usage.output_tokens ?? 0
        break
      case 'content_block_start':
        if (event.content_block.type === 'tool_use') {
          toolBlocks.set(event.index, { id: event.content_block.id, name: event.content_block.name, text: '' })
          callbacks.onToolCallStart?.({ id: event.content_block.id, name: event.content_block.name })
        } else if (event.content_block.type === 'text' && event.content_block.text) {
          content += event.content_block.text
          callbacks.onTextDelta?.(event.content_block.text)
        }
        break
      case 'content_block_delta':
        if (event.delta.type === 'text_delta') {
          content += event.delta.text
          callbacks.onTextDelta?.(event.delta.text)
        } else if (event.delta.type === 'input_json_delta') {
          const block = toolBlocks.get(event.index)
          if (block) block.text += event.delta.partial_json
        }
        break
      case 'message_delta':
        stopReason = event.delta.stop_reason ?? stopReason
        if (event.usage.output_tokens !== undefined && event.usage.output_tokens !== null) usage.outputTokens = event.usage.output_tokens
        if (typeof event.usage.input_tokens === 'number') usage.inputTokens = event.usage.input_tokens
        break
      default:
        break
    }
  }
  const toolCalls = [...toolBlocks.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, block]) => ({ id: block.id, name: block.name, rawArguments: block.text, ...parseToolArguments(block.text) }))
  return { message: { role: 'assistant', content, toolCalls }, stopReason: stopReasonOf(stopReason, toolCalls.length), usage, model }
}

function toolCallOf(id: string, name: string, input: unknown): ToolCall {
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) return { id, name, arguments: input }
  return { id, name, arguments: null, argumentsError: 'The arguments must be a JSON object' }
}

function stopReasonOf(reason: string | null, toolCalls: number): StopReason {
  if (toolCalls > 0) return 'tool_use'
  switch (reason) {
    case null:
    case 'end_turn':
    case 'stop_sequence':
      return 'end_turn'
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'max_tokens'
    case 'refusal':
      return 'content_filter'
    default:
      return 'other'
  }
}

export function toAnthropicMessages(messages: readonly ConversationMessage[]): MessageParam[] {
  const result: MessageParam[] = []
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        break
      case 'user':
        result.push({ role: 'user', content: message.content })
        break
      case 'assistant': {
        const blocks: ContentBlockParam[] = []
        if (message.content !== '') blocks.push({ type: 'text', text: message.content })
        for (const call of message.toolCalls) {
          // A call whose arguments were not an object goes back as an empty input; its error result says why.
          const input = call.arguments !== null && typeof call.arguments === 'object' ? (call.arguments as Record<string, unknown>) : {}
          blocks.push({ type: 'tool_use', id: call.id, name: call.name, input })
        }
        // The API refuses an empty assistant turn.
        result.push({ role: 'assistant', content: blocks.length > 0 ? blocks : [{ type: 'text', text: '(no answer)' }] })
        break
      }
      case 'tool':
        // Results of parallel calls belong together in one user turn.
        result.push({
          role: 'user',
          content: message.results.map((tool) => ({ type: 'tool_result' as const, tool_use_id: tool.toolCallId, content: tool.content, is_error: tool.isError })),
        })
        break
    }
  }
  return result
}
