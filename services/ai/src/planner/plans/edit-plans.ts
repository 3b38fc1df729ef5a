/**
 * Plans that write cells: set a value or formula, adjust by an amount, clear, fill, totals and
 * growth. Each looks over the workbook, finds the cells the command names (reading them where it
 * must), writes through write_cells or fill_formula, and says what it understood and what happened.
 */
import { parseCellInput } from '@finsheet/formula'
import { columnToLetters, formatAddress, formatSheetPrefix, labelSimilarity, lettersToColumn, tryParseAddress, type RangeAddress } from '@finsheet/workbook'
import type { AggregateFunction, PeriodBound, PlannerCommand, TargetSpec } from '../command-language.js'
import { prose, readAs, valueText, writeOutcome } from '../answers.js'
import { stop, useTool, type PlanAnswer, type PlanContext, type Step } from '../plan-kit.js'
import { rangeText, readCells, resolveTarget, resolveValueCells, type ReadCell } from '../targets.js'
import { addressesOf, clean, formulaAt, lookOver, useToolOrStop, writeCells, type CellWrite } from '../tool-steps.js'
import { cellRange, refText, type SheetView, type WorkbookView } from '../workbook-view.js'

type Command<T extends PlannerCommand['type']> = Extract<PlannerCommand, { type: T }>

/**
 * "set Summary!B2 to the enterprise value": words that name a line holding one value, put in a cell of
 * a value column, are a link to that value (=Valuation!B1), not its name typed as text. In the label
 * column, or where no such line matches closely, they stay text ("set A10 to WACC" writes a label).
 */
function* linkedValue(view: WorkbookView, command: Command<'set'>, context: PlanContext): Step<{ formula: string; line: string } | undefined> {
  if (command.value.kind !== 'text' || !command.value.words || command.target.kind !== 'address') return undefined
  const sheet = view.sheetFor(command.target.sheet, context.activeSheet)
  const at = tryParseAddress(command.target.address)
  if (!at || sheet.labelColumn === null || at.col <= sheet.labelColumn) return undefined
  const words = command.value.input.replace(/^(the|our)\s+/i, '').trim()
  const match = view.matchLabel(words, undefined, context.activeSheet)
  if (!match || match.column || match.score < 0.9) return undefined
  const cells = (yield* readCells(match.sheet.name, { top: match.label.row, bottom: match.label.row, left: match.label.col + 1, right: Math.max(match.sheet.used?.right ?? 0, match.label.col + 1) })).filter((cell) => typeof cell.value === 'number')
  if (cells.length !== 1) return undefined
  const reference = match.sheet === sheet ? cells[0].address : `${formatSheetPrefix(match.sheet.name)}!${cells[0].address}`
  return { formula: `=${reference}`, line: `${match.label.text} (${refText(match.sheet.name, cellRange(cells[0].row, cells[0].col))})` }
}

export function* planSet(command: Command<'set'>, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  const link = yield* linkedValue(view, command, context)
  if (link) {
    const found = yield* resolveTarget(view, command.target, context)
    const result = yield* writeCells(found.sheet.name, [{ address: formatAddress(found.range.top, found.range.left), input: link.formula }], found.described)
    return { text: readAs(`set ${found.described} to ${link.line}: ${link.formula}, so it follows that value`, writeOutcome(result)) }
  }
  const found = yield* resolveValueCells(view, command.target, context)
  const addresses = found.cells.length > 0 && (found.label || found.byHeader) ? found.cells.map((cell) => cell.address) : addressesOf(found.range)
  const first = addresses[0]
  const value = command.value
  const cells: CellWrite[] = addresses.map((address) => ({ address, input: value.kind === 'formula' ? formulaAt(value.input, first, address) : value.input }))
  const paraphrase = `set ${found.described} to ${valueText(value)}${addresses.length > 1 && value.kind === 'formula' ? ' (references shifting with each cell, as a fill does)' : ''}`
  const result = yield* writeCells(found.sheet.name, cells, found.described)
  // A calculated line set to a typed value stops following its inputs: say so.
  const replaced = value.kind === 'formula' ? [] : found.cells.filter((cell) => cell.formula !== undefined && addresses.includes(cell.address))
  const note = replaced.length > 0 ? ` ${replaced.map((cell) => `${cell.address} held the formula ${cell.formula}`).join(', ')}; it now holds the value typed, so it no longer follows its inputs.` : ''
  return { text: readAs(paraphrase, writeOutcome(result) + note) }
}

