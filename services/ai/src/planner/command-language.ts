/**
 * The planner's typed command language: what a spreadsheet command says, once read. The grammar in
 * grammar.ts reads text into these values; plans act on them. A command that does not read as one
 * of them is not guessed at: it gets the list of what the planner can do.
 */
import { FINANCIAL_MODEL_TYPES, type ChartType, type FinancialModelType, type StylePatch } from '@finsheet/contracts'
import peggy from 'peggy'
import { COMMAND_GRAMMAR } from './grammar.js'

/** Cells a command names, before they are found in the workbook. `sheet` is the sheet it names, if any. */
export type TargetSpec =
  | { kind: 'address'; address: string; sheet?: string }
  | { kind: 'range'; from: string; to: string; sheet?: string }
  | { kind: 'columns'; from: string; to: string; sheet?: string }
  | { kind: 'rows'; from: number; to: number; sheet?: string }
  /** A row named by its label, maybe with a column header or a sheet in its words ("revenue for FY2025"). */
  | { kind: 'label'; text: string; sheet?: string }
  /** Every used cell of a sheet (the active one without a name). */
  | { kind: 'sheet'; sheet?: string }
  | { kind: 'header_row'; sheet?: string }
  | { kind: 'selection'; sheet?: string }

/** A value as the user wrote it, and what is typed into the cell for it. */
export type ValueSpec =
  | { kind: 'number'; input: number; value: number; shown: string }
  | { kind: 'percent' | 'currency'; input: string; value: number }
  | { kind: 'formula'; input: string }
  /** `words`: bare words after "set … to", which may name a line to link to rather than text to type. */
  | { kind: 'text'; input: string; words?: true }
  | { kind: 'boolean'; input: boolean; value: boolean }
  | { kind: 'date'; input: string }

export type FormatSpec =
  | { kind: 'currency'; symbol: '$' | '€' | '£'; decimals?: number }
  | { kind: 'percent' | 'number' | 'multiple'; decimals?: number }
  | { kind: 'date' | 'general'; decimals?: number }
  | { kind: 'decimals'; decimals: number }
  | { kind: 'style'; style: StylePatch; words: string }
  /** A number format code as typed ("#,##0;(#,##0)"). */
  | { kind: 'code'; code: string }
  /** A thin line around the outside of the range. */
  | { kind: 'outline' }

export type AggregateFunction = 'SUM' | 'AVERAGE' | 'MAX' | 'MIN' | 'COUNT' | 'MEDIAN'

/** A year in a growth command: the n-th period of the row, or a calendar year found in the headers. */
export type PeriodBound = { year: number } | { calendar: number }

export interface SensitivityAxis {
  name: 'wacc' | 'growth'
  from: number
  to: number
  step?: number
}

export interface ModelRequest {
  modelType: FinancialModelType
  companyName: string
  parameters: { projectionYears?: number; terminalGrowthRate?: number }
}

/** One term of a calculated row: the cells it reads (a row by its label, a cell) or a number, and how it joins the terms before. */
export interface DeriveTerm {
  op: '+' | '-' | '*' | '/' | null
  operand: { kind: 'cells'; target: TargetSpec } | { kind: 'number'; input: string } | { kind: 'group'; terms: DeriveTerm[] }
}

