/**
 * Lines the planner builds: a row calculated from other rows, column by column ("add a row Gross
 * profit = revenue - costs", "put revenue minus costs in row 4", "set margin to gross profit /
 * revenue"), or one cell from others ("B5 = B2 - B3"); and a projected line from nothing ("create a
 * 5 year revenue projection growing 10% a year starting at 1000"). Rows are named by their labels;
 * each column of the first row named that holds numbers gets a formula reading the same column of
 * every row named, and a cell named by address is read the same in every column.
 */
import { columnToLetters, formatAddress, formatSheetPrefix, type RangeAddress } from '@finsheet/workbook'
import type { DeriveTerm, PlannerCommand } from '../command-language.js'
import { readAs, writeOutcome } from '../answers.js'
import { stop, useTool, type PlanAnswer, type PlanContext, type Step } from '../plan-kit.js'
import { rangeText, readCells, resolveTarget } from '../targets.js'
import { clean, lookOver, writeCells, type CellWrite } from '../tool-steps.js'
import { cellRange, refText, type SheetView, type WorkbookView } from '../workbook-view.js'

type Command<T extends PlannerCommand['type']> = Extract<PlannerCommand, { type: T }>

/** What a term reads: a number as typed, a row (its cell in each column), one cell, or terms in parentheses. */
type Operand =
  | { kind: 'number'; input: string }
  | { kind: 'row'; sheet: SheetView; row: number; text: string }
  | { kind: 'cell'; sheet: SheetView; row: number; col: number }
  | { kind: 'group'; terms: readonly DeriveTerm[]; operands: Operand[] }

function* operandOf(view: WorkbookView, term: DeriveTerm, context: PlanContext): Step<Operand> {
  if (term.operand.kind === 'number') return term.operand
  if (term.operand.kind === 'group') {
    const operands: Operand[] = []
    for (const inner of term.operand.terms) operands.push(yield* operandOf(view, inner, context))
    return { kind: 'group', terms: term.operand.terms, operands }
  }
  const target = term.operand.target
  if (target.kind !== 'label' && target.kind !== 'address') stop('I calculate rows from other rows named by their labels (“revenue minus costs”) and from cells named by address (B4), not from ranges.')
  const found = yield* resolveTarget(view, target, context)
  if (found.label && !found.label.column) return { kind: 'row', sheet: found.sheet, row: found.label.label.row, text: found.label.label.text }
  return { kind: 'cell', sheet: found.sheet, row: found.range.top, col: found.range.left }
}

/** The expression of one cell: each row read in `col`, each cell as it is (absolute when the formula is written along a row). */
function expressionFor(terms: readonly DeriveTerm[], operands: readonly Operand[], target: SheetView, col: number, alongRow: boolean): string {
  const prefix = (sheet: SheetView) => (sheet === target ? '' : `${formatSheetPrefix(sheet.name)}!`)
  const parts = operands.map((operand, index) => {
    const op = terms[index].op ?? ''
    if (operand.kind === 'number') return op + operand.input
    if (operand.kind === 'group') return `${op}(${expressionFor(operand.terms, operand.operands, target, col, alongRow)})`
    if (operand.kind === 'row') return op + prefix(operand.sheet) + formatAddress(operand.row, col)
    const address = alongRow ? `$${columnToLetters(operand.col)}$${operand.row + 1}` : formatAddress(operand.row, operand.col)
    return op + prefix(operand.sheet) + address
  })
  return parts.join('')
}

const formulaFor = (terms: readonly DeriveTerm[], operands: readonly Operand[], target: SheetView, col: number, alongRow: boolean) => `=${expressionFor(terms, operands, target, col, alongRow)}`

/** The expression as the user would read it back: “(Revenue − Costs) ÷ Revenue”. */
function expressionText(terms: readonly DeriveTerm[], operands: readonly Operand[]): string {
  const symbols = { '+': ' + ', '-': ' − ', '*': ' × ', '/': ' ÷ ' }
  return operands
    .map((operand, index) => {
      const op = terms[index].op
      const words =
        operand.kind === 'number' ? operand.input : operand.kind === 'group' ? `(${expressionText(operand.terms, operand.operands)})` : operand.kind === 'row' ? operand.text : refText(operand.sheet.name, cellRange(operand.row, operand.col))
      return (op ? symbols[op] : '') + words
    })
    .join('')
}

/** Every row an expression reads, in order, inside parentheses too. */
function rowsOf(operands: readonly Operand[]): Extract<Operand, { kind: 'row' }>[] {
  return operands.flatMap((operand) => (operand.kind === 'row' ? [operand] : operand.kind === 'group' ? rowsOf(operand.operands) : []))
}

