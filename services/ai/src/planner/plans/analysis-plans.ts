/**
 * Plans that read and explain, or build analysis: explain a formula (citing the cells it reads),
 * audit the workbook, and a WACC × terminal-growth sensitivity grid of formulas over the free cash
 * flow row.
 */
import type { AgentToolName } from '@finsheet/contracts'
import { parseFormulaText, type FormulaNode } from '@finsheet/formula'
import { columnToLetters, formatAddress, formatSheetPrefix, type RangeAddress } from '@finsheet/workbook'
import type { AggregateFunction, PlannerCommand, SensitivityAxis } from '../command-language.js'
import { prose, readAs } from '../answers.js'
import { stop, useTool, type PlanAnswer, type PlanContext, type Step } from '../plan-kit.js'
import { lineOfModel, rangeText, readCells, resolveTarget, type ReadCell } from '../targets.js'
import { absolute, walk } from '../formula-walk.js'
import { clean, lookOver, writeCells, type CellWrite } from '../tool-steps.js'
import { cellRange, refText, type SheetView, type WorkbookView } from '../workbook-view.js'

type Command<T extends PlannerCommand['type']> = Extract<PlannerCommand, { type: T }>

// ---- explain ------------------------------------------------------------------------------------

export function* planExplain(command: Command<'explain'>, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  const found = yield* resolveTarget(view, command.target, context)
  let cell = cellRange(found.range.top, found.range.left)
  if (found.label && !found.label.column) {
    // A labelled row: its first formula explains how the row is calculated.
    const cells = (yield* readCells(found.sheet.name, found.range)).filter((entry) => entry.col > found.label!.label.col)
    const chosen = cells.find((entry) => entry.formula !== undefined) ?? cells[0]
    if (!chosen) stop(`${found.described} is empty: there is nothing to explain.`)
    cell = cellRange(chosen.row, chosen.col)
  } else if (found.range.top !== found.range.bottom || found.range.left !== found.range.right) {
    const cells = yield* readCells(found.sheet.name, found.range)
    const chosen = cells.find((entry) => entry.formula !== undefined) ?? cells[0]
    if (!chosen) stop(`${found.described} is empty: there is nothing to explain.`)
    cell = cellRange(chosen.row, chosen.col)
  }
  const address = formatAddress(cell.top, cell.left)
  const where = `${refText(found.sheet.name, cell)}${found.label ? ` (${found.label.label.text}${found.label.column ? `, ${found.label.column.text}` : ''})` : ''}`
  const result = yield* useTool('explain_formula', { sheet: found.sheet.name, address })
  if (!result.ok) stop(`${readAs(`explain ${where}`)}\n\nI could not explain it: ${result.error}`)
  const content = result.content ?? {}
  const lines: string[] = [String(content.explanation ?? '')]
  const reads = (content.reads ?? []) as { ref: string; label?: string; value?: unknown; total?: unknown; cells?: number }[]
  if (reads.length > 0) {
    lines.push('', 'It reads:')
    for (const read of reads) {
      const value = 'value' in read ? ` = ${prose(read.value)}` : read.total !== undefined ? `, ${read.cells ?? ''} cells totalling ${prose(read.total)}` : ''
      lines.push(`- ${read.ref}${read.label ? ` (${read.label})` : ''}${value}`)
    }
  }
  const functions = (content.functions ?? []) as { name: string; description: string }[]
  if (functions.length > 0) lines.push('', `Functions: ${functions.map((fn) => `${fn.name} (${fn.description})`).join('; ')}`)
  if (content.pattern) lines.push('', String(content.pattern))
  return { text: readAs(`explain ${where}`, lines.join('\n').trim()) }
}

// ---- audit --------------------------------------------------------------------------------------

interface Finding {
  severity: 'high' | 'medium' | 'low'
  cells: string
  problem: string
  fix: string
}

const SEVERITY_ORDER = { high: 0, medium: 1, low: 2 }
/** Sheets an audit reads cell by cell at most (the overview covers the rest). */
const MAX_AUDITED_SHEETS = 6
/** Findings of one kind listed; the rest are counted. */
const MAX_FINDINGS_PER_KIND = 8

interface FormulaCell extends ReadCell {
  tree?: FormulaNode
  shape?: string
}