export type PlannerCommand =
  | { type: 'set'; target: TargetSpec; value: ValueSpec }
  | { type: 'adjust'; target: TargetSpec; direction: 'up' | 'down'; amount: number; unit: 'percent' | 'points' | 'absolute' }
  | { type: 'fill'; source: TargetSpec; direction?: 'right' | 'down'; destination?: TargetSpec | { kind: 'end' } }
  | { type: 'insert'; axis: 'rows' | 'columns'; count: number; side: 'before' | 'after' | 'at'; anchor: TargetSpec }
  | { type: 'delete'; target: TargetSpec; axis?: 'rows' }
  | { type: 'add_sheet'; name?: string; position?: number }
  | { type: 'rename_sheet'; from?: string; to: string }
  | { type: 'delete_sheet'; name?: string }
  | { type: 'format'; target: TargetSpec; spec: FormatSpec }
  | { type: 'aggregate'; fn: AggregateFunction; source: TargetSpec; destination?: TargetSpec }
  | { type: 'total_row'; table?: TargetSpec }
  | { type: 'sort'; target?: TargetSpec; key?: { column: string } | { header: string }; order: 'asc' | 'desc' }
  | { type: 'clear'; target: TargetSpec }
  /**
   * The sheet's layout: panes frozen (rows and columns counted from the top left, the header row or the
   * label column as the sheet has them, or at a cell), rows or columns hidden or shown, a column's width.
   */
  | {
      type: 'layout'
      sheet?: string
      freeze?: { rows: number | 'header'; columns: number | 'labels' } | { at: string }
      hide?: TargetSpec
      unhide?: TargetSpec
      width?: { target: TargetSpec; value?: number; unit?: 'pixels' | 'characters'; change?: 'wider' | 'narrower' }
    }
  /** Two rows or two columns (by number, letters or label) trading places; formulas follow both. */
  | { type: 'swap'; a: TargetSpec; b: TargetSpec }
  /** Cut and paste: the cells to `destination` (its top-left cell), formulas that read them following. */
  | { type: 'move'; source: TargetSpec; destination: TargetSpec }
  | { type: 'chart'; chartType: ChartType | { unsupported: string }; source: TargetSpec; title?: string }
  | { type: 'sensitivity'; axes: SensitivityAxis[]; output?: string }
  | { type: 'grow'; target: TargetSpec; rate: number; span?: { from: PeriodBound; to: PeriodBound } | { next: number } }
  | { type: 'explain'; target: TargetSpec }
  | { type: 'audit' }
  | { type: 'create_model'; request: ModelRequest }
  /** A question about cells: their values, or one aggregate of them, answered without writing. */
  | { type: 'read'; target: TargetSpec; fn?: AggregateFunction }
  /** "undo that": an answer saying where Undo is (changes are undone from the panel or the grid, not by a command). */
  | { type: 'undo' }
  /** A new line from nothing: its label, a year per column from `firstYear` (else Year 1, 2...), its first value and its growth rate. */
  | { type: 'project'; label: string; periods: number; start: Extract<ValueSpec, { kind: 'number' | 'currency' }>; rate: number; firstYear?: number }
  /** New period columns after the last one (`count` more, or up to the year `to`), each row carried on from it; one row's only with `target`, which grows by `rate` when given. */
  | { type: 'extend'; target?: TargetSpec; count?: number; to?: number; rate?: number }
  /** A row calculated from other rows, column by column: a new one under the table with `label`, or the row or cell `at` names. */
  | { type: 'derive'; label?: string; at?: TargetSpec; terms: DeriveTerm[]; percent?: boolean }
  /** A new row of each period's growth over the one before (as percentages), under the table of `line`. */
  | { type: 'growth_row'; line: TargetSpec }

/** Commands longer than this are not read as one command (a PEG over long prose only wastes time). */
export const MAX_COMMAND_LENGTH = 500

/** The company a model is for when the request names none. */
export const DEFAULT_COMPANY_NAME = 'Company'

interface GrammarParser {
  parse(input: string, options: { startRule: 'Command' | 'Target' | 'ModelRequest'; parseTarget: (text: string) => TargetSpec }): unknown
}

let parser: GrammarParser | undefined

/** The parser, generated from the grammar once, when first needed. */
function grammarParser(): GrammarParser {
  parser ??= peggy.generate(COMMAND_GRAMMAR, { allowedStartRules: ['Command', 'Target', 'ModelRequest'], cache: true }) as unknown as GrammarParser
  return parser
}

