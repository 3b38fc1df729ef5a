/**
 * A conversation with tools: the model answers, the tools it calls run (all of one message's calls
 * together), their results go back, until it answers without calling any. A tool's failure (an
 * unknown name, arguments that are not an object, an error it throws) is the tool's result, so the
 * model can correct itself; it never ends the conversation.
 */
import { isAppError } from '@finsheet/platform'
import type { AssistantMessage, ChatProvider, ConversationMessage, StopReason, StreamCallbacks, TokenUsage, ToolCall, ToolResult, ToolResultsMessage, ToolSpec } from '../providers/conversation.js'

/** The longest tool result a model is given, in characters; longer ones are cut, saying so. */
export const MAX_TOOL_RESULT_CHARS = 50_000

/** What a tool answers: text for the model, and whether it failed. */
export interface ToolOutcome {
  content: string
  isError: boolean
}

/** A call whose arguments are a JSON object (not yet checked against the tool's schema). */
export type RunnableToolCall = ToolCall & { arguments: Record<string, unknown> }

/** Tools offered to a model, and how they run. */
export interface Toolset {
  readonly specs: readonly ToolSpec[]
  /** Runs one call. */
  run(call: RunnableToolCall, signal: AbortSignal | undefined): Promise<ToolOutcome>
  /**
   * Runs all the calls of one model message together, answering in their order. Without it each call
   * runs on its own, side by side. Tools that write use it to run a message's calls in order in one place.
   */
  runTurn?(calls: readonly RunnableToolCall[], signal: AbortSignal | undefined): Promise<ToolOutcome[]>
}

export interface ConversationCallbacks extends StreamCallbacks {
  /** The model asked for these calls, which are about to run (with their arguments, unlike onToolCallStart). */
  onToolCalls?(calls: readonly ToolCall[]): void
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
  /** Tokens (input and output, over every turn) after which a model still calling tools is stopped: `stoppedBy: 'token_budget'`. */
  maxTotalTokens?: number
  /**
   * Once the tool results in the conversation add up to more than this many characters, all but the
   * latest turn's are replaced by a line naming the call. They are compacted together, so the prompt's
   * prefix changes once per compaction rather than every turn (providers cache a stable prefix).
   */
  compactToolResultsOver?: number
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
  /** `answer`: the model answered; `tool_limit`: it kept calling tools past maxToolCalls; `token_budget`: past maxTotalTokens. */
  stoppedBy: 'answer' | 'tool_limit' | 'token_budget'
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
    if (run.maxTotalTokens !== undefined && usage.inputTokens + usage.outputTokens >= run.maxTotalTokens) return done('token_budget')
    run.callbacks?.onToolCalls?.(calls)
    const results = await runTools(run.toolset, calls, run.signal)
    calls.forEach((call, index) => {
      toolCalls.push({ call, result: results[index] })
      run.callbacks?.onToolResult?.(call, results[index])
    })
    run.messages.push({ role: 'tool', results })
    if (run.compactToolResultsOver !== undefined) compactToolResults(run.messages, run.compactToolResultsOver)
  }
}

/** A call's problem the loop answers itself, before any tool runs: an unknown tool, or arguments that are not an object. */
function refusal(toolset: Toolset, call: ToolCall): ToolOutcome | undefined {
  if (!toolset.specs.some((spec) => spec.name === call.name)) {
    return { content: `Unknown tool ${JSON.stringify(call.name)}. The tools are: ${toolset.specs.map((spec) => spec.name).join(', ')}.`, isError: true }
  }
  if (call.argumentsError !== undefined || call.arguments === null || typeof call.arguments !== 'object' || Array.isArray(call.arguments)) {
    return { content: `Invalid arguments for ${call.name}: ${call.argumentsError ?? 'they must be a JSON object'}. Call it again with a JSON object.`, isError: true }
  }
  return undefined
}

async function runTools(toolset: Toolset, calls: readonly ToolCall[], signal: AbortSignal | undefined): Promise<ToolResult[]> {
  const outcomes: Array<ToolOutcome | undefined> = calls.map((call) => refusal(toolset, call))
  const runnable = calls.flatMap((call, index) => (outcomes[index] ? [] : [{ index, call: call as RunnableToolCall }]))
  const failed = (call: ToolCall, error: unknown): ToolOutcome => {
    signal?.throwIfAborted()
    // An AppError's message is written for users (a sheet that does not exist); anything else stays in the log.
    return { content: isAppError(error) ? error.message : `The tool ${call.name} failed`, isError: true }
  }
  if (runnable.length > 0 && toolset.runTurn) {
    const turn = runnable.map((entry) => entry.call)
    try {
      const answered = await toolset.runTurn(turn, signal)
      runnable.forEach((entry, position) => (outcomes[entry.index] = answered[position] ?? { content: `The tool ${entry.call.name} gave no answer`, isError: true }))
    } catch (error) {
      for (const entry of runnable) outcomes[entry.index] = failed(entry.call, error)
    }
  } else {
    await Promise.all(
      runnable.map(async (entry) => {
        try {
          outcomes[entry.index] = await toolset.run(entry.call, signal)
        } catch (error) {
          outcomes[entry.index] = failed(entry.call, error)
        }
      }),
    )
  }
  return calls.map((call, index) => {
    const outcome = outcomes[index] as ToolOutcome
    return { toolCallId: call.id, content: capped(outcome.content), isError: outcome.isError }
  })
}

function capped(content: string): string {
  if (content.length <= MAX_TOOL_RESULT_CHARS) return content
  return `${content.slice(0, MAX_TOOL_RESULT_CHARS)}\n[cut at ${MAX_TOOL_RESULT_CHARS.toLocaleString('en-US')} characters: ask for a smaller range or page]`
}

/** What a compacted result says instead of its content. */
export const COMPACTED_RESULT_PREFIX = '[Earlier result removed to keep the conversation short'

/**
 * Replaces every tool result but the latest turn's with a line naming its call, once the results
 * together pass `limit` characters. Errors are short and say what went wrong, so they are kept.
 */
export function compactToolResults(messages: ConversationMessage[], limit: number): boolean {
  const turns = messages.filter((message): message is ToolResultsMessage => message.role === 'tool')
  const total = turns.reduce((sum, turn) => sum + turn.results.reduce((size, result) => size + result.content.length, 0), 0)
  if (total <= limit || turns.length < 2) return false
  const calls = new Map<string, ToolCall>()
  for (const message of messages) if (message.role === 'assistant') for (const call of message.toolCalls) calls.set(call.id, call)
  const latest = turns.at(-1)
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]
    if (message.role !== 'tool' || message === latest) continue
    messages[index] = {
      role: 'tool',
      results: message.results.map((result) => {
        if (result.isError || result.content.startsWith(COMPACTED_RESULT_PREFIX)) return result
        const call = calls.get(result.toolCallId)
        const args = call ? JSON.stringify(call.arguments ?? {}) : ''
        const named = call ? `${call.name} ${args.length > 200 ? `${args.slice(0, 200)}…` : args}` : 'this call'
        return { ...result, content: `${COMPACTED_RESULT_PREFIX} (${result.content.length.toLocaleString('en-US')} characters of ${named}); call the tool again if you need it.]` }
      }),
    }
  }
  return true
}
