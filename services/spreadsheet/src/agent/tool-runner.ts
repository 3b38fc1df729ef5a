/**
 * One tool call, as the model sent it: the tool found by name, its arguments (an object, or JSON text
 * as some providers send them) checked against the tool's schema, the tool run on the request's draft
 * session, and its content cut to the size a model is given. Whatever goes wrong becomes the call's
 * error for the model to correct itself, and a call that fails keeps nothing it wrote.
 */
import type { Logger } from '@finsheet/platform'
import {
  AGENT_RESULT_MAX_BYTES,
  AGENT_TOOL_ARGUMENTS,
  AGENT_TOOL_NAMES,
  MAX_UPDATES_PER_CHANGE,
  type AgentToolCall,
  type AgentToolName,
  type AgentToolResult,
} from '@finsheet/contracts'
import { CommandError } from '@finsheet/workbook'
import { Compile } from 'typebox/compile'
import { countUpdates } from '../engine/translate.js'
import type { DraftSession } from './draft-session.js'
import { capContent } from './result-cap.js'
import { ToolError } from './tool-error.js'
import { emptyRecord, type CallRecord, type ToolContext } from './tool-kit.js'
import { AGENT_TOOL_IMPLEMENTATIONS } from './tools/index.js'

/** Each tool's arguments checked against its schema, compiled once. */
const VALIDATORS = Object.fromEntries(AGENT_TOOL_NAMES.map((name) => [name, Compile(AGENT_TOOL_ARGUMENTS[name])])) as Record<AgentToolName, ReturnType<typeof Compile>>

/** Validation problems named in an error; the rest are counted. */
const MAX_PROBLEMS = 5

const isToolName = (name: string): name is AgentToolName => (AGENT_TOOL_NAMES as string[]).includes(name)

/** Why arguments do not fit a tool's schema, in sentences a model can act on. */
export function argumentProblems(name: AgentToolName, args: unknown): string | null {
  const validator = VALIDATORS[name]
  if (validator.Check(args)) return null
  const problems: string[] = []
  for (const error of validator.Errors(args)) {
    // A union's own summary repeats what its branches said.
    if (error.keyword === 'boolean') continue
    const where = error.instancePath === '' ? 'the arguments' : error.instancePath.slice(1).replace(/\//g, '.')
    let message = error.message
    const params = error.params as Record<string, unknown>
    if (error.keyword === 'additionalProperties' && Array.isArray(params.additionalProperties)) message = `have no field ${params.additionalProperties.map((field) => JSON.stringify(field)).join(', ')}`
    if (error.keyword === 'required' && Array.isArray(params.requiredProperties)) message = `need ${params.requiredProperties.map((field) => JSON.stringify(field)).join(', ')}`
    if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) message = `must be one of ${params.allowedValues.map((value) => JSON.stringify(value)).join(', ')}`
    const line = `${where} ${message}`
    if (!problems.includes(line)) problems.push(line)
  }
  const shown = problems.slice(0, MAX_PROBLEMS)
  return `The arguments do not match ${name}'s schema: ${shown.join('; ')}${problems.length > shown.length ? `; and ${problems.length - shown.length} more` : ''}.`
}

/** One call: its arguments checked, the tool run, a failure kept from the changeset and turned into the tool's error. */
export async function runToolCall(call: AgentToolCall, session: DraftSession, workbookName: string, records: CallRecord, logger?: Pick<Logger, 'error'>): Promise<AgentToolResult> {
  const started = performance.now()
  const finish = (result: Omit<AgentToolResult, 'id' | 'name' | 'ms'>): AgentToolResult => ({
    id: call.id,
    name: call.name,
    ...result,
    ms: Math.round((performance.now() - started) * 100) / 100,
  })
  if (!isToolName(call.name)) {
    return finish({ ok: false, summary: `Calling ${call.name.slice(0, 60)}`, content: null, error: `There is no tool named ${JSON.stringify(call.name)}. The tools are: ${AGENT_TOOL_NAMES.join(', ')}.` })
  }
  let args = call.arguments ?? {}
  if (typeof args === 'string') {
    try {
      args = args.trim() === '' ? {} : JSON.parse(args)
    } catch (error) {
      return finish({ ok: false, summary: `Calling ${call.name}`, content: null, error: `The arguments are not valid JSON: ${(error as Error).message}.` })
    }
  }
  const problems = argumentProblems(call.name, args)
  if (problems) return finish({ ok: false, summary: `Calling ${call.name}`, content: null, error: problems })
  const tool = AGENT_TOOL_IMPLEMENTATIONS[call.name] as (typeof AGENT_TOOL_IMPLEMENTATIONS)[AgentToolName]
  const attempt = (tool.attempt as (value: unknown) => string)(args)
  const record = emptyRecord()
  const context: ToolContext = {
    state: session.state,
    session,
    record,
    workbookName,
    layout: (sheet) => session.layout(sheet),
  }
  const checkpoint = session.checkpoint()
  try {
    const outcome = await (tool.run as (value: unknown, context: ToolContext) => ReturnType<typeof tool.run>)(args, context)
    if (tool.writes) {
      const updates = countUpdates([...session.added])
      if (updates > MAX_UPDATES_PER_CHANGE) {
        throw new ToolError(`The changeset would hold ${updates.toLocaleString('en-US')} cell writes; one change can hold at most ${MAX_UPDATES_PER_CHANGE.toLocaleString('en-US')}. Nothing of this call was kept.`)
      }
    }
    records.structural.push(...record.structural)
    records.formats.push(...record.formats)
    records.charts.push(...record.charts)
    records.approvals.push(...record.approvals)
    return finish({ ok: true, summary: outcome.summary, content: capContent(outcome.content, AGENT_RESULT_MAX_BYTES) })
  } catch (error) {
    session.rollBackTo(checkpoint)
    if (error instanceof ToolError || error instanceof CommandError) return finish({ ok: false, summary: attempt, content: null, error: error.message })
    logger?.error({ err: error, tool: call.name }, 'an agent tool failed')
    return finish({ ok: false, summary: attempt, content: null, error: `${call.name} failed inside the service; the call changed nothing. Try another way.` })
  }
}