/**
 * The text as the grammar reads it: quotes made straight where they are typographic, spacing
 * collapsed, and the full stop, question or exclamation mark that ends a sentence dropped.
 */
export function normalizeCommand(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.?!;]+$/, '')
    .trim()
}

/**
 * The Target rule over a piece of a command. The grammar calls it while it tries alternatives, on
 * pieces that may be nothing like a target; those read as a label, which no workbook will match.
 */
function parseTarget(text: string): TargetSpec {
  try {
    return grammarParser().parse(text.trim(), { startRule: 'Target', parseTarget }) as TargetSpec
  } catch {
    return { kind: 'label', text: text.trim() }
  }
}

/** The cells a phrase names ("B3", "column C", "the revenue growth on Assumptions"). */
export function parseTargetText(text: string): TargetSpec {
  return parseTarget(normalizeCommand(text))
}

/** A spreadsheet command read into the command language, or null when it does not read as one. */
export function parseCommand(text: string): PlannerCommand | null {
  const normalized = normalizeCommand(text)
  if (normalized === '' || normalized.length > MAX_COMMAND_LENGTH) return null
  let parsed: unknown
  try {
    parsed = grammarParser().parse(normalized, { startRule: 'Command', parseTarget })
  } catch {
    return null
  }
  const command = parsed as PlannerCommand | { type: 'create_model'; request: RawModelRequest }
  if (command.type === 'create_model') {
    const request = completeModelRequest(command.request)
    return request ? { type: 'create_model', request } : null
  }
  return command
}

/** Where one command ends and the next begins: "; ", " and ", ", then ", " and then ". */
const CLAUSE_BREAK = /^(?:\s*;\s*|,?\s+and\s+then\s+|,?\s+then\s+|,?\s+and\s+)/i

/** Words that may end one command and begin the next. */
const HOLDS_BREAK = /(?:\s(?:and|then)\s|;)/i

/** The free words a command took in: its labels, the texts and the formulas it writes (where a second command may hide). */
function freeWords(value: unknown, found: string[] = []): string[] {
  if (value === null || typeof value !== 'object') return found
  const item = value as { kind?: unknown; text?: unknown; input?: unknown }
  if (item.kind === 'label' && typeof item.text === 'string') found.push(item.text)
  if ((item.kind === 'text' || item.kind === 'formula') && typeof item.input === 'string') found.push(item.input)
  for (const inner of Object.values(value)) freeWords(inner, found)
  return found
}

/** The cells a command acts on, for "it" in the command after it ("set B4 to =B2-B3 and fill it right"). */
function subjectOf(command: PlannerCommand): TargetSpec | undefined {
  if (command.type === 'aggregate') return command.destination ?? command.source
  if (command.type === 'fill') return command.source
  if ('target' in command && command.target !== undefined) return command.target
  return undefined
}

/** A later clause's "it" or "them" (read as the selection) names the cells of the command before it. */
function withAntecedent(command: PlannerCommand, clause: string, before: PlannerCommand): PlannerCommand {
  const subject = subjectOf(before)
  if (subject === undefined || !/\b(it|them)\b/i.test(clause)) return command
  const replaced = { ...command } as Record<string, unknown>
  for (const field of ['target', 'source', 'anchor']) {
    const target = replaced[field] as TargetSpec | undefined
    if (target?.kind === 'selection' && target.sheet === undefined) replaced[field] = subject
  }
  return replaced as PlannerCommand
}

/**
 * The clauses of a message, split where a command may end: outside quotes and parentheses (a formula's
 * arguments and a quoted text stay whole).
 */
