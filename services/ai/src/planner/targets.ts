/**
 * From the cells a command names to cells of the workbook: addresses and ranges on the sheet they
 * name (else the active sheet), rows and columns cut to the used part, the selection, and rows found
 * by label (looked up in the overview, else with search_workbook). Reading cells goes through
 * read_range, page by page.
 */
import type { CellValue } from '@finsheet/contracts'
import { formatAddress, LABEL_MATCH_THRESHOLD, labelSimilarity, lettersToColumn, MAX_COL, MAX_ROW, splitSheetReference, tryParseAddress, tryParseRange, type RangeAddress } from '@finsheet/workbook'
import type { TargetSpec } from './command-language.js'
import { PlanStop, stop, useTool, type Observation, type PlanContext, type Step } from './plan-kit.js'
import type { WorkbookView} from './workbook-view.js';
import { cellRange, refText, type LabelMatch, type RowLabel, type SheetView } from './workbook-view.js'

/** Cells a command acts on, found. */
export interface FoundCells {
  sheet: SheetView
  range: RangeAddress
  /** How the answer names them: "Assumptions!B2 (Revenue growth)". */
  described: string
  /** The row label (and column header) that led there. */
  label?: LabelMatch
  /** The target named whole rows or columns (cut to the used part). */
  whole?: 'rows' | 'columns'
  /** Found as the column under a header that says the words (no line has them). */
  byHeader?: boolean
}

export interface ReadCell {
  row: number
  col: number
  address: string
  value: CellValue
  formula?: string
  shown?: string
}

/** Pages of read_range one read follows at most. */
const MAX_READ_PAGES = 8

/** The cells of a range with content (values and formulas), page by page. */
export function* readCells(sheet: string, range: RangeAddress | string): Step<ReadCell[]> {
  const text = typeof range === 'string' ? range : formatRangeText(range)
  const cells: ReadCell[] = []
  let offset: number | null = 0
  for (let page = 0; page < MAX_READ_PAGES && offset !== null; page++) {
    const result: Observation = yield* useTool('read_range', { sheet, range: text, include: 'both', ...(offset > 0 ? { offset } : {}) })
    if (!result.ok) stop(`I could not read ${sheet}!${text}: ${result.error ?? 'the read failed'}.`)
    for (const row of (result.content?.rows ?? []) as { cells: Record<string, unknown> }[]) {
      for (const [address, cell] of Object.entries(row.cells)) {
        const at = tryParseAddress(address)
        if (!at) continue
        if (cell !== null && typeof cell === 'object') {
          const parts = cell as { value: CellValue; formula?: string; shown?: string }
          cells.push({ row: at.row, col: at.col, address, value: parts.value, ...(parts.formula ? { formula: parts.formula } : {}), ...(parts.shown ? { shown: parts.shown } : {}) })
        } else cells.push({ row: at.row, col: at.col, address, value: cell as CellValue })
      }
    }
    offset = typeof result.content?.nextOffset === 'number' ? result.content.nextOffset : null
  }
  return cells
}

const formatRangeText = (range: RangeAddress) => (range.top === range.bottom && range.left === range.right ? formatAddress(range.top, range.left) : `${formatAddress(range.top, range.left)}:${formatAddress(range.bottom, range.right)}`)

/** A range as the tools take it (rows and columns cut to used cells by the tool itself stay whole here). */
export function rangeText(range: RangeAddress): string {
  return formatRangeText(range)
}

function described(sheet: SheetView, range: RangeAddress, label?: LabelMatch): string {
  const ref = refText(sheet.name, range)
  if (!label) return ref
  return `${ref} (${label.label.text}${label.column ? `, ${label.column.text}` : ''})`
}

/** The used part of a sheet, or a stop when it is empty. */
function usedOf(sheet: SheetView): RangeAddress {
  if (!sheet.used) stop(`${sheet.name} is empty.`)
  return sheet.used
}

/**
 * Of labels the words match equally, the first whose row holds a number: the line of the model, not
 * a title or a section header of the same words above it. The first when none does.
 */