/** Rule-based checks over the cells of one sheet. */
function auditSheet(sheet: SheetView, cells: ReadCell[], complete: boolean, findings: Finding[][]): void {
  const [errors, hardcoded, patterns, empties, totals] = findings
  const at = new Map<string, FormulaCell>()
  for (const cell of cells) at.set(cell.address, cell)
  const formulas: FormulaCell[] = []
  for (const cell of cells) {
    if (typeof cell.value === 'string' && /^#[A-Z0-9/]+[!?]?$/.test(cell.value) && cell.formula !== undefined) {
      errors.push({ severity: 'high', cells: `${sheet.name}!${cell.address}`, problem: `shows ${cell.value}${cell.value === '#CIRC!' ? ' (a circular reference)' : ''}`, fix: 'trace its precedents (explain it) and correct the reference or input that fails' })
    }
    if (cell.formula === undefined) continue
    const formula: FormulaCell = { ...cell }
    try {
      formula.tree = parseFormulaText(cell.formula, cell.address)
      formula.shape = JSON.stringify(formula.tree)
    } catch {
      continue
    }
    formulas.push(formula)
    at.set(cell.address, formula)
  }
  for (const cell of formulas) {
    const tree = cell.tree as FormulaNode
    const constants: number[] = []
    walk(tree, (node) => {
      if (node.type === 'number' && node.value !== 0 && node.value !== 1) constants.push(node.value)
      if (node.type === 'cell' && node.sheet === undefined && complete) {
        const target = absolute(node.ref, cell.row, cell.col)
        if (!at.has(formatAddress(target.row, target.col))) {
          empties.push({ severity: 'medium', cells: `${sheet.name}!${cell.address}`, problem: `reads ${formatAddress(target.row, target.col)}, which is empty`, fix: 'point it at the intended cell or fill in the input' })
        }
      }
    })
    if (constants.length > 0) {
      hardcoded.push({ severity: 'low', cells: `${sheet.name}!${cell.address}`, problem: `has ${constants.map((value) => prose(value)).join(', ')} typed inside ${cell.formula}`, fix: 'move the number to a labelled input cell and reference it' })
    }
    // A formula that differs from identical neighbours on both sides breaks its row's or column's pattern.
    const shape = (row: number, col: number) => (row < 0 || col < 0 ? undefined : (at.get(formatAddress(row, col)) as FormulaCell | undefined)?.shape)
    const left = shape(cell.row, cell.col - 1)
    const right = shape(cell.row, cell.col + 1)
    const above = shape(cell.row - 1, cell.col)
    const below = shape(cell.row + 1, cell.col)
    if ((left !== undefined && left === right && left !== cell.shape) || (above !== undefined && above === below && above !== cell.shape)) {
      patterns.push({ severity: 'medium', cells: `${sheet.name}!${cell.address}`, problem: `${cell.formula} differs from the formulas ${left === right && left !== undefined ? 'beside it in its row' : 'above and below it'}`, fix: 'fill the neighbouring formula over it, unless the difference is meant' })
    }
    // A SUM of the block right above it that stops short of the row above the total.
    if (tree.type === 'call' && tree.name.toUpperCase() === 'SUM' && tree.args.length === 1 && tree.args[0].type === 'range' && tree.args[0].sheet === undefined) {
      const range = tree.args[0]
      const start = absolute(range.start, cell.row, cell.col)
      const end = absolute(range.end, cell.row, cell.col)
      if (start.col === end.col && start.col === cell.col && end.row < cell.row - 1) {
        const missed: string[] = []
        for (let row = end.row + 1; row < cell.row; row++) {
          const between = at.get(formatAddress(row, cell.col))
          if (between && typeof between.value === 'number') missed.push(formatAddress(row, cell.col))
        }
        if (missed.length > 0) totals.push({ severity: 'high', cells: `${sheet.name}!${cell.address}`, problem: `${cell.formula} leaves out ${missed.join(', ')} just above it`, fix: `extend the range to ${formatAddress(cell.row - 1, cell.col)}` })
      }
    }
  }
}