export function splitClauses(text: string): string[] {
  const clauses: string[] = []
  let depth = 0
  let quoted = false
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (char === '"') quoted = !quoted
    if (quoted) continue
    if (char === '(') depth++
    else if (char === ')') depth = Math.max(0, depth - 1)
    if (depth > 0 || (char !== ' ' && char !== ',' && char !== ';')) continue
    const found = CLAUSE_BREAK.exec(text.slice(i))
    if (!found) continue
    clauses.push(text.slice(start, i))
    start = i + found[0].length
    i = start - 1
  }
  clauses.push(text.slice(start))
  return clauses.map((clause) => clause.trim())
}

/**
 * A clause that leaves out its verb ("… and 1000 in B1", "… and C2 to 1300") read with the verb the
 * clause before it began with (and its "rows" or "columns"), and with nothing more of it: "set A1 to
 * Profit and loss" is one text, not "loss" written over "Profit".
 */
function parseClause(clause: string, before: string | undefined): { command: PlannerCommand; text: string } | null {
  const alone = parseCommand(clause)
  if (alone) return { command: alone, text: clause }
  const words = before?.split(/\s+/) ?? []
  if (words.length === 0) return null
  // "delete rows 3 and 5": the rows or columns word goes with the verb.
  const verb = /^(rows?|columns?|cols?)$/i.test(words[1] ?? '') ? `${words[0]} ${words[1]}` : words[0]
  const text = `${verb} ${clause}`
  const inherited = parseCommand(text)
  return inherited ? { command: inherited, text } : null
}

/**
 * The commands of a message, in order. A message is one command unless it reads better as several
 * ("put Revenue in A1 and 1000 in B1", "set B2 to 5; make row 1 bold"): when it does not read as one,
 * or reads as one only by taking "and" into a label, a text or a formula it writes, and every clause
 * reads as a command. Null when it reads as none.
 */
export function parseCommands(text: string): PlannerCommand[] | null {
  const normalized = normalizeCommand(text)
  if (normalized === '' || normalized.length > MAX_COMMAND_LENGTH) return null
  const whole = parseCommand(normalized)
  if (whole && !freeWords(whole).some((words) => HOLDS_BREAK.test(words))) return [whole]
  const clauses = splitClauses(normalized)
  if (clauses.length > 1 && clauses.every((clause) => clause !== '')) {
    const commands: PlannerCommand[] = []
    let before: string | undefined
    for (const clause of clauses) {
      const read = parseClause(clause, before)
      if (!read) break
      const previous = commands.at(-1)
      commands.push(previous ? withAntecedent(read.command, clause, previous) : read.command)
      before = read.text
    }
    if (commands.length === clauses.length) return commands
  }
  return whole ? [whole] : null
}

interface RawModelRequest {
  modelType: FinancialModelType | 'default' | null
  companyName: string | null
  parameters: ModelRequest['parameters']
}

function completeModelRequest(raw: RawModelRequest): ModelRequest | null {
  if (raw.modelType === null) return null
  // "A financial model" with no kind named is the product's default model, the DCF.
  const modelType: FinancialModelType = raw.modelType === 'default' ? 'dcf' : raw.modelType
  if (!(FINANCIAL_MODEL_TYPES as readonly string[]).includes(modelType)) return null
  const companyName = raw.companyName?.trim() || DEFAULT_COMPANY_NAME
  return { modelType, companyName, parameters: { ...raw.parameters } }
}

/**
 * A request for a new financial model read into the body of generate-financial-model: the model type
 * ("DCF", "LBO", "three-statement", ...), the company it is for (quoted names are taken whole) and
 * the parameters it states (projection years, terminal growth in percent). Null when the text does
 * not ask for a model. Parameters are passed on as stated, out-of-range ones included, for the
 * generator to accept or refuse by name.
 */
export function parseModelRequest(text: string): ModelRequest | null {
  const normalized = normalizeCommand(text)
  if (normalized === '' || normalized.length > MAX_COMMAND_LENGTH) return null
  try {
    return completeModelRequest(grammarParser().parse(normalized, { startRule: 'ModelRequest', parseTarget }) as RawModelRequest)
  } catch {
    return null
  }
}