export function* planAdjust(command: Command<'adjust'>, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  const found = yield* resolveValueCells(view, command.target, context)
  const cells = found.cells.length > 0 ? found.cells : yield* readCells(found.sheet.name, found.range)
  const numbers = cells.filter((cell) => typeof cell.value === 'number' && cell.formula === undefined)
  if (numbers.length === 0) stop(`${found.described} holds no typed number to ${command.direction === 'up' ? 'increase' : 'decrease'}${cells.some((cell) => cell.formula) ? ' (it is calculated by a formula)' : ''}.`)
  const sign = command.direction === 'up' ? 1 : -1
  const next = (value: number) => clean(command.unit === 'percent' ? value * (1 + sign * command.amount) : value + sign * command.amount)
  const amount = command.unit === 'percent' ? `${prose(command.amount * 100)}%` : command.unit === 'points' ? `${prose(command.amount * 100)} percentage points` : prose(command.amount)
  const paraphrase = `${command.direction === 'up' ? 'increase' : 'decrease'} ${found.described} by ${amount} (${numbers.map((cell) => `${cell.address} ${prose(cell.value)} → ${prose(next(cell.value as number))}`).join(', ')})`
  const result = yield* writeCells(found.sheet.name, numbers.map((cell) => ({ address: cell.address, input: next(cell.value as number) })), found.described)
  return { text: readAs(paraphrase, writeOutcome(result)) }
}

export function* planClear(command: Command<'clear'>, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  const found = yield* resolveTarget(view, command.target, context)
  const filled = yield* readCells(found.sheet.name, found.range)
  const paraphrase = `clear ${found.described}`
  if (filled.length === 0) return { text: readAs(paraphrase, 'Those cells are already empty; nothing was changed.') }
  const result = yield* writeCells(found.sheet.name, filled.map((cell) => ({ address: cell.address, input: '' })), found.described)
  const errors = (result.content?.newErrors ?? []) as string[]
  return { text: readAs(paraphrase, `Cleared ${filled.length} cell${filled.length === 1 ? '' : 's'}.${errors.length > 0 ? ` Watch out: ${errors.slice(0, 5).join(', ')} now show an error.` : ''}`) }
}

// ---- move ---------------------------------------------------------------------------------------

export function* planMove(command: Command<'move'>, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  const source = yield* resolveTarget(view, command.source, context)
  // A line named by its label moves with its label.
  const range = source.label && !source.label.column ? { ...source.range, left: Math.min(source.range.left, source.label.label.col) } : source.range
  const destination = yield* resolveTarget(view, command.destination.kind === 'sheet' && command.destination.sheet !== undefined ? { kind: 'address', address: formatAddress(range.top, range.left), sheet: command.destination.sheet } : command.destination, context, { clamp: false })
  // Whole rows (or columns) go to the row (or column) named, in the columns (or rows) they hold.
  const top = destination.whole === 'columns' ? range.top : destination.range.top
  const left = destination.whole === 'rows' ? range.left : destination.range.left
  const to = refText(destination.sheet.name, cellRange(top, left))
  const from = refText(source.sheet.name, range)
  const paraphrase = `move ${source.label ? `${source.described} ` : ''}${from} to ${to} as cut and paste does, formulas that read the cells following them`
  const result = yield* useToolOrStop('move_cells', { sheet: source.sheet.name, range: rangeText(range), to }, paraphrase)
  const cells = Number(result.content?.cells ?? 0)
  return { text: readAs(paraphrase, `Moved ${result.content?.moved ?? `${from} to ${to}`} (${cells} cell${cells === 1 ? '' : 's'} with content). ${writeOutcome(result, 3)}`.trim()) }
}