export function* planAudit(context: PlanContext): Step<PlanAnswer> {
  if (context.tools.has('audit_workbook')) {
    const result = yield* useTool('audit_workbook' as AgentToolName, {})
    if (!result.ok) stop(`${readAs('audit the workbook')}\n\nThe audit did not run: ${result.error}`)
    const listed = (result.content?.findings ?? []) as { severity?: string; cells?: unknown; message?: string; problem?: string; fix?: string }[]
    const lines = listed.map((finding) => `- ${finding.severity ? `[${finding.severity}] ` : ''}${Array.isArray(finding.cells) ? finding.cells.join(', ') : (finding.cells ?? '')}: ${finding.message ?? finding.problem ?? ''}${finding.fix ? ` Fix: ${finding.fix}` : ''}`)
    return { text: readAs('audit the workbook', lines.length > 0 ? lines.join('\n') : 'The audit found nothing to fix.') }
  }
  const view = yield* lookOver()
  const findings: Finding[][] = [[], [], [], [], []]
  const audited = view.sheets.filter((sheet) => sheet.used && sheet.formulas > 0).slice(0, MAX_AUDITED_SHEETS)
  for (const sheet of audited) {
    const cells = yield* readCells(sheet.name, sheet.used as RangeAddress)
    auditSheet(sheet, cells, cells.length >= sheet.cells, findings)
  }
  // Error cells the overview saw on sheets not read cell by cell.
  for (const sheet of view.sheets.filter((candidate) => !audited.includes(candidate))) {
    for (const error of sheet.errors) findings[0].push({ severity: 'high', cells: `${sheet.name}!${error.address}`, problem: `shows ${error.value}`, fix: 'trace its precedents and correct the failing reference or input' })
  }
  const kinds = ['Error cells', 'Numbers typed inside formulas', 'Formulas that break their pattern', 'References to empty cells', 'Totals that miss rows']
  const sections: string[] = []
  let total = 0
  findings.forEach((list, index) => {
    if (list.length === 0) return
    total += list.length
    const sorted = [...list].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity])
    sections.push(`**${kinds[index]}** (${list.length}):`)
    for (const finding of sorted.slice(0, MAX_FINDINGS_PER_KIND)) sections.push(`- [${finding.severity}] ${finding.cells} ${finding.problem}. Fix: ${finding.fix}.`)
    if (list.length > MAX_FINDINGS_PER_KIND) sections.push(`- and ${list.length - MAX_FINDINGS_PER_KIND} more`)
  })
  const scope = `${audited.length} sheet${audited.length === 1 ? '' : 's'} with formulas read cell by cell (${audited.map((sheet) => sheet.name).join(', ') || 'none'})`
  const note = 'These are read-only checks made through the workbook tools (no audit tool is offered here): error cells, numbers typed inside formulas, formulas that break the pattern of their row or column, references to empty cells on the same sheet, and totals that miss rows just above them. Nothing was changed.'
  const summary = total === 0 ? `No problems found on ${scope}.` : `${total} finding${total === 1 ? '' : 's'} on ${scope}:\n\n${sections.join('\n')}`
  return { text: readAs('audit the workbook', `${summary}\n\n${note}`) }
}

// ---- sensitivity --------------------------------------------------------------------------------

const FREE_CASH_FLOW_LABELS = ['unlevered free cash flow', 'free cash flow', 'fcf']
const TERMINAL_GROWTH_LABELS = ['terminal growth rate', 'terminal growth', 'perpetual growth']
const WACC_LABELS = ['wacc', 'discount rate', 'weighted average cost of capital']

/** The first number of the first line one of the labels finds (the model's WACC or terminal growth). */
function* modelRate(view: WorkbookView, labels: readonly string[], context: PlanContext): Step<number | undefined> {
  for (const text of labels) {
    const match = view.matchLabel(text, undefined, context.activeSheet)
    if (!match) continue
    const cells = (yield* readCells(match.sheet.name, { top: match.label.row, bottom: match.label.row, left: match.label.col + 1, right: Math.max(match.sheet.used?.right ?? 0, match.label.col + 1) })).filter((cell) => typeof cell.value === 'number')
    if (cells.length > 0) return cells[0].value as number
    return undefined
  }
  return undefined
}
/** Values on one axis of a grid at most. */
const MAX_AXIS_POINTS = 11

/** The values of an axis: from its start to its end in its steps (five values when no step is given). */
function axisValues(axis: SensitivityAxis): number[] {
  const from = Math.min(axis.from, axis.to)
  const to = Math.max(axis.from, axis.to)
  const step = axis.step && axis.step > 0 ? axis.step : (to - from) / 4 || 0.01
  const values: number[] = []
  for (let value = from; value <= to + 1e-9 && values.length < MAX_AXIS_POINTS; value += step) values.push(Number(value.toFixed(6)))
  return values
}

