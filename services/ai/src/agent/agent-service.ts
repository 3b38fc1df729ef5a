/**
 * Agent mode: a command carried out on the user's workbook by a model calling the workbook tools.
 * Every write of the request goes into one changeset in the spreadsheet service; when the model has
 * finished, the changeset is applied as one change (one undo reverts it), or left as a draft for a
 * preview or for formulas that need the user's approval. A request that does not finish (the model
 * fails, the deadline passes, the tool-call or token bound is reached, the client goes away)
 * discards its changeset: nothing half-written reaches the workbook.
 */
import {
  AGENT_TOOLS,
  AI_ERROR_CODES,
  AI_PROVIDER_LABELS,
  MAX_AGENT_TOOL_CALLS,
  MAX_CHANGESET_LABEL_LENGTH,
  MAX_CHANGESET_SUMMARY_LENGTH,
  isModelCreationCommand,
  type AgentStep,
  type AgentToolCallEvent,
  type Changeset,
  type ChangesetBrief,
  type ModelGenerationProgress,
  type ProcessActionBody,
  type ProcessActionResponse,
  type WorkbookMetadata,
} from '@finsheet/contracts'
import { isAppError, type AuthUser, type Logger } from '@finsheet/platform'
import { checkAssistantMessage, recordUsage, type AssistantServices } from '../chat/chat-service.js'
import { runConversation, type ConversationOutcome } from '../conversation/tool-loop.js'
import { aiErrors } from '../errors.js'
import type { ChatProvider, ConversationMessage, TokenUsage, ToolCall, ToolResult } from '../providers/conversation.js'
import type { ResolvedModel } from '../providers/model-registry.js'
import { ProviderError } from '../providers/provider-error.js'
import { AGENT_COMPACT_RESULTS_OVER_CHARS } from './agent-limits.js'
import { agentSystemPrompt } from './agent-prompt.js'
import { describeModelRequest, readModelCommand } from './model-command.js'
import type { FinancialModelGenerator } from './model-generator.js'
import { describeToolCall } from './tool-descriptions.js'
import { WorkbookToolset } from './workbook-toolset.js'

export interface AgentServices extends AssistantServices {
  /** Builds new financial models; without one, model-creation commands answer 503. */
  modelGenerator?: FinancialModelGenerator
  /** What runs agent mode for model `local` (the offline planner); without one, `local` explains what agent mode needs. */
  localAgentProvider?: ChatProvider
  agentLimits: { deadlineMs: number; tokenBudget: number }
  agentLogger?: Pick<Logger, 'info' | 'warn'>
}

/** Progress of a streamed command. */
export interface AgentEvents {
  delta(text: string): void
  toolCall(event: AgentToolCallEvent): void
  toolResult(step: AgentStep): void
  changeset(changeset: ChangesetBrief): void
  progress(progress: ModelGenerationProgress): void
}

export interface AgentInput {
  user: AuthUser
  token: string
  body: ProcessActionBody
  /** Aborted when the client goes away. */
  signal?: AbortSignal
  /** Given for a streamed answer. */
  events?: AgentEvents
}

const NO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0 }

export async function processAction(services: AgentServices, input: AgentInput): Promise<ProcessActionResponse> {
  const { body, token, signal } = input
  checkAssistantMessage(body.command)
  const model = services.registry.resolve(body.preferredModel)
  if (isModelCreationCommand(body.command)) return createModel(services, input, model)
  if (body.workbookId === undefined) throw aiErrors.workbookRequired()
  // Ownership first: another user's workbook is 404 before any model is asked.
  const workbook = await services.spreadsheet.workbook(token, body.workbookId, signal)
  let provider: ChatProvider
  if (model.kind === 'local') {
    if (!services.localAgentProvider) return agentModeNeedsAModel(services, model)
    provider = services.localAgentProvider
  } else {
    await services.usage.assertWithinDailyLimit(input.user.uid)
    provider = model.provider
  }
  return runAgent(services, input, { model, provider, workbook })
}

/** Why a run stopped before the model finished, when it is not an error of the model's provider. */
class RunStopped extends Error {
  constructor(readonly reason: 'deadline' | 'client_gone') {
    super(reason === 'deadline' ? 'The deadline passed' : 'The client went away')
  }
}