/** Two whole rows or columns trading places: three moves through an empty one past the used cells. */
export function* planSwap(command: Command<'swap'>, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  const a = yield* resolveTarget(view, command.a, context)
  const b = yield* resolveTarget(view, command.b, context)
  if (a.sheet !== b.sheet) stop(`${a.described} and ${b.described} are on different sheets; I swap rows or columns of one sheet.`)
  const sheet = a.sheet
  const used = sheet.used
  if (!used) stop(`${sheet.name} is empty: there is nothing to swap.`)
  const columns = command.a.kind === 'columns'
  const line = (found: typeof a): RangeAddress => {
    if (columns) return { top: used.top, bottom: used.bottom, left: found.range.left, right: found.range.left }
    if (found.range.top !== found.range.bottom) stop(`${found.described} is more than one row: I swap one row with another.`)
    return { top: found.range.top, bottom: found.range.top, left: used.left, right: used.right }
  }
  const [first, second] = [line(a), line(b)]
  if (first.top === second.top && first.left === second.left) stop(`That is the same ${columns ? 'column' : 'row'} twice: there is nothing to swap.`)
  const spare = columns ? { ...first, left: used.right + 2, right: used.right + 2 } : { ...first, top: used.bottom + 2, bottom: used.bottom + 2 }
  const named = (range: RangeAddress) => (columns ? `column ${columnToLetters(range.left)}` : `row ${range.top + 1}`)
  const paraphrase = `swap ${named(first)}${a.label ? ` (${a.label.label.text})` : ''} and ${named(second)}${b.label ? ` (${b.label.label.text})` : ''} of ${sheet.name}, formulas that read them following each`
  const moves: [RangeAddress, RangeAddress][] = [
    [first, spare],
    [second, first],
    [spare, second],
  ]
  for (const [from, to] of moves) {
    yield* useToolOrStop('move_cells', { sheet: sheet.name, range: rangeText(from), to: refText(sheet.name, cellRange(to.top, to.left)) }, paraphrase)
  }
  return { text: readAs(paraphrase, `Done: ${named(first)} holds what ${named(second)} held, and the other way round.`) }
}

// ---- fill ---------------------------------------------------------------------------------------

/** The column a fill to the right stops at: a named cell or column, a header, or the end of the table. */
function* fillEdge(view: WorkbookView, sheet: SheetView, destination: Command<'fill'>['destination'], axis: 'right' | 'down', context: PlanContext): Step<number> {
  const used = sheet.used
  if (!destination || destination.kind === 'end') {
    if (axis === 'right') {
      const lastHeader = Math.max(-1, ...sheet.headerRows.flatMap((header) => header.cells.map((cell) => cell.col)))
      return Math.max(lastHeader, used?.right ?? 0)
    }
    return used?.bottom ?? 0
  }
  // "to FY2028" reads like an address (column FY, row 2028): a header that says so wins.
  const headerText = destination.kind === 'address' ? destination.address : destination.kind === 'label' ? destination.text.replace(/\s+column$/i, '') : undefined
  if (axis === 'right' && headerText !== undefined) {
    const header = destination.kind === 'label' ? view.matchHeader(sheet, headerText) : view.headerSaying(sheet, headerText)
    if (header) return header.col
  }
  if (destination.kind === 'columns') return lettersToColumn(destination.to)
  if (destination.kind === 'rows') return destination.to - 1
  const found = yield* resolveTarget(view, destination, context)
  return axis === 'right' ? found.range.right : found.range.bottom
}