const percentText = (value: number) => `${clean(value * 100)}%`

function* freeCashFlowRow(view: WorkbookView, context: PlanContext): Step<{ sheet: SheetView; cells: ReadCell[]; label: string }> {
  for (const text of FREE_CASH_FLOW_LABELS) {
    const found = view.matchLabel(text, undefined, context.activeSheet)
    if (!found || found.column) continue
    const match = yield* lineOfModel(view, found, text)
    const row: RangeAddress = { top: match.label.row, bottom: match.label.row, left: match.label.col + 1, right: Math.max(match.sheet.used?.right ?? 0, match.label.col + 1) }
    const cells = (yield* readCells(match.sheet.name, row)).filter((cell) => typeof cell.value === 'number')
    if (cells.length > 0) return { sheet: match.sheet, cells, label: match.label.text }
  }
  stop(`A WACC × terminal growth grid values the free cash flows, and I found no row labelled “Free cash flow” with numbers. The row labels I see are: ${view.labelList()}.`)
}

export function* planSensitivity(command: Command<'sensitivity'>, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  let wacc = command.axes.find((axis) => axis.name === 'wacc')
  let growth = command.axes.find((axis) => axis.name === 'growth')
  if (!wacc && command.axes.length > 0) stop('A sensitivity grid needs a WACC (discount rate) range, such as “WACC 8% to 12% against terminal growth 1% to 3%”.')
  const flows = yield* freeCashFlowRow(view, context)
  if (!wacc) {
    // Named without ranges: around the model's own WACC, two points either way.
    const base = yield* modelRate(view, WACC_LABELS, context)
    if (base === undefined) stop('I found no WACC in the model to centre the grid on; give its range, such as “WACC 8% to 12% against terminal growth 1% to 3%”.')
    wacc = { name: 'wacc', from: base - 0.02, to: base + 0.02, step: 0.01 }
  }
  if (!growth) {
    // Around the model's own terminal growth, else 1% to 3%.
    const base = (yield* modelRate(view, TERMINAL_GROWTH_LABELS, context)) ?? 0.02
    growth = { name: 'growth', from: base - 0.01, to: base + 0.01, step: 0.005 }
  }
  const waccs = axisValues(wacc)
  const growths = axisValues(growth)
  if (waccs.some((rate) => growths.some((g) => rate <= g))) stop(`Every WACC must be above every terminal growth rate for the Gordon growth formula; ${percentText(Math.min(...waccs))} is not above ${percentText(Math.max(...growths))}.`)
  let name = 'Sensitivity'
  for (let index = 2; view.findSheet(name)?.name.toLowerCase() === name.toLowerCase(); index++) name = `Sensitivity ${index}`
  const first = flows.cells[0]
  const last = flows.cells[flows.cells.length - 1]
  const flowsRef = `${formatSheetPrefix(flows.sheet.name)}!$${columnToLetters(first.col)}$${first.row + 1}:$${columnToLetters(last.col)}$${last.row + 1}`
  const lastRef = `${formatSheetPrefix(flows.sheet.name)}!$${columnToLetters(last.col)}$${last.row + 1}`
  const writes: CellWrite[] = [
    { address: 'A1', input: 'Enterprise value sensitivity: WACC (down) × terminal growth (across)' },
    { address: 'A2', input: `Free cash flows from ${refText(flows.sheet.name, { top: first.row, bottom: last.row, left: first.col, right: last.col })}, discounted at year end, with a Gordon growth terminal value on the last year` },
    { address: 'A3', input: 'WACC \\ g' },
  ]
  growths.forEach((g, index) => writes.push({ address: formatAddress(2, index + 1), input: percentText(g) }))
  waccs.forEach((rate, row) => {
    writes.push({ address: formatAddress(row + 3, 0), input: percentText(rate) })
    growths.forEach((_, col) => {
      const w = `$A${row + 4}`
      const g = `${columnToLetters(col + 1)}$3`
      writes.push({ address: formatAddress(row + 3, col + 1), input: `=NPV(${w},${flowsRef})+${lastRef}*(1+${g})/(${w}-${g})/(1+${w})^COLUMNS(${flowsRef})` })
    })
  })
  const grid = { top: 3, left: 1, bottom: 3 + waccs.length - 1, right: growths.length }
  const paraphrase = `a sensitivity grid of enterprise value on a new sheet “${name}”: WACC ${waccs.map(percentText).join(', ')} down, terminal growth ${growths.map(percentText).join(', ')} across, each cell a formula over ${flows.label} (${refText(flows.sheet.name, { top: first.row, bottom: last.row, left: first.col, right: last.col })})`
  const added = yield* useTool('modify_structure', { action: 'add_sheet', name })
  if (!added.ok) stop(`${readAs(paraphrase)}\n\nThe sheet could not be added: ${added.error}`)
  const result = yield* writeCells(name, writes, 'the sensitivity grid')
  yield* useTool('format_range', { sheet: name, range: rangeText(grid), numberFormat: '#,##0.0' })
  const corner = (result.content?.written ?? {})[`${formatSheetPrefix(name)}!${formatAddress(grid.top, grid.left)}`] as { value?: unknown } | undefined
  return { text: readAs(paraphrase, `The grid is in ${refText(name, grid)}${corner?.value !== undefined ? `; at WACC ${percentText(waccs[0])} and growth ${percentText(growths[0])} the enterprise value is ${typeof corner.value === 'number' ? corner.value.toLocaleString('en-US', { maximumFractionDigits: 2 }) : prose(corner.value)}` : ''}. Change a WACC or growth heading and its row or column recalculates.`) }
}