export function* lineOfModel(view: WorkbookView, match: LabelMatch, text: string): Step<LabelMatch> {
  const tied = view.labelsTied(match, text)
  if (tied.length < 2) return match
  for (const candidate of tied) {
    const right = Math.max(candidate.sheet.used?.right ?? 0, candidate.label.col + 1)
    const cells = yield* readCells(candidate.sheet.name, { top: candidate.label.row, bottom: candidate.label.row, left: candidate.label.col + 1, right })
    if (cells.some((cell) => typeof cell.value === 'number')) return candidate
  }
  return match
}

/** A label found, by the overview, else by search_workbook (for sheets with more labels than the overview lists). */
function* findLabel(view: WorkbookView, text: string, sheetName: string | undefined, context: PlanContext): Step<LabelMatch> {
  const match = view.matchLabel(text, sheetName, context.activeSheet)
  if (match) return yield* lineOfModel(view, match, text)
  const scope = sheetName !== undefined ? [view.sheetNamed(sheetName)] : view.sheets
  if (scope.some((sheet) => sheet.moreLabels > 0)) {
    const result = yield* useTool('search_workbook', { query: text })
    for (const hit of (result.ok ? result.content?.hits : []) ?? []) {
      if (hit.kind !== 'label') continue
      const { sheet, reference } = splitSheetReference(String(hit.where))
      const found = sheet !== undefined ? view.findSheet(sheet) : undefined
      const at = tryParseAddress(reference)
      if (!found || !at || !scope.includes(found)) continue
      const score = labelSimilarity(text, String(hit.text))
      if (score >= LABEL_MATCH_THRESHOLD) return { sheet: found, label: { row: at.row, col: at.col, text: String(hit.text) }, score }
    }
  }
  stop(`I could not find a row labelled “${text}”${sheetName ? ` on ${sheetName}` : ''}. The row labels I see are: ${view.labelList(scope)}.`)
}

/** The cells under the header the words name, on the named sheet, else the active one first; exact headers only. */
function columnByHeader(view: WorkbookView, text: string, sheetName: string | undefined, context: PlanContext): FoundCells | undefined {
  const words = text.replace(/^(all|every|each)\s+(the\s+)?/i, '').replace(/\s+column$/i, '')
  for (const sheet of view.searchOrder(sheetName, context.activeSheet)) {
    const header = view.headerSaying(sheet, words, 0.9)
    const row = header ? sheet.headerRows.find((line) => line.cells.includes(header))?.row : undefined
    if (!header || row === undefined || !sheet.used) continue
    const range: RangeAddress = { top: row + 1, bottom: Math.max(row + 1, sheet.used.bottom), left: header.col, right: header.col }
    return { sheet, range, described: `the ${header.text} column, ${refText(sheet.name, range)}`, byHeader: true }
  }
  return undefined
}

/** The row of a label: from the label to the right edge of the used part. */
function labelRow(match: LabelMatch): RangeAddress {
  const right = Math.max(match.sheet.used?.right ?? match.label.col + 1, match.label.col + 1)
  return { top: match.label.row, bottom: match.label.row, left: match.label.col, right }
}

export interface ResolveOptions {
  /** Whole rows and columns are cut to the used part of the sheet (default true). */
  clamp?: boolean
}