export function* planFill(command: Command<'fill'>, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  const source = yield* resolveTarget(view, command.source, context)
  const sheet = source.sheet
  let from: RangeAddress = source.range
  // "copy row 2 to row 5" copies it there: as many whole rows (columns) as it has, not every row on the way.
  const destination = command.destination
  // A line named by its label copied "to row 9" goes there whole, label and all, as a row would.
  const labelledRow = source.label !== undefined && !source.label.column
  const copiedWhole =
    command.direction === undefined &&
    ((destination?.kind === 'rows' && (source.whole === 'rows' || labelledRow) && Math.abs(destination.to - destination.from) === source.range.bottom - source.range.top) ||
      (destination?.kind === 'columns' && source.whole === 'columns' && Math.abs(lettersToColumn(destination.to) - lettersToColumn(destination.from)) === source.range.right - source.range.left))
  // A whole labelled row or a column: fill from its last formula (right) or its first formula (down);
  // rows or columns copied whole go as they are.
  if (copiedWhole) from = source.range
  else if (source.label && !source.label.column) {
    const cells = (yield* readCells(sheet.name, source.range)).filter((cell) => cell.col > source.label!.label.col)
    const formulas = cells.filter((cell) => cell.formula !== undefined)
    const last = formulas[formulas.length - 1] ?? cells[cells.length - 1]
    if (!last) stop(`${source.described} is empty: there is nothing to fill.`)
    from = cellRange(last.row, last.col)
  } else if (source.whole === 'columns' && command.direction !== 'right') {
    const cells = yield* readCells(sheet.name, source.range)
    const firstFormula = cells.find((cell) => cell.formula !== undefined)
    if (!firstFormula) stop(`${source.described} holds no formula to fill down.`)
    from = { top: firstFormula.row, bottom: firstFormula.row, left: source.range.left, right: source.range.right }
  }
  let to: RangeAddress
  let direction = command.direction
  // "to column G" and "across to FY2028" go right, "to row 20" goes down; a labelled row is filled along itself.
  if (direction === undefined && destination && !copiedWhole) {
    const kind = destination.kind
    if (kind === 'columns' || (source.label && !source.label.column) || (kind === 'label' && view.matchHeader(sheet, destination.text.replace(/\s+column$/i, '')))) direction = 'right'
    else if (kind === 'rows') direction = 'down'
  }
  if (direction === undefined && destination && destination.kind !== 'end') {
    to = (yield* resolveTarget(view, destination, context)).range
  } else {
    direction ??= 'right'
    const edge = yield* fillEdge(view, sheet, destination, direction, context)
    to = direction === 'right' ? { top: from.top, bottom: from.bottom, left: from.right + 1, right: edge } : { top: from.bottom + 1, bottom: edge, left: from.left, right: from.right }
    if (to.right < to.left || to.bottom < to.top) stop(`${refText(sheet.name, from)} already reaches ${direction === 'right' ? `column ${columnToLetters(edge)}` : `row ${edge + 1}`}: there is nothing to fill.`)
  }
  const paraphrase = `fill ${refText(sheet.name, from)}${source.label ? ` (${source.label.label.text})` : ''} ${direction ? `${direction === 'right' ? 'right' : 'down'} ` : ''}into ${refText(sheet.name, to)}`
  const sourceCells = yield* readCells(sheet.name, from)
  if (sourceCells.length > 0 && sourceCells.every((cell) => cell.formula === undefined)) {
    // Values are copied as they are (the fill tool copies formulas).
    const height = from.bottom - from.top + 1
    const width = from.right - from.left + 1
    const byPosition = new Map(sourceCells.map((cell) => [`${cell.row - from.top}:${cell.col - from.left}`, cell]))
    const writes: CellWrite[] = []
    for (let row = to.top; row <= to.bottom; row++) {
      for (let col = to.left; col <= to.right; col++) {
        const cell = byPosition.get(`${(((row - from.top) % height) + height) % height}:${(((col - from.left) % width) + width) % width}`)
        writes.push({ address: formatAddress(row, col), input: cell ? inputOf(cell) : '' })
      }
    }
    const result = yield* writeCells(sheet.name, writes, refText(sheet.name, to))
    return { text: readAs(paraphrase.replace(/^fill/, 'copy the values of'), writeOutcome(result)) }
  }
  const result = yield* useTool('fill_formula', { sheet: sheet.name, source: rangeText(from), target: rangeText(to), overwrite: true })
  if (!result.ok) stop(`${readAs(paraphrase)}\n\nThe fill did not go through: ${result.error}`)
  return { text: readAs(paraphrase, `Filled ${result.content?.filled ?? 'the'} cells. ${writeOutcome(result)}`.trim()) }
}

/** What to type to put a read cell's content back: its formula, its value, text kept as text. */
export function inputOf(cell: ReadCell): string | number | boolean {
  if (cell.formula !== undefined) return cell.formula
  if (typeof cell.value === 'string') {
    const reading = parseCellInput(cell.value)
    // Text that would be read as a number, a date or a formula is typed with a leading apostrophe.
    return reading.kind === 'value' && typeof reading.value === 'string' ? cell.value : `'${cell.value}`
  }
  return cell.value ?? ''
}

// ---- totals -------------------------------------------------------------------------------------

const numeric = (cell: ReadCell) => typeof cell.value === 'number'