const AGGREGATE_WORDS: Record<AggregateFunction, string> = { SUM: 'total', AVERAGE: 'average', MAX: 'largest', MIN: 'smallest', COUNT: 'count of numbers', MEDIAN: 'median' }

function aggregateOf(fn: AggregateFunction, numbers: readonly number[]): number {
  switch (fn) {
    case 'SUM':
      return numbers.reduce((sum, n) => sum + n, 0)
    case 'AVERAGE':
      return numbers.reduce((sum, n) => sum + n, 0) / numbers.length
    case 'MAX':
      return Math.max(...numbers)
    case 'MIN':
      return Math.min(...numbers)
    case 'COUNT':
      return numbers.length
    case 'MEDIAN': {
      const sorted = [...numbers].sort((a, b) => a - b)
      const middle = sorted.length >> 1
      return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
  }
}

/** A question answered from the cells it names ("what is the enterprise value?"): their values, or one aggregate, nothing written. */
export function* planRead(command: Command<'read'>, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  const found = yield* resolveTarget(view, command.target, context)
  // A labelled row is read right of its label.
  const range = found.label && !found.label.column ? { ...found.range, left: found.label.label.col + 1 } : found.range
  const cells = (yield* readCells(found.sheet.name, range)).filter((cell) => cell.value !== null && cell.value !== '')
  const asked = command.fn ? `the ${AGGREGATE_WORDS[command.fn]} of ${found.described}` : found.described
  if (cells.length === 0) return { text: readAs(`read ${asked}`, `${refText(found.sheet.name, range)} is empty. Nothing was changed.`) }
  if (command.fn) {
    const numbers = cells.map((cell) => cell.value).filter((value): value is number => typeof value === 'number')
    if (numbers.length === 0) stop(`${found.described} holds no numbers to take the ${AGGREGATE_WORDS[command.fn]} of.`)
    const result = aggregateOf(command.fn, numbers)
    return { text: readAs(`read ${asked}`, `It is ${prose(result)}, over ${numbers.length} number${numbers.length === 1 ? '' : 's'} in ${refText(found.sheet.name, range)}. Nothing was changed.`) }
  }
  if (cells.length === 1) {
    const [cell] = cells
    const name = found.label ? `${found.label.label.text}${found.label.column ? `, ${found.label.column.text}` : ''} ` : ''
    return { text: readAs(`read ${asked}`, `${name}(${refText(found.sheet.name, cellRange(cell.row, cell.col))}) = ${cell.shown ?? prose(cell.value)}. Nothing was changed.`) }
  }
  // Each value under the header of its column, where the sheet has one above.
  const header = found.sheet.headerRows.filter((row) => row.row < range.top).pop()
  const named = (cell: ReadCell) => header?.cells.find((headerCell) => headerCell.col === cell.col)?.text ?? cell.address
  const shown = cells.slice(0, 12).map((cell) => `${named(cell)}: ${cell.shown ?? prose(cell.value)}`)
  return { text: readAs(`read ${asked}`, `${shown.join(' · ')}${cells.length > 12 ? ` and ${cells.length - 12} more` : ''}. Nothing was changed.`) }
}
