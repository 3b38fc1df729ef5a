/**
 * The offline planner as a model provider (model `local`): it reads the user's last command into
 * the command language, runs the command's plan over the turns so far, and answers with the plan's
 * next tool calls, or with its final text once the plan is done. It calls only the tools the
 * conversation offers, so its edits go through the same changesets, previews and undo as a model's.
 */
import { parseCommands } from './command-language.js'
import { helpAnswer } from './answers.js'
import { PlanStop, type Observation, type PlanAnswer, type PlanContext, type PlannedCall, type Step } from './plan-kit.js'
import { planSequence } from './plans/index.js'
import type { AssistantMessage, ChatProvider, CompletionRequest, CompletionResult, ConversationMessage, StreamCallbacks, ToolResult } from '../providers/conversation.js'
import { systemText } from '../providers/conversation.js'

/** The model name the planner answers as. */
export const PLANNER_MODEL = 'local'

/** Where the user is, as the instructions state it: `Active sheet: "Inputs"`, `Selected range: B2:B9`. */
export function contextFromInstructions(instructions: string | undefined, tools: readonly string[]): PlanContext {
  const line = (name: string) => {
    const found = (instructions ?? '').split('\n').find((text) => text.trim().toLowerCase().startsWith(`${name.toLowerCase()}:`))
    if (!found) return undefined
    const value = found.slice(found.indexOf(':') + 1).trim()
    if (value.startsWith('"')) {
      try {
        return String(JSON.parse(value))
      } catch {
        return value.replace(/^"|"$/g, '')
      }
    }
    return value === '' ? undefined : value
  }
  return { activeSheet: line('Active sheet'), selection: line('Selected range'), tools: new Set(tools) }
}

/** The turns since the user's last message: each assistant message's calls, with their results. */
function turnsSince(messages: readonly ConversationMessage[]): { command: string | undefined; turns: { calls: AssistantMessage['toolCalls']; results: ToolResult[] }[] } {
  let last = -1
  messages.forEach((message, index) => {
    if (message.role === 'user') last = index
  })
  if (last < 0) return { command: undefined, turns: [] }
  const command = (messages[last] as { content: string }).content
  const turns: { calls: AssistantMessage['toolCalls']; results: ToolResult[] }[] = []
  for (const message of messages.slice(last + 1)) {
    if (message.role === 'assistant' && message.toolCalls.length > 0) turns.push({ calls: message.toolCalls, results: [] })
    else if (message.role === 'tool' && turns.length > 0) turns[turns.length - 1].results.push(...message.results)
  }
  return { command, turns }
}

/** A tool's answer as a plan reads it: JSON parsed, a whole tool result unwrapped to its content. */
export function observe(result: ToolResult | undefined): Observation {
  if (!result) return { ok: false, content: undefined, error: 'The tool did not answer' }
  let content: unknown
  try {
    content = JSON.parse(result.content)
  } catch {
    content = undefined
  }
  if (content !== null && typeof content === 'object' && 'ok' in content && 'content' in content && 'name' in content) {
    const whole = content as { ok: boolean; content: unknown; error?: string }
    return { ok: whole.ok && !result.isError, content: whole.content, ...(whole.error ? { error: whole.error } : {}) }
  }
  if (result.isError) return { ok: false, content, error: typeof content === 'object' && content && 'error' in content ? String((content as { error: unknown }).error) : result.content }
  return { ok: true, content }
}

export type PlannerStep = { calls: PlannedCall[] } | { answer: string }

/**
 * The plan's next step for a conversation: the plan is run from the start and fed the results
 * already given, in order, until it asks for calls not yet made or returns its answer.
 */
export function nextStep(messages: readonly ConversationMessage[], tools: readonly string[]): PlannerStep {
  const { command, turns } = turnsSince(messages)
  if (command === undefined) return { answer: helpAnswer('') }
  const parsed = parseCommands(command)
  if (!parsed) return { answer: helpAnswer(command) }
  const context = contextFromInstructions(systemText(messages), tools)
  const plan: Step<PlanAnswer> = planSequence(parsed, context)
  try {
    let state = plan.next(undefined as unknown as Observation[])
    for (let turn = 0; !state.done; turn++) {
      const wanted = state.value.filter((call) => tools.includes(call.name))
      if (wanted.length < state.value.length) {
        const missing = state.value.filter((call) => !tools.includes(call.name)).map((call) => call.name)
        return { answer: `I read that as a command I would carry out with ${missing.join(', ')}, which ${missing.length === 1 ? 'is' : 'are'} not offered here, so I changed nothing.` }
      }
      const done = turns[turn]
      if (!done) return { calls: state.value }
      const byId = new Map(done.results.map((result) => [result.toolCallId, result]))
      state = plan.next(done.calls.map((call) => observe(byId.get(call.id))))
    }
    return { answer: state.value.text }
  } catch (error) {
    if (error instanceof PlanStop) return { answer: error.message }
    throw error
  }
}

/** A made-up id for a call, unique within the conversation and the same on every replay. */
function callId(messages: readonly ConversationMessage[], index: number): string {
  const turn = messages.filter((message) => message.role === 'assistant').length
  return `planner_${turn}_${index}`
}

export function createPlannerProvider(): ChatProvider {
  return {
    provider: 'local',
    async complete(request: CompletionRequest, callbacks?: StreamCallbacks): Promise<CompletionResult> {
      request.signal?.throwIfAborted()
      const tools = (request.tools ?? []).map((tool) => tool.name)
      const step = nextStep(request.messages, tools)
      const usage = { inputTokens: 0, outputTokens: 0 }
      if ('calls' in step) {
        const toolCalls = step.calls.map((call, index) => ({ id: callId(request.messages, index), name: call.name, arguments: call.arguments, rawArguments: JSON.stringify(call.arguments) }))
        for (const call of toolCalls) callbacks?.onToolCallStart?.({ id: call.id, name: call.name })
        return { message: { role: 'assistant', content: '', toolCalls }, stopReason: 'tool_use', usage, model: PLANNER_MODEL }
      }
      if (callbacks?.onTextDelta) for (const piece of step.answer.match(/\S+\s*|\s+/g) ?? []) callbacks.onTextDelta(piece)
      return { message: { role: 'assistant', content: step.answer, toolCalls: [] }, stopReason: 'end_turn', usage, model: PLANNER_MODEL }
    },
  }
}