function reference(sheet: SheetView, range: RangeAddress, from: SheetView): string {
  const text = rangeText(range)
  return sheet === from ? text : `${formatSheetPrefix(sheet.name)}!${text}`
}

/** The block of numbers in a line of cells: from the first number to the last. */
function numberSpan(cells: ReadCell[], axis: 'row' | 'col'): { first: ReadCell; last: ReadCell } | undefined {
  const numbers = cells.filter(numeric)
  if (numbers.length === 0) return undefined
  const key = (cell: ReadCell) => (axis === 'row' ? cell.row : cell.col)
  const sorted = [...numbers].sort((a, b) => key(a) - key(b))
  return { first: sorted[0], last: sorted[sorted.length - 1] }
}

export function* planAggregate(command: Command<'aggregate'>, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  const source = yield* resolveTarget(view, command.source, context)
  const sheet = source.sheet
  const fn: AggregateFunction = command.fn
  const writes: { sheet: SheetView; address: string; formula: string; over: string }[] = []
  if (command.destination) {
    const destination = yield* resolveTarget(view, command.destination, context)
    let range = source.range
    if (source.whole || (source.label && !source.label.column)) {
      const cells = yield* readCells(sheet.name, source.range)
      const span = numberSpan(cells, source.whole === 'columns' ? 'row' : 'col')
      if (!span) stop(`${source.described} holds no numbers to ${fn === 'SUM' ? 'total' : 'summarise'}.`)
      range = { top: span.first.row, left: span.first.col, bottom: span.last.row, right: span.last.col }
    }
    const address = formatAddress(destination.range.top, destination.range.left)
    writes.push({ sheet: destination.sheet, address, formula: `=${fn}(${reference(sheet, range, destination.sheet)})`, over: refText(sheet.name, range) })
  } else {
    const cells = yield* readCells(sheet.name, source.range)
    const vertical = source.whole === 'columns' || (!source.whole && !source.label && source.range.bottom - source.range.top >= source.range.right - source.range.left && source.range.top !== source.range.bottom)
    if (vertical) {
      // Under each column: the block of numbers, and the first free cell below everything in the column.
      for (let col = source.range.left; col <= source.range.right; col++) {
        const column = cells.filter((cell) => cell.col === col)
        const span = numberSpan(column, 'row')
        if (!span) continue
        const below = Math.max(...column.map((cell) => cell.row)) + 1
        const range = { top: span.first.row, bottom: span.last.row, left: col, right: col }
        writes.push({ sheet, address: formatAddress(source.whole ? below : Math.max(below, source.range.bottom + 1), col), formula: `=${fn}(${rangeText(range)})`, over: refText(sheet.name, range) })
      }
    } else {
      for (let row = source.range.top; row <= source.range.bottom; row++) {
        const line = cells.filter((cell) => cell.row === row && (!source.label || cell.col > source.label.label.col))
        const span = numberSpan(line, 'col')
        if (!span) continue
        const right = Math.max(...line.map((cell) => cell.col)) + 1
        const range = { top: row, bottom: row, left: span.first.col, right: span.last.col }
        writes.push({ sheet, address: formatAddress(row, source.whole || source.label ? right : Math.max(right, source.range.right + 1)), formula: `=${fn}(${rangeText(range)})`, over: refText(sheet.name, range) })
      }
    }
    if (writes.length === 0) stop(`${source.described} holds no numbers to ${fn === 'SUM' ? 'total' : 'summarise'}.`)
  }
  const verb = fn === 'SUM' ? 'total' : `take the ${fn.toLowerCase()} of`
  const target = writes[0].sheet
  const paraphrase = `${verb} ${source.described}: ${writes.map((write) => `${write.formula} in ${refText(write.sheet.name, cellRange(tryParseAddress(write.address)!.row, tryParseAddress(write.address)!.col))}`).join(', ')}`
  const result = yield* writeCells(target.name, writes.map((write) => ({ address: write.address, input: write.formula })), `the ${fn === 'SUM' ? 'total' : fn.toLowerCase()}`)
  return { text: readAs(paraphrase, writeOutcome(result)) }
}

