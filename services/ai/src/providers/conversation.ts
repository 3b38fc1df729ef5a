/**
 * The conversation as every provider sees it: one neutral shape that the OpenAI, Anthropic and
 * Vertex AI implementations translate to their own wire format and back. A turn is one
 * `complete()` call; whoever runs the conversation (chat, the agent) appends the assistant's
 * message and the tool results and calls again.
 */
import type { AiProvider } from '@finsheet/contracts'

/** Instructions for the whole conversation. Providers that take them apart from the turns hoist them. */
export interface SystemMessage {
  role: 'system'
  content: string
}

export interface UserMessage {
  role: 'user'
  content: string
}

/** A tool the model asked to run. */
export interface ToolCall {
  /** The provider's id for the call (made up for providers that give none); results name it. */
  id: string
  name: string
  /** The arguments as parsed JSON; `null` when the model's text was not JSON (see `argumentsError`). */
  arguments: unknown
  /** Why the arguments could not be read, when the model sent text that is not a JSON object. */
  argumentsError?: string
  /** The arguments exactly as the model wrote them, sent back unchanged on the next turn. */
  rawArguments?: string
  /** Opaque data a provider needs back with the call on the next turn (Gemini's thought signature). */
  signature?: string
}

export interface AssistantMessage {
  role: 'assistant'
  /** The text of the answer; '' when the model only called tools. */
  content: string
  /** In the order the model made them; several in one message run side by side. */
  toolCalls: ToolCall[]
}

export interface ToolResult {
  toolCallId: string
  /** What the tool answered, as text (JSON for structured results). */
  content: string
  /** The tool failed or refused; the model reads `content` to correct itself. */
  isError: boolean
}

/** The results of one assistant message's tool calls, together (providers want them in one turn). */
export interface ToolResultsMessage {
  role: 'tool'
  results: ToolResult[]
}

export type ConversationMessage = SystemMessage | UserMessage | AssistantMessage | ToolResultsMessage

/** A tool offered to the model. */
export interface ToolSpec {
  name: string
  description: string
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>
}

export interface CompletionRequest {
  /** The provider's model id, such as gpt-4o. */
  model: string
  messages: ConversationMessage[]
  tools?: ToolSpec[]
  /** Default 4096. */
  maxOutputTokens?: number
  temperature?: number
  /** Cancels the request (the user pressed Stop, or the deadline passed). */
  signal?: AbortSignal
}

/** Called while the answer streams. Without them the answer comes in one piece. */
export interface StreamCallbacks {
  /** A piece of the answer's text, as generated. */
  onTextDelta?(text: string): void
  /** The model began a tool call; its arguments follow. */
  onToolCallStart?(call: { id: string; name: string }): void
}

/**
 * Why the model stopped: it finished (`end_turn`), it wants tools run (`tool_use`), it ran out of
 * output tokens (`max_tokens`), a safety filter stopped it (`content_filter`), or anything else.
 */
export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'content_filter' | 'other'

export interface TokenUsage {
  inputTokens: number
  outputTokens: number
}

export interface CompletionResult {
  message: AssistantMessage
  stopReason: StopReason
  usage: TokenUsage
  /** The model that answered, as the provider names it. */
  model: string
}

/** One model provider (or the offline planner, `local`). Implementations retry 429 and 5xx themselves and throw ProviderError. */
export interface ChatProvider {
  readonly provider: AiProvider
  complete(request: CompletionRequest, callbacks?: StreamCallbacks): Promise<CompletionResult>
}

export const DEFAULT_MAX_OUTPUT_TOKENS = 4096

/** The system instructions of a conversation, joined, or undefined when there are none. */
export function systemText(messages: readonly ConversationMessage[]): string | undefined {
  const parts = messages.filter((message): message is SystemMessage => message.role === 'system').map((message) => message.content)
  return parts.length > 0 ? parts.join('\n\n') : undefined
}

/** The tool call a result answers, from the assistant messages before it. */
export function toolCallsById(messages: readonly ConversationMessage[]): Map<string, ToolCall> {
  const calls = new Map<string, ToolCall>()
  for (const message of messages) if (message.role === 'assistant') for (const call of message.toolCalls) calls.set(call.id, call)
  return calls
}

/**
 * Reads a tool call's argument text. Models sometimes write an empty string for "no arguments";
 * anything that is not a JSON object is kept with the reason, for the tool to answer as an error.
 */
export function parseToolArguments(text: string): Pick<ToolCall, 'arguments' | 'argumentsError'> {
  if (text.trim() === '') return { arguments: {} }
  try {
    const parsed: unknown = JSON.parse(text)
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return { arguments: null, argumentsError: `The arguments must be a JSON object, not ${Array.isArray(parsed) ? 'an array' : JSON.stringify(parsed)}` }
    }
    return { arguments: parsed }
  } catch (error) {
    return { arguments: null, argumentsError: `The arguments are not valid JSON: ${(error as Error).message}` }
  }
}
