/**
 * More periods: "add 2 more years", "extend the model to 2030", "project revenue for 3 more years at
 * 8% growth". The last period column of a sheet (its header says FY2027, 2027E, 2027 or Year 5) is
 * carried right as Excel's fill carries it: formulas shift a column at a time, formats follow, and
 * the headers count on (FY2028, FY2029). Whatever stands right of the periods (a Total column) moves
 * right to make room rather than being written over. With a row named, only that row goes on, under
 * the headers (written where they are missing), from its own last cell.
 */
import { MAX_AGENT_TOOL_CALLS } from '@finsheet/contracts'
import { parseFormulaText, type FormulaNode } from '@finsheet/formula'
import { columnToLetters, formatAddress } from '@finsheet/workbook'
import type { PlannerCommand } from '../command-language.js'
import { prose, readAs, writeOutcome } from '../answers.js'
import { absolute, walk } from '../formula-walk.js'
import { PlanStop, stop, useTool, type Observation, type PlanAnswer, type PlanContext, type Step } from '../plan-kit.js'
import { readCells, resolveTarget } from '../targets.js'
import { lookOver, writeCells, type CellWrite } from '../tool-steps.js'
import { refText, type SheetView, type WorkbookView } from '../workbook-view.js'

type Command = Extract<PlannerCommand, { type: 'extend' }>

/** Periods one command adds at most. */
const MAX_NEW_PERIODS = 30

/** A period header read: its year (or number), and how to write the ones after it. */
interface Period {
  col: number
  text: string
  /** The calendar year, or the n of "Year n". */
  number: number
  calendar: boolean
  /** The header of the period `steps` after this one, as typed into the cell. */
  after(steps: number): string | number
}