/** Settles with the run, or rejects as soon as `signal` aborts, without waiting for the run to notice. */
function untilStopped<T>(run: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    if (signal.aborted) return onAbort()
    signal.addEventListener('abort', onAbort, { once: true })
    run.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

async function runAgent(services: AgentServices, input: AgentInput, chosen: { model: ResolvedModel; provider: ChatProvider; workbook: WorkbookMetadata }): Promise<ProcessActionResponse> {
  const { body, user, token, events } = input
  const { model, provider, workbook } = chosen
  const started = performance.now()
  const { deadlineMs, tokenBudget } = services.agentLimits
  const logger = services.agentLogger

  const stop = new AbortController()
  const deadline = setTimeout(() => stop.abort(new RunStopped('deadline')), deadlineMs)
  const onClientGone = () => stop.abort(new RunStopped('client_gone'))
  input.signal?.addEventListener('abort', onClientGone, { once: true })
  if (input.signal?.aborted) onClientGone()

  const toolset = new WorkbookToolset({
    spreadsheet: services.spreadsheet,
    token,
    workbookId: workbook.id,
    tools: AGENT_TOOLS,
    logger,
    // Where the changeset stands is told after the turn's results.
    onTurn: ({ changeset, wrote }) => {
      if (wrote && changeset) pendingChangeset = changeset
    },
  })
  let pendingChangeset: ChangesetBrief | null = null
  let unanswered = 0
  const descriptions = new Map<string, string>()
  const steps: AgentStep[] = []
  const spent: TokenUsage = { inputTokens: 0, outputTokens: 0 }
  let turnStarted = performance.now()
  const messages: ConversationMessage[] = [
    { role: 'system', content: agentSystemPrompt({ workbook, context: body.context, preview: body.preview === true }) },
    ...(body.history ?? []).map((entry): ConversationMessage => (entry.role === 'user' ? { role: 'user', content: entry.content } : { role: 'assistant', content: entry.content, toolCalls: [] })),
    { role: 'user', content: body.command },
  ]
  const base = { model: model.option.value, provider: model.option.provider }

  const run = runConversation({
    provider,
    model: model.option.value,
    messages,
    toolset,
    maxToolCalls: MAX_AGENT_TOOL_CALLS,
    maxTotalTokens: tokenBudget,
    compactToolResultsOver: AGENT_COMPACT_RESULTS_OVER_CHARS,
    signal: stop.signal,
    stream: events !== undefined,
    callbacks: {
      onTextDelta: (text) => events?.delta(text),
      onToolCalls: (calls) => {
        unanswered = calls.length
        for (const call of calls) {
          const description = describeToolCall(call.name, call.arguments)
          descriptions.set(call.id, description)
          events?.toolCall({ id: call.id, name: call.name, description })
        }
      },
      onToolResult: (call, result) => {
        const step = stepOf(call, result, toolset, descriptions.get(call.id))
        steps.push(step)
        events?.toolResult(step)
        if (--unanswered > 0) return
        // The turn's calls have all answered: the next model turn starts now.
        turnStarted = performance.now()
        if (pendingChangeset) {
          events?.changeset(pendingChangeset)
          pendingChangeset = null
        }
      },
      onUsage: (usage) => {
        spent.inputTokens += usage.inputTokens
        spent.outputTokens += usage.outputTokens
        logger?.info({ workbookId: workbook.id, model: model.option.value, ...usage, ms: Math.round(performance.now() - turnStarted) }, 'agent model turn')
      },
    },
  })
  // The run may go on a moment after a stop (a provider waiting to retry); its end is of no interest then.
  run.catch(() => undefined)

  const usage = () => ({ ...spent })
  const discard = async () => {
    await toolset.close()
    if (toolset.changesetId === null) return
    try {
      await services.spreadsheet.discardChangeset(token, toolset.changesetId)
    } catch (error) {
      // A draft left behind is never applied; the workbook is unchanged either way.
      logger?.warn({ err: error, changesetId: toolset.changesetId }, 'could not discard the changeset of a stopped agent request')
    }
  }
  const stopped = (code: string, text: string): ProcessActionResponse => ({
    success: false,
    action: { type: 'answer', parameters: {}, description: 'Stopped before finishing; nothing was changed' },
    message: `Error: ${text}`,
    error: { code, message: text },
    result: { changeset: null },
    visualFeedback: { highlights: [] },
    steps,
    ...base,
    usage: usage(),
  })

  let outcome: ConversationOutcome
  try {
    outcome = await untilStopped(run, stop.signal)
  } catch (error) {
    await discard()
    const reason = stop.signal.reason
    if (reason instanceof RunStopped && reason.reason === 'deadline') {
      logger?.info({ workbookId: workbook.id, steps: steps.length, ms: Math.round(performance.now() - started) }, 'agent request stopped at its deadline')
      return stopped(AI_ERROR_CODES.agentDeadline, `The assistant did not finish within ${Math.round(deadlineMs / 1000)} seconds, so nothing in the workbook was changed. Try a smaller request, or split it into steps.`)
    }
    if (reason instanceof RunStopped) throw aiErrors.cancelled()
    if (error instanceof ProviderError) throw aiErrors.provider(error)
    throw error
  } finally {
    clearTimeout(deadline)
    input.signal?.removeEventListener('abort', onClientGone)
    await recordUsage(services, user, spent, { purpose: 'agent', ...base })
  }

  if (outcome.stoppedBy === 'tool_limit') {
    await discard()
    return stopped(
      AI_ERROR_CODES.toolLimit,
      `The assistant used the ${MAX_AGENT_TOOL_CALLS} tool calls one request may make without finishing, so nothing in the workbook was changed. Try a narrower request, such as one sheet or one block of rows at a time.`,
    )
  }
  if (outcome.stoppedBy === 'token_budget') {
    await discard()
    return stopped(
      AI_ERROR_CODES.tokenBudget,
      `The assistant used the ${tokenBudget.toLocaleString('en-US')} tokens one request may spend without finishing, so nothing in the workbook was changed. Try a narrower request.`,
    )
  }
  await toolset.close()
  const text = outcome.message.content.trim()

  if (toolset.changesetId === null) {
    if (text === '') throw aiErrors.emptyResponse(AI_PROVIDER_LABELS[model.option.provider])
    return {
      success: true,
      action: { type: 'answer', parameters: { workbookId: workbook.id, toolCalls: steps.length }, description: 'Answered without changing the workbook' },
      message: text,
      result: { changeset: null },
      visualFeedback: { highlights: [] },
      steps,
      ...base,
      usage: usage(),
    }
  }

  const changesetId = toolset.changesetId
  const summary = text === '' ? `Made these changes: ${toolset.changeset?.description ?? 'see the changeset'}.` : text
  let changeset: Changeset
  let note = ''
  try {
    if (body.preview === true) {
      changeset = await services.spreadsheet.changeset(token, changesetId)
      note = 'This is a preview: nothing has been written yet. Apply the changes to write them, or discard them.'
    } else if (toolset.changeset?.needsApproval) {
      changeset = await services.spreadsheet.changeset(token, changesetId)
      note = approvalNote(changeset)
    } else {
      changeset = await services.spreadsheet.applyChangeset(token, changesetId, {
        label: (toolset.changeset?.description ?? 'Assistant changes').slice(0, MAX_CHANGESET_LABEL_LENGTH),
        summary: summary.slice(0, MAX_CHANGESET_SUMMARY_LENGTH),
      })
    }
  } catch (error) {
    if (isAppError(error) && error.code === 'CHANGESET_CONFLICT') {
      await discard()
      return stopped('CHANGESET_CONFLICT', `${error.message}. They were edited while the assistant worked, so nothing was applied. Run the command again.`)
    }
    if (isAppError(error) && error.code === 'APPROVAL_REQUIRED') {
      changeset = await services.spreadsheet.changeset(token, changesetId)
      note = approvalNote(changeset)
    } else {
      throw error
    }
  }
  logger?.info(
    { workbookId: workbook.id, changesetId, applied: changeset.applied, changes: changeset.changeCount, steps: steps.length, ...spent, ms: Math.round(performance.now() - started) },
    'agent request finished',
  )
  return {
    success: true,
    action: {
      type: 'edit',
      parameters: { workbookId: workbook.id, changesetId, applied: changeset.applied, preview: body.preview === true, toolCalls: steps.length },
      description: changeset.description,
    },
    message: note === '' ? summary : `${summary}\n\n${note}`,
    result: { changeset },
    visualFeedback: { highlights: changeset.highlights },
    steps,
    ...base,
    usage: usage(),
  }
}

function approvalNote(changeset: Changeset): string {
  const cells = changeset.approvalReasons.map((reason) => `${reason.sheet}!${reason.address} (${reason.reason})`).join('; ')
  return `These changes include formulas that could reach the network: ${cells}. They are kept as a preview and written only when you approve them.`
}

/** A tool call as the panel lists it: what the spreadsheet service said it did, or why the call never reached it. */
function stepOf(call: ToolCall, result: ToolResult, toolset: WorkbookToolset, planned: string | undefined): AgentStep {
  const answer = toolset.answerTo(call.id)
  const description = answer?.summary || planned || describeToolCall(call.name, call.arguments)
  if (answer) return { id: call.id, name: call.name, description, ok: answer.ok, ...(answer.ok ? {} : { error: answer.error ?? result.content }), ms: answer.ms }
  return { id: call.id, name: call.name, description, ok: !result.isError, ...(result.isError ? { error: result.content } : {}), ms: 0 }
}

/** Model `local` without a planner: what agent mode needs, and nothing written. */
function agentModeNeedsAModel(services: AgentServices, model: ResolvedModel): ProcessActionResponse {
  const configured = services.registry.list().filter((option) => option.available && option.provider !== 'local')
  const choose =
    configured.length > 0
      ? `Choose one of the configured models in the model picker: ${configured.map((option) => `${option.label} (${option.value})`).join(', ')}.`
      : 'No model is configured on this server. An administrator can enable one on the AI service with OPENAI_API_KEY (OpenAI), ANTHROPIC_API_KEY (Anthropic), GOOGLE_CLOUD_PROJECT (Google Vertex AI), or OPENAI_BASE_URL with OPENAI_MODELS (an OpenAI-compatible server such as vLLM, llama.cpp or Ollama).'
  return {
    success: true,
    action: { type: 'answer', parameters: {}, description: 'Explained what agent mode needs' },
    message: `Agent mode changes your workbook through a language model, and the Local (offline) model cannot do that here. ${choose} Nothing in the workbook was changed. Chat mode with the Local model still answers questions about formulas, finance terms and uploaded documents.`,
    result: { changeset: null },
    visualFeedback: { highlights: [] },
    steps: [],
    model: model.option.value,
    provider: model.option.provider,
    usage: { ...NO_USAGE },
  }
}

/** A command asking for a new model: handed to the model generator with what the command names. */
async function createModel(services: AgentServices, input: AgentInput, model: ResolvedModel): Promise<ProcessActionResponse> {
  const generator = services.modelGenerator
  if (!generator) throw aiErrors.modelGenerationUnavailable()
  const request = readModelCommand(input.body.command)
  const described = describeModelRequest(request)
  let result
  try {
    result = await generator.generate(
      input.user,
      { ...request, model: model.option.value, ...(input.body.workbookId === undefined ? {} : { workbookId: input.body.workbookId }) },
      { signal: input.signal, token: input.token, onProgress: (progress) => input.events?.progress(progress) },
    )
  } catch (error) {
    if (error instanceof ProviderError) throw aiErrors.provider(error)
    throw error
  }
  const sheets = result.model.sheets
  return {
    success: true,
    action: { type: 'create_model', parameters: { ...request }, description: `Creating ${described}` },
    message: `Created ${described}: a new workbook, “${result.model.name}”, with ${sheets.length} ${sheets.length === 1 ? 'sheet' : 'sheets'} (${sheets.join(', ')}) and ${result.cellsCreated.toLocaleString('en-US')} cells.`,
    result: { changeset: null, model: result },
    visualFeedback: { highlights: [] },
    steps: [],
    model: model.option.value,
    provider: model.option.provider,
    usage: { ...NO_USAGE },
  }
}