/** The cells a target names. */
export function* resolveTarget(view: WorkbookView, target: TargetSpec, context: PlanContext, options: ResolveOptions = {}): Step<FoundCells> {
  const clamp = options.clamp ?? true
  switch (target.kind) {
    case 'address': {
      const sheet = view.sheetFor(target.sheet, context.activeSheet)
      const at = tryParseAddress(target.address)
      if (!at) stop(`“${target.address}” is not a cell address.`)
      const range = cellRange(at.row, at.col)
      return { sheet, range, described: described(sheet, range) }
    }
    case 'range': {
      const sheet = view.sheetFor(target.sheet, context.activeSheet)
      const range = tryParseRange(`${target.from}:${target.to}`)
      if (!range) stop(`“${target.from}:${target.to}” is not a range.`)
      return { sheet, range, described: described(sheet, range) }
    }
    case 'columns': {
      const sheet = view.sheetFor(target.sheet, context.activeSheet)
      const left = lettersToColumn(target.from)
      const right = lettersToColumn(target.to)
      if (left < 0 || right < 0) stop(`“${target.from}” is not a column.`)
      const used = sheet.used
      const range = clamp && used ? { top: used.top, bottom: used.bottom, left: Math.min(left, right), right: Math.max(left, right) } : { top: 0, bottom: MAX_ROW, left: Math.min(left, right), right: Math.max(left, right) }
      const name = left === right ? `column ${target.from}` : `columns ${target.from}–${target.to}`
      return { sheet, range, described: `${name} of ${sheet.name} (${refText(sheet.name, range)})`, whole: 'columns' }
    }
    case 'rows': {
      const sheet = view.sheetFor(target.sheet, context.activeSheet)
      const top = Math.min(target.from, target.to) - 1
      const bottom = Math.max(target.from, target.to) - 1
      const used = sheet.used
      const range = clamp && used ? { top, bottom, left: used.left, right: used.right } : { top, bottom, left: 0, right: MAX_COL }
      const name = top === bottom ? `row ${top + 1}` : `rows ${top + 1}–${bottom + 1}`
      return { sheet, range, described: `${name} of ${sheet.name} (${refText(sheet.name, range)})`, whole: 'rows' }
    }
    case 'sheet': {
      const sheet = view.sheetFor(target.sheet, context.activeSheet)
      const range = usedOf(sheet)
      return { sheet, range, described: `every used cell of ${sheet.name} (${refText(sheet.name, range)})` }
    }
    case 'header_row': {
      const sheet = view.sheetFor(target.sheet, context.activeSheet)
      const used = usedOf(sheet)
      const row = sheet.headerRows[0]?.row ?? used.top
      const range = { top: row, bottom: row, left: used.left, right: used.right }
      return { sheet, range, described: `the header row of ${sheet.name} (${refText(sheet.name, range)})`, whole: 'rows' }
    }
    case 'selection': {
      if (!context.selection) stop('Nothing is selected that I can see. Select the cells first, or name them (for example B2:B9).')
      const { sheet: named, reference } = splitSheetReference(context.selection)
      const sheet = view.sheetFor(named ?? target.sheet, context.activeSheet)
      const range = tryParseRange(reference)
      if (!range) stop(`The selection “${context.selection}” is not a range I can read.`)
      return { sheet, range, described: `the selection, ${refText(sheet.name, range)}` }
    }
    case 'label': {
      // "the Scratch sheet", "the Data tab": a sheet named so, as a whole.
      const sheetWords = /^(.+?)\s+(?:sheet|tab|worksheet)$/i.exec(target.text)
      const namedSheet = sheetWords && target.sheet === undefined ? view.findSheet(sheetWords[1]) : undefined
      if (namedSheet) return yield* resolveTarget(view, { kind: 'sheet', sheet: namedSheet.name }, context, options)
      // No line has the words (here or by a search) but a column heads with them ("the total revenue" of
      // a table headed Revenue): its cells under the header.
      let match: LabelMatch
      try {
        match = yield* findLabel(view, target.text, target.sheet, context)
      } catch (error) {
        const column = error instanceof PlanStop ? columnByHeader(view, target.text, target.sheet, context) : undefined
        if (!column) throw error
        return column
      }
      const range = match.column ? cellRange(match.label.row, match.column.col) : labelRow(match)
      return { sheet: match.sheet, range, described: described(match.sheet, range, match), label: match }
    }
  }
}

/**
 * The cells to put a value in: an address or range as named; for a labelled row without a column,
 * the cells of the row that hold typed values (a one-value assumption row has one), else the one
 * formula, else the empty cell right of the label.
 */
