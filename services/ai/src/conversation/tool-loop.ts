/**
 * A conversation with tools: the model answers, the tools it calls run (side by side when it calls
 * several at once), their results go back, until it answers without calling any. A tool's failure
 * (an unknown name, arguments that are not an object, an error it throws) is the tool's result, so
 * the model can correct itself; it never ends the conversation.
 */
import { isAppError } from '@finsheet/platform'
import type { AssistantMessage, ChatProvider, ConversationMessage, StopReason, StreamCallbacks, TokenUsage, ToolCall, ToolResult, ToolSpec } from '../providers/conversation.js'

/** The longest tool result a model is given, in characters; longer ones are cut, saying so. */
export const MAX_TOOL_RESULT_CHARS = 50_000

/** What a tool answers: text for the model, and whether it failed. */
export interface ToolOutcome {
  content: string
  isError: boolean
}

/** Tools offered to a model, and how they run. */
export interface Toolset {
  readonly specs: readonly ToolSpec[]
  /** Runs one call whose arguments are a JSON object (not yet checked against the schema). */
  run(call: ToolCall & { arguments: Record<string, unknown> }, signal: AbortSignal | undefined): Promise<ToolOutcome>
}

export interface ConversationCallbacks extends StreamCallbacks {
  /** A tool answered. */
  onToolResult?(call: ToolCall, result: ToolResult): void
  /** A turn finished and spent these tokens (called before the next turn, so spent tokens are counted even if a later turn fails). */
  onUsage?(usage: TokenUsage): void
}

export interface ConversationRun {
  provider: ChatProvider
  model: string
  /** The conversation so far; the run appends its turns to it. */
  messages: ConversationMessage[]
  toolset?: Toolset
  /** Tool calls allowed in the whole run; past it the run stops with `stoppedBy: 'tool_limit'`. */
  maxToolCalls: number
  maxOutputTokens?: number
  signal?: AbortSignal
  /** Stream the answer through these; without, each turn comes whole. */
  stream?: boolean
  callbacks?: ConversationCallbacks
}

export interface ConversationOutcome {
  /** The last assistant message. */
  message: AssistantMessage
  stopReason: StopReason
  usage: TokenUsage
  /** Every tool call with its result, in order. */
  toolCalls: Array<{ call: ToolCall; result: ToolResult }>
  /** `answer`: the model answered; `tool_limit`: it kept calling tools past maxToolCalls. */
  stoppedBy: 'answer' | 'tool_limit'
  servedBy: string
}

export async function runConversation(run: ConversationRun): Promise<ConversationOutcome> {
  const usage: TokenUsage = { inputTokens: 0, outputTokens: 0 }
  const toolCalls: ConversationOutcome['toolCalls'] = []
  const tools = run.toolset?.specs.length ? [...run.toolset.specs] : undefined
  for (;;) {
    const result = await run.provider.complete(
      { model: run.model, messages: run.messages, tools, maxOutputTokens: run.maxOutputTokens, signal: run.signal },
      run.stream ? run.callbacks : undefined,
    )
    usage.inputTokens += result.usage.inputTokens
    usage.outputTokens += result.usage.outputTokens
    run.callbacks?.onUsage?.(result.usage)
    run.messages.push(result.message)
    const calls = result.message.toolCalls
    const done = (stoppedBy: ConversationOutcome['stoppedBy']): ConversationOutcome => ({
      message: result.message,
      stopReason: result.stopReason,
      usage,
      toolCalls,
      stoppedBy,
      servedBy: result.model,
    })
    if (calls.length === 0 || !run.toolset) return done('answer')
    if (toolCalls.length + calls.length > run.maxToolCalls) return done('tool_limit')
    const results = await Promise.all(calls.map((call) => runTool(run.toolset as Toolset, call, run.signal)))
    calls.forEach((call, index) => {
      toolCalls.push({ call, result: results[index] })
      run.callbacks?.onToolResult?.(call, results[index])
    })
    run.messages.push({ role: 'tool', results })
  }
}

async function runTool(toolset: Toolset, call: ToolCall, signal: AbortSignal | undefined): Promise<ToolResult> {
  const answer = (outcome: ToolOutcome): ToolResult => ({ toolCallId: call.id, content: capped(outcome.content), isError: outcome.isError })
  if (!toolset.specs.some((spec) => spec.name === call.name)) {
    return answer({ content: `Unknown tool ${JSON.stringify(call.name)}. The tools are: ${toolset.specs.map((spec) => spec.name).join(', ')}.`, isError: true })
  }
  if (call.argumentsError !== undefined || call.arguments === null || typeof call.arguments !== 'object' || Array.isArray(call.arguments)) {
    return answer({ content: `Invalid arguments for ${call.name}: ${call.argumentsError ?? 'they must be a JSON object'}. Call it again with a JSON object.`, isError: true })
  }
  try {
    return answer(await toolset.run({ ...call, arguments: call.arguments as Record<string, unknown> }, signal))
  } catch (error) {
    signal?.throwIfAborted()
    // An AppError's message is written for users (a sheet that does not exist); anything else stays in the log.
    return answer({ content: isAppError(error) ? error.message : `The tool ${call.name} failed`, isError: true })
  }
}

function capped(content: string): string {
  if (content.length <= MAX_TOOL_RESULT_CHARS) return content
  return `${content.slice(0, MAX_TOOL_RESULT_CHARS)}\n[cut at ${MAX_TOOL_RESULT_CHARS.toLocaleString('en-US')} characters: ask for a smaller range or page]`
}