/** Whether the expression reads the cell it would be written to, in `col` (a formula cannot read itself). */
function readsItself(operands: readonly Operand[], sheet: SheetView, row: number, col: number): boolean {
  return operands.some((operand) =>
    operand.kind === 'group' ? readsItself(operand.operands, sheet, row, col) : (operand.kind === 'row' && operand.sheet === sheet && operand.row === row) || (operand.kind === 'cell' && operand.sheet === sheet && operand.row === row && operand.col === col),
  )
}

export function* planDerive(command: Command<'derive'>, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  // Rows and cells named without a sheet are looked for on the sheet written to first ("set Model!B8 to B2 - B3").
  const home = command.at !== undefined && 'sheet' in command.at && command.at.sheet !== undefined ? { ...context, activeSheet: command.at.sheet } : context
  const operands: Operand[] = []
  for (const term of command.terms) operands.push(yield* operandOf(view, term, home))
  const expression = expressionText(command.terms, operands)

  // One cell named by address: one formula.
  if (command.at?.kind === 'address') {
    const found = yield* resolveTarget(view, command.at, context)
    // A row is read in the cell's own column ("B8 = revenue - costs" reads B2 and B3): not where its label is.
    const labelled = rowsOf(operands).find((operand) => found.range.left <= (operand.sheet.labelColumn ?? 0))
    if (labelled) stop(`${found.described} is in the column of the row labels, so ${expression} has no numbers to read there. To write it as text, put it in quotes: “set ${formatAddress(found.range.top, found.range.left)} to "${expression}"”.`)
    if (readsItself(operands, found.sheet, found.range.top, found.range.left)) stop(`${expression} reads ${found.described} itself: a cell cannot be calculated from itself.`)
    const formula = formulaFor(command.terms, operands, found.sheet, found.range.left, false)
    const result = yield* writeCells(found.sheet.name, [{ address: formatAddress(found.range.top, found.range.left), input: formula }], found.described)
    return { text: readAs(`set ${found.described} to ${expression}: ${formula}`, writeOutcome(result)) }
  }

  const rows = rowsOf(operands)
  if (rows.length === 0) stop(`To calculate a row I need rows named by their labels (“revenue minus costs”); ${expression} names none.`)
  const first = rows[0]

  // The row written: one named by number or label, else a new one under the sheet's used cells.
  let sheet: SheetView
  let row: number
  let labelCol: number
  let isNew = false
  if (command.at?.kind === 'rows') {
    sheet = view.sheetFor(command.at.sheet, context.activeSheet)
    row = command.at.from - 1
    labelCol = sheet.labelColumn ?? 0
  } else if (command.at?.kind === 'label') {
    const found = yield* resolveTarget(view, command.at, context)
    if (!found.label) stop(`I could not find the row for ${found.described}.`)
    sheet = found.sheet
    row = found.label.label.row
    labelCol = found.label.label.col
  } else if (command.at === undefined) {
    sheet = first.sheet
    row = (sheet.used?.bottom ?? first.row) + 1
    labelCol = sheet.labelColumn ?? 0
    isNew = true
  } else stop('I write a calculated row into a row named by its number or its label, or as a new row under the table.')

  // The columns: those where the first row named holds a number or a formula.
  const used = first.sheet.used
  const read = yield* readCells(first.sheet.name, { top: first.row, bottom: first.row, left: 0, right: used ? used.right : 0 })
  const columns = read.filter((cell) => cell.col > labelCol && (typeof cell.value === 'number' || cell.formula !== undefined)).map((cell) => cell.col)
  if (columns.length === 0) stop(`${first.text} on ${first.sheet.name} holds no numbers to calculate from.`)

  if (columns.some((col) => readsItself(operands, sheet, row, col))) stop(`${expression} reads row ${row + 1} of ${sheet.name} itself: a row cannot be calculated from itself.`)
  const writes: CellWrite[] = []
  const name = command.label ?? (command.at?.kind === 'label' ? undefined : expression)
  // A row named by number keeps the label it has.
  const labelled = sheet.labels.some((label) => label.row === row && label.col === labelCol)
  if (name !== undefined && (isNew || (command.at?.kind === 'rows' && !labelled))) writes.push({ address: formatAddress(row, labelCol), input: name })
  for (const col of columns) writes.push({ address: formatAddress(row, col), input: formulaFor(command.terms, operands, sheet, col, true) })
  const span = refText(sheet.name, { top: row, bottom: row, left: columns[0], right: columns[columns.length - 1] })
  const what = isNew ? `add the row “${name}” (${expression}) as row ${row + 1} of ${sheet.name}` : `set ${command.at?.kind === 'label' ? `the row ${refText(sheet.name, cellRange(row, labelCol))}` : `row ${row + 1} of ${sheet.name}`} to ${expression}`
  const result = yield* writeCells(sheet.name, writes, span)
  if (command.percent) yield* showAsPercent(sheet.name, { top: row, bottom: row, left: columns[0], right: columns[columns.length - 1] })
  return { text: readAs(`${what}: ${writes.find((write) => String(write.input).startsWith('='))?.input} in ${formatAddress(row, columns[0])}, and so on across ${span}${command.percent ? ', shown as percentages' : ''}`, writeOutcome(result)) }
}