export function* planTotalRow(command: Command<'total_row'>, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  const table: TargetSpec = command.table ?? { kind: 'sheet' }
  const found = yield* resolveTarget(view, table.kind === 'label' ? { kind: 'sheet', sheet: view.findSheet(table.text)?.name ?? table.text } : table, context)
  const sheet = found.sheet
  const cells = yield* readCells(sheet.name, found.range)
  const headerBottom = Math.max(-1, ...sheet.headerRows.filter((header) => header.row <= found.range.bottom).map((header) => header.row))
  const top = Math.max(found.range.top, headerBottom + 1)
  const bottom = found.range.bottom
  const labelCol = sheet.labelColumn ?? found.range.left
  const row = bottom + 1
  const writes: CellWrite[] = [{ address: formatAddress(row, labelCol), input: 'Total' }]
  for (let col = found.range.left; col <= found.range.right; col++) {
    if (col === labelCol) continue
    if (!cells.some((cell) => cell.col === col && cell.row >= top && numeric(cell))) continue
    writes.push({ address: formatAddress(row, col), input: `=SUM(${rangeText({ top, bottom, left: col, right: col })})` })
  }
  if (writes.length === 1) stop(`${refText(sheet.name, found.range)} has no column of numbers to total.`)
  const paraphrase = `add a Total row under ${refText(sheet.name, { ...found.range, top })} on row ${row + 1}, summing each column of numbers`
  const result = yield* writeCells(sheet.name, writes, 'the total row')
  return { text: readAs(paraphrase, writeOutcome(result)) }
}

// ---- growth -------------------------------------------------------------------------------------

/** The period columns of a row: its header's cells right of the label, else its own filled cells. */
function periodColumns(sheet: SheetView, labelRow: number, labelCol: number, rowCells: ReadCell[]): { col: number; text: string }[] {
  const rows = sheet.headerRows.filter((header) => header.row < labelRow)
  const header = rows[rows.length - 1]
  const fromHeader = (header?.cells ?? []).filter((cell) => cell.col > labelCol).sort((a, b) => a.col - b.col)
  if (fromHeader.length > 0) return fromHeader
  return rowCells.filter((cell) => cell.col > labelCol).map((cell) => ({ col: cell.col, text: columnToLetters(cell.col) }))
}

function periodIndex(periods: { col: number; text: string }[], bound: PeriodBound): number {
  const named = 'year' in bound ? `Year ${bound.year}` : String(bound.calendar)
  const byHeader = periods.findIndex((period) => labelSimilarity(named, period.text) >= 0.95)
  if (byHeader >= 0) return byHeader
  if ('year' in bound && bound.year >= 1 && bound.year <= periods.length) return bound.year - 1
  stop(`I could not find ${'year' in bound ? `year ${bound.year}` : bound.calendar} among the periods ${periods.map((period) => period.text).join(', ')}.`)
}

export function* planGrow(command: Command<'grow'>, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  const found = yield* resolveTarget(view, command.target, context)
  if (!found.label) stop(`Growth is applied to a labelled row, such as “grow revenue 15% a year”; ${found.described} is not one.`)
  const { sheet, label } = found
  const rowCells = (yield* readCells(sheet.name, found.range)).filter((cell) => cell.col > label.label.col)
  const periods = periodColumns(sheet, label.label.row, label.label.col, rowCells)
  if (periods.length < 2) stop(`${label.label.text} on ${sheet.name} has fewer than two periods to grow across.`)
  let first = 1
  let last = periods.length - 1
  if (command.span && 'next' in command.span) last = Math.min(periods.length - 1, command.span.next)
  else if (command.span) {
    first = periodIndex(periods, command.span.from)
    last = periodIndex(periods, command.span.to)
  }
  const skipped = first === 0
  first = Math.max(first, 1)
  if (last < first) stop(`There is no period after the first to grow into.`)
  const rate = `${prose(command.rate * 100)}%`
  const row = label.label.row
  const writes: CellWrite[] = []
  for (let index = first; index <= last; index++) {
    const previous = formatAddress(row, periods[index - 1].col)
    writes.push({ address: formatAddress(row, periods[index].col), input: `=${previous}*(1+${rate})` })
  }
  const span = `${periods[first].text} to ${periods[last].text}`
  const paraphrase = `grow ${label.label.text} (${sheet.name} row ${row + 1}) by ${rate} a year from ${span}: each period is the one before × (1 + ${rate})${skipped ? ` (the first period, ${periods[0].text}, stays as the base)` : ''}`
  const result = yield* writeCells(sheet.name, writes, `${label.label.text} for ${span}`)
  return { text: readAs(paraphrase, writeOutcome(result)) }
}

