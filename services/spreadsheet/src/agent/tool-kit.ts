/**
 * What every tool is given and gives back. A tool reads and writes the open workbook through the
 * request's draft session, resolves its targets through the sheet layouts, records what it adds to
 * the changeset besides cells (structure, formats, charts, formulas awaiting approval), and answers
 * with a sentence for people and JSON content for the model. Cell text in content is quoted data; text
 * that reads like instructions is flagged.
 */
import type {
  AgentToolArguments,
  AgentToolName,
  ApprovalReason,
  CellValue,
  ChangesetChart,
  ChangesetFormatChange,
  ChangesetStructuralChange,
} from '@finsheet/contracts'
import { formatValue, type CellValue as EngineValue } from '@finsheet/formula'
import { toJsonValue, type SheetRecord, type WorkbookModel } from '@finsheet/workbook'
import type { DraftSession } from './draft-session.js'
import { FLAGGED_TEXT_NOTICE, instructionLikeText } from './safety.js'
import type { TargetScope } from './targets.js'

/** What a call adds to the changeset besides cells; kept only when the call succeeds. */
export interface CallRecord {
  structural: ChangesetStructuralChange[]
  formats: ChangesetFormatChange[]
  charts: ChangesetChart[]
  approvals: ApprovalReason[]
}

export const emptyRecord = (): CallRecord => ({ structural: [], formats: [], charts: [], approvals: [] })

export interface ToolContext extends TargetScope {
  state: WorkbookModel
  session: DraftSession
  record: CallRecord
  /** The workbook's name, for the overview. */
  workbookName: string
}

export interface ToolOutcome {
  /** What the call did, for people. */
  summary: string
  content: Record<string, unknown>
}

export interface AgentTool<Name extends AgentToolName> {
  name: Name
  /** Whether the tool writes (its commands go into the changeset). */
  writes: boolean
  /** What the call sets out to do, from its arguments alone: the summary of a call that fails. */
  attempt(args: AgentToolArguments<Name>): string
  run(args: AgentToolArguments<Name>, context: ToolContext): ToolOutcome | Promise<ToolOutcome>
}

/** Builds a tool with its argument type tied to its name. */
export const defineTool = <Name extends AgentToolName>(tool: AgentTool<Name>): AgentTool<Name> => tool

/** A value as the model reads it: errors as their code. */
export const modelValue = (value: EngineValue): CellValue => toJsonValue(value)

/** The number format a cell shows with: the user's, else the one its input suggested. */
export function formatOf(state: WorkbookModel, sheet: SheetRecord, row: number, col: number, address: string): string | undefined {
  return state.formatAtPosition(sheet.id, row, col) ?? state.engine.getSuggestedFormat(sheet.name, address)
}

/** A value formatted as the grid shows it. */
export function shown(value: EngineValue, format: string | undefined): string {
  if (value === null) return ''
  try {
    return formatValue(value, format)
  } catch {
    return formatValue(value)
  }
}

/**
 * The formatted text of a number when a number format says more than the number does (15% for 0.15,
 * a date for a serial, $1,200 for 1200); undefined otherwise.
 */
export function meaningfulDisplay(value: EngineValue, format: string | undefined): string | undefined {
  if (typeof value !== 'number' || format === undefined || format === 'General') return undefined
  const display = shown(value, format)
  return display === String(value) || display === '' ? undefined : display
}

/** Collects cells whose text reads like instructions, for a result's `flagged` list. */
export class TextFlags {
  private readonly found: { cell: string; text: string; reason: string }[] = []

  check(cell: string, text: unknown): void {
    if (typeof text !== 'string' || this.found.length >= 20) return
    const reason = instructionLikeText(text)
    if (reason) this.found.push({ cell, text: text.length > 160 ? `${text.slice(0, 160)}…` : text, reason })
  }

  /** The fields a result gets when anything was flagged. */
  fields(): Record<string, unknown> {
    return this.found.length === 0 ? {} : { flagged: this.found, flaggedNotice: FLAGGED_TEXT_NOTICE }
  }
}

/** "1 cell", "12 cells". */
export const count = (n: number, noun: string, plural = `${noun}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? noun : plural}`

/** A short, quoted echo of something the model sent, for summaries of calls that fail. */
export function echo(target: unknown): string {
  if (typeof target === 'string') return target.length > 60 ? `${target.slice(0, 60)}…` : target
  if (target && typeof target === 'object') {
    const parts = Object.entries(target as Record<string, unknown>)
      .filter(([, value]) => typeof value === 'string')
      .map(([key, value]) => `${key} "${String(value).slice(0, 40)}"`)
    return parts.join(', ')
  }
  return String(target)
}