/** Ratios shown as percentages with one decimal, as margins and growth rates are read. */
function* showAsPercent(sheet: string, range: RangeAddress): Step<void> {
  const formatted = yield* useTool('format_range', { sheet, range: rangeText(range), numberFormat: '0.0%' })
  if (!formatted.ok) stop(`I wrote the row but could not show it as percentages: ${formatted.error}`)
}

/** A row of growth over the period before ("Revenue growth": =C2/B2-1 and so on) under the line's table. */
export function* planGrowthRow(command: Command<'growth_row'>, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  const found = yield* resolveTarget(view, command.line, context)
  if (!found.label || found.label.column) stop(`Growth is worked out for a labelled line, such as “add a revenue growth row”; ${found.described} is not one.`)
  const { sheet } = found
  const line = found.label.label
  const read = yield* readCells(sheet.name, found.range)
  const columns = read.filter((cell) => cell.col > line.col && (typeof cell.value === 'number' || cell.formula !== undefined)).map((cell) => cell.col).sort((a, b) => a - b)
  if (columns.length < 2) stop(`${line.text} on ${sheet.name} has fewer than two periods of numbers to grow between.`)
  const row = (sheet.used?.bottom ?? line.row) + 1
  const label = `${line.text} growth`
  const writes: CellWrite[] = [{ address: formatAddress(row, line.col), input: label }]
  for (let index = 1; index < columns.length; index++) {
    writes.push({ address: formatAddress(row, columns[index]), input: `=${formatAddress(line.row, columns[index])}/${formatAddress(line.row, columns[index - 1])}-1` })
  }
  const span = { top: row, bottom: row, left: columns[1], right: columns[columns.length - 1] }
  const result = yield* writeCells(sheet.name, writes, refText(sheet.name, span))
  yield* showAsPercent(sheet.name, span)
  const paraphrase = `add the row “${label}” as row ${row + 1} of ${sheet.name}: each period's ${line.text} over the one before, less 1 (${writes[1].input} in ${writes[1].address}, and so on across ${refText(sheet.name, span)}), shown as percentages; the first period has none before it`
  return { text: readAs(paraphrase, writeOutcome(result)) }
}

/**
 * A projected line set up under what the sheet holds (a blank row between): the years across, the
 * line from its first value, each year the one before grown by the rate, which sits in a row of its
 * own beneath as an input to change.
 */
export function* planProject(command: Command<'project'>, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  const sheet = view.sheetFor(undefined, context.activeSheet)
  const labelCol = sheet.labelColumn ?? sheet.used?.left ?? 0
  const top = sheet.used ? sheet.used.bottom + 2 : 0
  const label = command.label.charAt(0).toUpperCase() + command.label.slice(1)
  const rateCell = `$${columnToLetters(labelCol + 1)}$${top + 3}`
  const percent = `${clean(command.rate * 100)}%`
  // The line first, so that the answer shows it: then the years above it and the growth below.
  const line: CellWrite[] = [{ address: formatAddress(top + 1, labelCol), input: label }]
  const years: CellWrite[] = []
  for (let period = 0; period < command.periods; period++) {
    const col = labelCol + 1 + period
    years.push({ address: formatAddress(top, col), input: command.firstYear !== undefined ? command.firstYear + period : `Year ${period + 1}` })
    line.push({ address: formatAddress(top + 1, col), input: period === 0 ? command.start.input : `=${formatAddress(top + 1, col - 1)}*(1+${rateCell})` })
  }
  const growth: CellWrite[] = [
    { address: formatAddress(top + 2, labelCol), input: `${label} growth` },
    { address: formatAddress(top + 2, labelCol + 1), input: percent },
  ]
  const writes = [...line, ...years, ...growth]
  const last = labelCol + command.periods
  const span = command.firstYear !== undefined ? `${command.firstYear} to ${command.firstYear + command.periods - 1}` : `Year 1 to Year ${command.periods}`
  const paraphrase = `set up a ${command.periods}-year ${label} projection on ${sheet.name}: ${span} in ${refText(sheet.name, { top, bottom: top, left: labelCol + 1, right: last })}, ${label} in row ${top + 2} from ${command.start.kind === 'number' ? command.start.shown : command.start.input}, each year the one before × (1 + the growth in ${refText(sheet.name, cellRange(top + 2, labelCol + 1))}, ${percent})`
  const result = yield* writeCells(sheet.name, writes, `the ${label} projection`)
  return { text: readAs(paraphrase, writeOutcome(result)) }
}