// ---- sort ---------------------------------------------------------------------------------------

/** Excel's order: numbers, then text (ignoring case), then booleans; empty cells always last. */
function compareValues(a: ReadCell | undefined, b: ReadCell | undefined, descending: boolean): number {
  const rank = (cell: ReadCell | undefined) => (cell === undefined || cell.value === null || cell.value === '' ? 3 : typeof cell.value === 'number' ? 0 : typeof cell.value === 'string' ? 1 : 2)
  const ra = rank(a)
  const rb = rank(b)
  if (ra === 3 || rb === 3) return ra === rb ? 0 : ra === 3 ? 1 : -1
  let order = ra - rb
  if (order === 0 && ra === 0) order = (a!.value as number) - (b!.value as number)
  if (order === 0 && ra === 1) order = String(a!.value).localeCompare(String(b!.value), 'en', { sensitivity: 'base' })
  if (order === 0 && ra === 2) order = Number(a!.value) - Number(b!.value)
  return descending ? -order : order
}

export function* planSort(command: Command<'sort'>, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  const found = yield* resolveTarget(view, command.target ?? { kind: 'sheet' }, context)
  const sheet = found.sheet
  let range = found.range
  // A header row at the top of the range stays where it is.
  const header = sheet.headerRows.find((candidate) => candidate.row === range.top)
  if ((header || (!command.target && sheet.headerRows.some((candidate) => candidate.row >= range.top))) && range.bottom > range.top) {
    const top = Math.max(range.top, ...sheet.headerRows.filter((candidate) => candidate.row >= range.top && candidate.row < range.bottom).map((candidate) => candidate.row + 1))
    range = { ...range, top }
  }
  let keyCol = range.left
  let keyName = `column ${columnToLetters(keyCol)}`
  if (command.key && 'column' in command.key) {
    keyCol = lettersToColumn(command.key.column)
    keyName = `column ${command.key.column}`
  } else if (command.key) {
    const match = view.matchHeader(sheet, command.key.header)
    if (!match) stop(`No column headed “${command.key.header}” on ${sheet.name}. The headers are: ${sheet.headerRows.flatMap((row) => row.cells.map((cell) => cell.text)).join(', ') || 'none'}.`)
    keyCol = match.col
    keyName = `“${match.text}” (column ${columnToLetters(match.col)})`
  }
  if (keyCol < range.left || keyCol > range.right) stop(`${keyName} lies outside ${refText(sheet.name, range)}.`)
  const cells = yield* readCells(sheet.name, range)
  const at = new Map(cells.map((cell) => [cell.address, cell]))
  const rows: number[] = []
  for (let row = range.top; row <= range.bottom; row++) rows.push(row)
  const descending = command.order === 'desc'
  const sorted = [...rows].sort((a, b) => compareValues(at.get(formatAddress(a, keyCol)), at.get(formatAddress(b, keyCol)), descending) || a - b)
  const paraphrase = `sort ${refText(sheet.name, range)} by ${keyName}, ${descending ? 'largest (Z) first' : 'smallest (A) first'}`
  if (sorted.every((row, index) => row === rows[index])) return { text: readAs(paraphrase, 'The rows are already in that order; nothing was changed.') }
  const writes: CellWrite[] = []
  sorted.forEach((from, index) => {
    const to = rows[index]
    if (from === to) return
    for (let col = range.left; col <= range.right; col++) {
      const source = at.get(formatAddress(from, col))
      const target = formatAddress(to, col)
      if (!source && !at.has(target)) continue
      writes.push({ address: target, input: source ? (source.formula !== undefined ? formulaAt(source.formula, source.address, target) : inputOf(source)) : '' })
    }
  })
  const result = yield* writeCells(sheet.name, writes, `the sorted rows of ${refText(sheet.name, range)}`)
  const errors = (result.content?.newErrors ?? []) as string[]
  return { text: readAs(paraphrase, `Moved ${sorted.filter((row, index) => row !== rows[index]).length} of ${rows.length} rows.${errors.length > 0 ? ` Watch out: ${errors.slice(0, 5).join(', ')} now show an error.` : ''}`) }
}