const FISCAL = /^(FY|CY)(\s?'?)(\d{2}|\d{4})(\s?)([AEFPB])?$/i
const YEAR = /^(\d{4})(\s?)([AEFPB])?$/i
const NUMBERED = /^(Year|Yr|Period|Y)(\s?)(\d{1,3})$/i

/** Actual years go on as estimates ("2025A" is followed by "2026E"). */
const nextSuffix = (suffix: string | undefined) => (suffix === undefined ? '' : suffix === 'A' ? 'E' : suffix === 'a' ? 'e' : suffix)

/** A header cell that names a period, or undefined. Numbers are years only in a header row. */
export function readPeriod(cell: { col: number; text: string; value?: unknown }, inHeaderRow: boolean): Period | undefined {
  const text = cell.text.trim()
  const fiscal = FISCAL.exec(text)
  if (fiscal) {
    const [, prefix, gap, digits, space, suffix] = fiscal
    const short = digits.length === 2
    const number = short ? 2000 + Number(digits) : Number(digits)
    if (number < 1900 || number > 2200) return undefined
    return {
      col: cell.col,
      text,
      number,
      calendar: true,
      after: (steps) => `${prefix}${gap}${short ? String((number + steps) % 100).padStart(2, '0') : number + steps}${suffix ? space + nextSuffix(suffix) : ''}`,
    }
  }
  const year = YEAR.exec(text)
  if (year && (year[3] !== undefined || inHeaderRow)) {
    const [, digits, space, suffix] = year
    const number = Number(digits)
    if (number < 1900 || number > 2200) return undefined
    const asNumber = suffix === undefined && typeof cell.value === 'number'
    // Text that reads as a number is typed with an apostrophe, so "2028" stays text where "2027" was.
    return { col: cell.col, text, number, calendar: true, after: (steps) => (asNumber ? number + steps : suffix === undefined ? `'${number + steps}` : `${number + steps}${space}${nextSuffix(suffix)}`) }
  }
  const numbered = NUMBERED.exec(text)
  if (numbered) {
    const [, word, gap, digits] = numbered
    const number = Number(digits)
    return { col: cell.col, text, number, calendar: false, after: (steps) => `${word}${gap}${number + steps}` }
  }
  return undefined
}

/** The row of period headers of a sheet: the header row with the most periods, each a year after the one before. */
function periodsOf(sheet: SheetView): { row: number; periods: Period[] } | undefined {
  let best: { row: number; periods: Period[] } | undefined
  for (const header of sheet.headerRows) {
    const periods = header.cells
      .filter((cell) => sheet.labelColumn === null || cell.col > sheet.labelColumn)
      .map((cell) => readPeriod(cell, true))
      .filter((period): period is Period => period !== undefined)
      .sort((a, b) => a.col - b.col)
    // A row of periods counts on by one at least twice: a lone year beside a label is a value.
    if (periods.length < 2 || periods.some((period, index) => index > 0 && period.number !== periods[index - 1].number + 1)) continue
    if (periods.length > (best?.periods.length ?? 0)) best = { row: header.row, periods }
  }
  return best
}

/** Words that name the model as a whole rather than a sheet or a line of it. */
const WHOLE_MODEL = /^(?:(?:the|our|my|this|all|all the)\s+)?(?:model|models|projections?|forecasts?|projection period|forecast period|explicit period|periods|years|timeline|everything|sheet|table|it|cash flows?|financials|statements?)$/i

/** What a command extends: a sheet it names, the model as a whole (no sheet named), or one line. */
function scopeOf(view: WorkbookView, command: Command): { sheet?: SheetView } | 'line' {
  const target = command.target
  if (target === undefined) return {}
  if (target.kind === 'sheet') return target.sheet === undefined ? {} : { sheet: view.sheetNamed(target.sheet) }
  if (target.kind !== 'label') return 'line'
  const sheet = view.findSheet(target.text.replace(/\s+(sheet|tab|worksheet)$/i, ''))
  if (sheet) return { sheet }
  return WHOLE_MODEL.test(target.text.trim()) ? {} : 'line'
}

/**
 * The sheets a command extends: the one it names; else, for the model as a whole, every sheet whose
 * periods end where those of the active sheet (or the first with periods) end, so that statements
 * linked column by column go on together.
 */
function sheetsToExtend(view: WorkbookView, named: SheetView | undefined, context: PlanContext): SheetView[] {
  if (named) return [named]
  const active = context.activeSheet !== undefined ? view.findSheet(context.activeSheet) : undefined
  const lead = active && periodsOf(active) ? active : view.sheets.find((sheet) => periodsOf(sheet) !== undefined)
  if (!lead) stop('I found no row of period headers (FY2025, 2025E, Year 1…) to add periods after.')
  const lastOf = (sheet: SheetView) => periodsOf(sheet)?.periods.at(-1)
  const end = lastOf(lead)!
  return [lead, ...view.sheets.filter((sheet) => sheet !== lead && lastOf(sheet)?.number === end.number && lastOf(sheet)?.calendar === end.calendar)]
}

/** How many periods after `last` (the period a line ends at, `where` when none is known): the count asked for, or up to the year named. */
function newPeriods(command: Command, last: Period | undefined, where = last?.text): number {
  let count = command.count ?? 1
  if (command.to !== undefined) {
    if (!last) stop(`I could not tell which year ${where} is, to count the periods up to ${command.to}: say how many (“for 3 more years”).`)
    if (!last.calendar) stop(`The periods run ${last.text}, not calendar years: say how many to add (“add 2 more years”).`)
    count = command.to - last.number
    if (count < 1) stop(`The periods already run to ${last.text}.`)
  }
  if (count > MAX_NEW_PERIODS) stop(`That is ${count} new periods; I add at most ${MAX_NEW_PERIODS} at once.`)
  return count
}

/** A sheet's periods as extended: its first and last period columns, and how far what stood right of them moved. */
interface Extended {
  sheet: SheetView
  firstCol: number
  lastCol: number
  shift: number
}

/**
 * Formulas outside the periods (among the overview's blocks) that read the last period: a span ending
 * there, as an NPV or a total across the years does, or its cell, as a terminal value does. They keep
 * reading it after the new periods, and the answer names them.
 */
function readersOfLastPeriod(view: WorkbookView, extended: readonly Extended[]): string[] {
  const of = (sheet: SheetView | undefined) => extended.find((entry) => entry.sheet === sheet)
  const found: string[] = []
  for (const other of view.sheets) {
    const here = of(other)
    for (const block of other.formulaBlocks) {
      if (here && block.col >= here.firstCol && block.col <= here.lastCol) continue
      let tree: FormulaNode
      try {
        tree = parseFormulaText(block.formula, formatAddress(block.row, block.col))
      } catch {
        continue
      }
      let reads = false
      walk(tree, (node) => {
        if (reads || (node.type !== 'cell' && node.type !== 'range')) return
        const target = of(node.sheet === undefined ? other : view.findSheet(node.sheet))
        if (!target) return
        if (node.type === 'cell') reads = absolute(node.ref, block.row, block.col).col === target.lastCol
        else if (node.kind === 'cells') {
          const [left, right] = [absolute(node.start, block.row, block.col).col, absolute(node.end, block.row, block.col).col]
          reads = Math.max(left, right) === target.lastCol && Math.min(left, right) < target.lastCol
        }
      })
      if (!reads) continue
      const col = here && block.col > here.lastCol ? block.col + here.shift : block.col
      found.push(`${refText(other.name, { top: block.row, bottom: block.row, left: col, right: col })} (${block.formula})`)
    }
  }
  return found
}

const columnSpan = (from: number, to: number) => (from === to ? `column ${columnToLetters(from)}` : `columns ${columnToLetters(from)}–${columnToLetters(to)}`)
const listed = (items: readonly string[], max: number) => `${items.slice(0, max).join(', ')}${items.length > max ? ` and ${items.length - max} more` : ''}`

/** Tool calls one sheet's extension takes at most (read, look right, insert, fill, headers). */
const CALLS_PER_SHEET = 5

export function* planExtend(command: Command, context: PlanContext): Step<PlanAnswer> {
  const view = yield* lookOver()
  const scope = scopeOf(view, command)
  if (scope === 'line') return yield* extendRow(view, command, context)
  if (command.rate !== undefined) stop('A growth rate goes with one line: “project revenue for 3 more years at 8% growth”.')
  const sheets = sheetsToExtend(view, scope.sheet, context)
  if (sheets.length * CALLS_PER_SHEET + 1 > MAX_AGENT_TOOL_CALLS) {
    stop(`${sheets.length} sheets have periods ending together (${sheets.map((sheet) => sheet.name).join(', ')}); that is more than I extend in one request. Name the sheets one at a time: “add 2 years to ${sheets[0].name}”.`)
  }
  const lead = periodsOf(sheets[0])
  if (!lead || !sheets[0].used) stop(`${sheets[0].name} has no row of period headers (FY2025, 2025E, Year 1…) to add periods after.`)
  const last = lead.periods[lead.periods.length - 1]
  const count = newPeriods(command, last)
  const extended: Extended[] = []
  const done: string[] = []
  const typed: string[] = []
  const errors: string[] = []
  const skipped: string[] = []
  let headersWritten: Observation | undefined
  for (const [index, sheet] of sheets.entries()) {
    let outcome
    try {
      outcome = yield* extendSheet(sheet, count)
    } catch (error) {
      // A sheet beside the first that cannot go on (nothing but typed numbers) is left as it was, and said.
      if (!(error instanceof PlanStop) || index === 0) throw error
      skipped.push(error.message)
      continue
    }
    extended.push(outcome.extended)
    done.push(outcome.said)
    typed.push(...outcome.typed)
    errors.push(...outcome.errors)
    headersWritten ??= outcome.headers
  }
  const named = (text: string | number) => String(text).replace(/^'/, '')
  const span = count === 1 ? named(last.after(1)) : `${named(last.after(1))} to ${named(last.after(count))}`
  const where = extended.length === 1 ? `${extended[0].sheet.name} (${columnSpan(extended[0].lastCol + 1, extended[0].lastCol + count)})` : extended.map((entry) => entry.sheet.name).join(', ')
  const paraphrase = `add ${count} period${count === 1 ? '' : 's'} after ${last.text} (${span}) to ${where}, each row of the last period carried right as a fill carries it`
  const readers = readersOfLastPeriod(view, extended)
  const notes = [
    done.join(' '),
    skipped.length > 0 ? `Left as they were: ${skipped.join(' ')}` : '',
    readers.length > 0 ? `These formulas still stop at ${last.text}; widen them or point them at the new last year where that is meant: ${listed(readers, 4)}.` : '',
    typed.length > 0 ? `Typed numbers were copied as they are — check them for the new years: ${listed(typed, 6)}.` : '',
    headersWritten ? writeOutcome(headersWritten, 3) : '',
    errors.length > 0 ? `Watch out: ${listed(errors, 5)} now show an error.` : '',
  ]
  return { text: readAs(paraphrase, notes.filter(Boolean).join(' ')) }
}

/** One sheet's last period column carried right `count` columns, its headers counted on. */
function* extendSheet(sheet: SheetView, count: number): Step<{ extended: Extended; said: string; typed: string[]; errors: string[]; headers?: Observation }> {
  const header = periodsOf(sheet)
  if (!header || !sheet.used) stop(`${sheet.name} has no row of period headers (FY2025, 2025E, Year 1…) to add periods after.`)
  const last = header.periods[header.periods.length - 1]
  const lastCol = last.col
  const first = lastCol + 1
  const end = lastCol + count
  const used = sheet.used
  const column = yield* readCells(sheet.name, { top: used.top, bottom: used.bottom, left: lastCol, right: lastCol })
  if (!column.some((cell) => cell.formula !== undefined)) stop(`Column ${columnToLetters(lastCol)} (${last.text}) on ${sheet.name} holds no formulas to carry on into new periods.`)

  // What stands right of the periods moves right, so nothing is written over.
  let moved = ''
  let shift = 0
  if (used.right > lastCol) {
    const right = yield* readCells(sheet.name, { top: used.top, bottom: used.bottom, left: first, right: Math.min(end, used.right) })
    if (right.length > 0) {
      const inserted = yield* useTool('modify_structure', { action: 'insert_columns', sheet: sheet.name, at: columnToLetters(first), count })
      if (!inserted.ok) stop(`I could not make room right of ${last.text} on ${sheet.name}: ${inserted.error}`)
      shift = count
      moved = ` What stood in ${columnSpan(first, Math.min(end, used.right))} moved right by ${count}.`
    }
  }
  const letter = columnToLetters(lastCol)
  const fill = yield* useTool('fill_formula', { sheet: sheet.name, source: `${letter}${used.top + 1}:${letter}${used.bottom + 1}`, target: `${columnToLetters(first)}${used.top + 1}:${columnToLetters(end)}${used.bottom + 1}` })
  if (!fill.ok) stop(`I could not carry ${sheet.name}!${letter} on: ${fill.error}`)

  // Headers count on (every period row of the column: a sheet may have a block per statement).
  const headerRows = new Set(sheet.headerRows.map((row) => row.row))
  const headers: CellWrite[] = []
  const typed: string[] = []
  for (const cell of column) {
    if (cell.formula !== undefined) continue
    const period = readPeriod({ col: cell.col, text: cell.shown ?? String(cell.value ?? ''), value: cell.value }, headerRows.has(cell.row))
    if (period) {
      for (let step = 1; step <= count; step++) headers.push({ address: formatAddress(cell.row, lastCol + step), input: period.after(step) })
    } else if (typeof cell.value === 'number') {
      const label = sheet.labels.find((candidate) => candidate.row === cell.row)
      typed.push(label ? `${label.text} (${sheet.name}!${cell.address})` : `${sheet.name}!${cell.address}`)
    }
  }
  const written = headers.length > 0 ? yield* writeCells(sheet.name, headers, `the new period headers on ${sheet.name}`) : undefined
  const carried = column.filter((cell) => (cell.value !== null && cell.value !== '') || cell.formula !== undefined).length
  return {
    extended: { sheet, firstCol: header.periods[0].col, lastCol, shift },
    said: `${sheet.name}: ${carried} cell${carried === 1 ? '' : 's'} of column ${letter} went on into ${columnSpan(first, end)}.${moved}`,
    typed,
    errors: (fill.content?.newErrors ?? []) as string[],
    ...(written ? { headers: written } : {}),
  }
}

/** One line carried on: from its own last cell, under the sheet's period headers. */
function* extendRow(view: WorkbookView, command: Command, context: PlanContext): Step<PlanAnswer> {
  const found = yield* resolveTarget(view, command.target!, context)
  if (!found.label || found.label.column) stop(`Periods are added to a labelled line, such as “project revenue for 3 more years”; ${found.described} is not one.`)
  const { sheet } = found
  const row = found.label.label.row
  const line = (yield* readCells(sheet.name, found.range)).filter((cell) => cell.col > found.label!.label.col && cell.value !== null && cell.value !== '')
  if (line.length === 0) stop(`${found.label.label.text} on ${sheet.name} holds nothing to carry on.`)
  const lastCell = line.reduce((a, b) => (b.col > a.col ? b : a))
  const header = periodsOf(sheet)
  const headerPeriod = header?.periods.find((period) => period.col === lastCell.col)
  const count = newPeriods(command, headerPeriod, lastCell.address)
  if (command.rate === undefined && lastCell.formula === undefined) {
    stop(`${found.label.label.text}’s last value (${lastCell.address}) is a typed number, so there is no formula to carry on. Give a growth rate: “project ${found.label.label.text} for ${count} more years at 5% growth”.`)
  }
  const first = lastCell.col + 1
  const end = lastCell.col + count
  const ahead = yield* readCells(sheet.name, { top: row, bottom: row, left: first, right: end })
  if (ahead.length > 0) stop(`${refText(sheet.name, { top: row, bottom: row, left: first, right: end })} already holds ${ahead.map((cell) => cell.address).join(', ')}; I do not write over it.`)

  const rate = command.rate === undefined ? undefined : `${prose(command.rate * 100)}%`
  let result
  if (rate !== undefined) {
    const writes: CellWrite[] = []
    for (let col = first; col <= end; col++) writes.push({ address: formatAddress(row, col), input: `=${formatAddress(row, col - 1)}*(1+${rate})` })
    result = yield* writeCells(sheet.name, writes, `${found.label.label.text} for the new periods`)
  } else {
    result = yield* useTool('fill_formula', { sheet: sheet.name, source: lastCell.address, target: `${columnToLetters(first)}${row + 1}:${columnToLetters(end)}${row + 1}` })
    if (!result.ok) stop(`I could not carry ${lastCell.address} on: ${result.error}`)
  }
  // Headers where the new periods have none.
  const headers: CellWrite[] = []
  if (header && headerPeriod) {
    const above = yield* readCells(sheet.name, { top: header.row, bottom: header.row, left: first, right: end })
    for (let step = 1; step <= count; step++) {
      if (!above.some((cell) => cell.col === lastCell.col + step)) headers.push({ address: formatAddress(header.row, lastCell.col + step), input: headerPeriod.after(step) })
    }
  }
  if (headers.length > 0) yield* writeCells(sheet.name, headers, 'the new period headers')
  const how = rate !== undefined ? `each period the one before × (1 + ${rate})` : `the formula in ${lastCell.address} carried right`
  const paraphrase = `carry ${found.label.label.text} (${sheet.name} row ${row + 1}) on for ${count} more period${count === 1 ? '' : 's'} after ${headerPeriod?.text ?? lastCell.address} (${columnSpan(first, end)}), ${how}${headers.length > 0 ? `, with headers ${headers.map((cell) => String(cell.input).replace(/^'/, '')).join(', ')}` : ''}`
  return { text: readAs(paraphrase, writeOutcome(result, 3)) }
}