export function* resolveValueCells(view: WorkbookView, target: TargetSpec, context: PlanContext, insteadOf?: RowLabel): Step<FoundCells & { cells: ReadCell[] }> {
  const found = yield* resolveTarget(view, target, context)
  if (found.byHeader && target.kind === 'label') return yield* columnValueCells(view, found, target, context)
  if (target.kind !== 'label' || !found.label || found.label.column) {
    const cells = found.range.top === found.range.bottom && found.range.left === found.range.right ? [] : yield* readCells(found.sheet.name, found.range)
    return { ...found, cells }
  }
  const label = found.label
  const right: RangeAddress = { ...found.range, left: label.label.col + 1 }
  const cells = right.right >= right.left ? (yield* readCells(found.sheet.name, right)).filter((cell) => cell.col > label.label.col) : []
  const inputs = cells.filter((cell) => cell.formula === undefined)
  let range: RangeAddress
  if (cells.length === 0) range = cellRange(label.label.row, label.label.col + 1)
  else if (inputs.length > 0) range = { top: label.label.row, bottom: label.label.row, left: inputs[0].col, right: inputs[inputs.length - 1].col }
  else if (cells.length === 1) range = cellRange(label.label.row, cells[0].col)
  else {
    // A calculated line: the input it is worked out from often carries its words and more ("Terminal
    // growth rate" on Assumptions under a valuation's "Terminal growth").
    const calculated = `${label.label.text} on ${found.sheet.name} is calculated by formulas in ${refText(found.sheet.name, { ...right, left: cells[0].col, right: cells[cells.length - 1].col })}; name the cell to change, such as ${cells[0].address}.`
    const input = insteadOf === undefined ? labelHoldingWords(view, label.label.text, label.label) : undefined
    if (input) {
      try {
        return yield* resolveValueCells(view, { kind: 'label', text: input.label.text, sheet: input.sheet.name }, context, label.label)
      } catch (error) {
        // That line is calculated too: the answer names the line the user meant.
        if (error instanceof PlanStop) stop(calculated)
        throw error
      }
    }
    stop(calculated)
  }
  const chosen = inputs.length > 0 ? inputs : cells.filter((cell) => cell.col >= range.left && cell.col <= range.right)
  return { sheet: found.sheet, range, described: described(found.sheet, range, label), label, cells: chosen }
}

const wordsOf = (text: string) => text.toLowerCase().split(/[^a-z0-9%]+/).filter((word) => word.length > 0 && !['the', 'a', 'an', 'of', 'on'].includes(word))

/**
 * The row label, on any sheet, that holds every word of the text with the fewest others ("exit
 * multiple" is "Exit EV/EBITDA multiple" before "Value on the exit multiple (1 = yes, 0 = no)"); none
 * when two are as close.
 */
function labelHoldingWords(view: WorkbookView, text: string, except?: RowLabel): { sheet: SheetView; label: RowLabel } | undefined {
  const words = wordsOf(text)
  if (words.length === 0) return undefined
  const found = view.sheets
    .flatMap((sheet) => sheet.labels.map((label) => ({ sheet, label, own: wordsOf(label.text) })))
    .filter((entry) => !(except && entry.label.row === except.row && entry.label.col === except.col && entry.label.text === except.text) && words.every((word) => entry.own.includes(word)))
    .sort((a, b) => a.own.length - b.own.length)
  return found.length > 0 && (found.length === 1 || found[1].own.length > found[0].own.length) ? found[0] : undefined
}

/**
 * The cells to put a value in for a column found by its header: its typed numbers (never its formulas,
 * which one value would replace by the dozen). A column of formulas gives way to the one row label that
 * holds every word ("set the exit multiple to 9x" is the input labelled "Exit EV/EBITDA multiple", not
 * the Exit multiple column of the valuation), else the plan stops and says which cell to name.
 */
function* columnValueCells(view: WorkbookView, found: FoundCells, target: Extract<TargetSpec, { kind: 'label' }>, context: PlanContext): Step<FoundCells & { cells: ReadCell[] }> {
  const cells = yield* readCells(found.sheet.name, found.range)
  const inputs = cells.filter((cell) => cell.formula === undefined && typeof cell.value === 'number')
  if (inputs.length > 0) return { ...found, cells: inputs }
  const line = labelHoldingWords(view, target.text)
  if (line) return yield* resolveValueCells(view, { kind: 'label', text: line.label.text, sheet: line.sheet.name }, context)
  const formulas = cells.filter((cell) => cell.formula !== undefined)
  stop(`I found no line labelled “${target.text}”, and ${found.described} holds ${formulas.length > 0 ? `${formulas.length} formula${formulas.length === 1 ? '' : 's'}` : 'no typed numbers'}, which I will not replace with one value. Name the input cell to change by its address.`)
}
