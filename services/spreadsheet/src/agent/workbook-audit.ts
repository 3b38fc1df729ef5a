/**
 * A rule-based audit of a workbook, as a reviewer checks a financial model: error cells traced to the
 * cell each error starts at, circular references, formulas that break the pattern of their row or
 * column, numbers typed inside formulas, typed numbers outside the input sheet, references to empty
 * cells, and totals that miss rows of their block. Each finding names its cells and a one-line fix.
 * It reads the open workbook only.
 */
import { isCellError, parseFormulaText, type FormulaNode, type RangeAddress } from '@finsheet/formula'
import {
  MAX_AUDIT_FINDINGS,
  MAX_AUDIT_FINDING_CELLS,
  type AuditFinding,
  type AuditReport,
  type AuditRule,
  type AuditSeverity,
} from '@finsheet/contracts'
import { formatAddress, formatRange, parseAddress, type SheetRecord, type WorkbookModel } from '@finsheet/workbook'
import { cellLabelAt } from './cell-labels.js'
import { cellText } from './draft-session.js'
import { DependentsIndex, ReferenceReader, type CellPosition } from './references.js'
import type { SheetLayout } from './sheet-layout.js'

/** Sheets taken for the input sheet, by name. */
const INPUT_SHEET_NAME = /^(assumptions?|inputs?|drivers?)$/i

/**
 * Numbers a formula may hold without being an assumption: units and periods (12 months, 365 days,
 * 1,000 for thousands), halves, and 0 and 1 (growth as 1 + g, a flag compared with 1).
 */
const STRUCTURAL_NUMBERS = new Set([0, 1, 2, 4, 12, 24, 52, 100, 360, 365, 1000, 1_000_000])

/** Functions whose numeric arguments are positions, counts or digits rather than assumptions. */
const POSITIONAL_FUNCTIONS = new Set([
  'ROUND', 'ROUNDUP', 'ROUNDDOWN', 'MROUND', 'TRUNC', 'FIXED', 'INDEX', 'MATCH', 'XMATCH', 'VLOOKUP', 'HLOOKUP', 'XLOOKUP', 'OFFSET', 'CHOOSE',
  'LEFT', 'RIGHT', 'MID', 'FIND', 'SEARCH', 'REPT', 'SUBTOTAL', 'AGGREGATE', 'LARGE', 'SMALL', 'RANK', 'RANK.EQ', 'RANK.AVG', 'WEEKDAY', 'WEEKNUM',
  'DATE', 'TIME', 'EDATE', 'EOMONTH', 'WORKDAY', 'NETWORKDAYS', 'YEARFRAC', 'DATEDIF', 'TEXT', 'SEQUENCE', 'TAKE', 'DROP', 'CHOOSECOLS', 'CHOOSEROWS',
  'PERCENTILE', 'PERCENTILE.INC', 'PERCENTILE.EXC', 'QUARTILE', 'QUARTILE.INC', 'QUARTILE.EXC', 'IRR', 'XIRR', 'RATE',
])

/** Ranges read for error origins up to this many cells; a larger one is taken as holding none. */
const MAX_SCANNED_RANGE = 10_000

const ERROR_CAUSES: Record<string, { cause: string; fix: string }> = {
  '#DIV/0!': { cause: 'it divides by zero or by an empty cell', fix: 'Fill in the divisor, or guard the division: =IF(divisor=0,0,value/divisor)' },
  '#REF!': { cause: 'it points at cells that were deleted', fix: 'Rewrite the formula to read the cells it should, then fill it again' },
  '#NAME?': { cause: 'it uses a function or name the workbook does not know', fix: 'Correct the spelling of the function or define the name' },
  '#VALUE!': { cause: 'it does arithmetic on text or on the wrong kind of value', fix: 'Make the cells it reads numbers, or convert them with VALUE()' },
  '#N/A': { cause: 'a lookup found nothing, or the value is marked not available', fix: 'Check the lookup value and table, or wrap the lookup in IFNA() with a fallback' },
  '#NUM!': { cause: 'a number is out of range or a calculation did not converge', fix: 'Check the inputs it reads are in range (a rate above -100%, a positive number for a root)' },
  '#NULL!': { cause: 'two ranges it intersects do not overlap', fix: 'Separate the ranges with a comma, or fix the ranges' },
  '#SPILL!': { cause: 'its result cannot spill into cells that hold something', fix: 'Clear the cells its result spills into' },
  '#CALC!': { cause: 'an array calculation came out empty', fix: 'Check the condition of the FILTER or the array it reads' },
  '#ERROR!': { cause: 'its formula does not parse', fix: 'Correct the formula text' },
}

interface Raw {
  rule: AuditRule
  severity: AuditSeverity
  cells: { sheet: SheetRecord; row: number; col: number }[]
  message: string
  fix: string
}

export interface AuditScope {
  state: WorkbookModel
  layout(sheet: SheetRecord): SheetLayout
}

const SEVERITY_ORDER: Record<AuditSeverity, number> = { error: 0, warning: 1, info: 2 }

const key = (sheet: SheetRecord, row: number, col: number) => `${sheet.id}!${row}:${col}`

/** Audits every sheet, or only `only`. */
export function auditWorkbook(scope: AuditScope, only?: SheetRecord): AuditReport {
  return new WorkbookAudit(scope, only).run()
}

class WorkbookAudit {
  private readonly state: WorkbookModel
  private readonly reader: ReferenceReader
  private readonly found: Raw[] = []
  private readonly sheets: SheetRecord[]
  private readonly inputSheet: SheetRecord | undefined
  private dependents: DependentsIndex | undefined
  private checkedCells = 0
  private checkedFormulas = 0

  constructor(
    private readonly scope: AuditScope,
    only?: SheetRecord,
  ) {
    this.state = scope.state
    this.reader = new ReferenceReader(scope.state)
    this.sheets = only ? [only] : scope.state.sheets
    this.inputSheet = scope.state.sheets.find((sheet) => INPUT_SHEET_NAME.test(sheet.name.trim()))
  }

  run(): AuditReport {
    const numbersByShape = new Map<string, { cells: CellPosition[]; numbers: Set<string> }>()
    const emptyByShape = new Map<string, { cells: CellPosition[]; empty: string[] }>()
    const erroring: CellPosition[] = []
    for (const sheet of this.sheets) {
      const layout = this.scope.layout(sheet)
      const headerRows = new Set(layout.headerRows.map((header) => header.row))
      const typedNumbers: CellPosition[] = []
      this.state.engine.forEachCell(sheet.name, (cell) => {
        this.checkedCells++
        const position = { sheet, row: cell.row, col: cell.col }
        if (isCellError(cell.value) && cell.value.code !== '#CIRC!') erroring.push(position)
        if (cell.formula === undefined) {
          if (typeof cell.value === 'number' && cell.input !== '' && !headerRows.has(cell.row)) typedNumbers.push(position)
          return
        }
        this.checkedFormulas++
        const shape = this.state.engine.getFormulaShapeAt(sheet.name, cell.row, cell.col) ?? `${sheet.id}:${cell.row}:${cell.col}`
        this.patternBreak(sheet, cell.row, cell.col, shape)
        const tree = parse(cell.formula, cell.address)
        if (!tree) return
        const numbers = typedNumbersIn(tree)
        if (numbers.length > 0) {
          const group = numbersByShape.get(`${sheet.id}|${shape}`) ?? { cells: [], numbers: new Set<string>() }
          group.cells.push(position)
          for (const number of numbers) group.numbers.add(number)
          numbersByShape.set(`${sheet.id}|${shape}`, group)
        }
        const empty = this.emptyReferences(sheet, cell.row, cell.col)
        if (empty.length > 0) {
          const group = emptyByShape.get(`${sheet.id}|${shape}`) ?? { cells: [], empty: [] }
          group.cells.push(position)
          group.empty.push(...empty)
          emptyByShape.set(`${sheet.id}|${shape}`, group)
        }
        this.incompleteTotal(sheet, cell.row, cell.col, tree)
      })
      if (this.inputSheet && sheet !== this.inputSheet && typedNumbers.length > 0) {
        this.add({
          rule: 'input-outside-input-sheet',
          severity: 'warning',
          cells: typedNumbers,
          message: `${sheet.name} has ${plural(typedNumbers.length, 'typed number')} outside the input sheet ${this.inputSheet.name}: ${this.list(typedNumbers)}`,
          fix: `Move them to ${this.inputSheet.name} as labelled inputs and refer to them there, so that every assumption lives in one place`,
        })
      }
    }
    for (const { cells, numbers } of numbersByShape.values()) {
      const first = cells[0]
      const formula = this.formulaAt(first)
      const shown = [...numbers].join(', ')
      this.add({
        rule: 'number-in-formula',
        severity: 'warning',
        cells,
        message: `${this.where(first)} has ${shown} typed into its formula ${formula}${cells.length > 1 ? `, as do ${plural(cells.length - 1, 'copy', 'copies')} of it` : ''}`,
        fix: `Put ${shown} in a labelled input cell${this.inputSheet ? ` on ${this.inputSheet.name}` : ''} and refer to it`,
      })
    }
    for (const { cells, empty } of emptyByShape.values()) {
      const first = cells[0]
      const targets = [...new Set(empty)]
      this.add({
        rule: 'empty-reference',
        severity: 'warning',
        cells,
        message: `${this.where(first)} reads ${targets.slice(0, 3).join(', ')}${targets.length > 3 ? ` and ${targets.length - 3} more` : ''}, which ${targets.length === 1 ? 'is' : 'are'} empty (counted as 0)${cells.length > 1 ? `; so do ${plural(cells.length - 1, 'other cell')} of the same formula` : ''}`,
        fix: 'Fill in the empty cells, or point the formula at the cells it should read',
      })
    }
    this.errorOrigins(erroring)
    this.circularReferences()
    return this.report()
  }

  // ---- rules ----------------------------------------------------------------------------------------

  /**
   * A formula unlike those on either side of it, which agree with each other and with one more beyond
   * them: a fill the cell breaks, not two line items that happen to read alike.
   */
  private patternBreak(sheet: SheetRecord, row: number, col: number, shape: string): void {
    const engine = this.state.engine
    const at = (r: number, c: number) => (r < 0 || c < 0 ? undefined : engine.getFormulaShapeAt(sheet.name, r, c))
    const filled = (before: string | undefined, after: string | undefined, further: (string | undefined)[]) =>
      before !== undefined && before === after && before !== shape && further.includes(before)
    const neighbour = filled(at(row, col - 1), at(row, col + 1), [at(row, col - 2), at(row, col + 2)])
      ? { r: row, c: col - 1, along: 'row' }
      : filled(at(row - 1, col), at(row + 1, col), [at(row - 2, col), at(row + 2, col)])
        ? { r: row - 1, c: col, along: 'column' }
        : undefined
    if (!neighbour) return
    const position = { sheet, row, col }
    const other = { sheet, row: neighbour.r, col: neighbour.c }
    this.add({
      rule: 'pattern-break',
      severity: 'warning',
      cells: [position, other],
      message: `${this.where(position)} (${this.formulaAt(position)}) differs from the formulas on both sides of it in its ${neighbour.along}, which share one pattern (${this.where(other)}: ${this.formulaAt(other)})`,
      fix: `Copy the formula of ${this.where(other)} into it, or label why this cell is different`,
    })
  }

  /** Single cells the formula reads that hold nothing. */
  private emptyReferences(sheet: SheetRecord, row: number, col: number): string[] {
    const empty: string[] = []
    for (const reference of this.reader.referencesOf(sheet, row, col)) {
      const { range } = reference
      if (!reference.sheet || range.top !== range.bottom || range.left !== range.right) continue
      const input = this.state.engine.getInputAt(reference.sheet.name, range.top, range.left)
      if (input === '' && this.state.engine.getValueAt(reference.sheet.name, range.top, range.left) === null) empty.push(cellText(reference.sheet.name, range.top, range.left))
    }
    return empty
  }

  /** =SUM of one range beside the cell that stops short of the block of figures it totals. */
  private incompleteTotal(sheet: SheetRecord, row: number, col: number, tree: FormulaNode): void {
    let node = tree
    while (node.type === 'group') node = node.expression
    if (node.type !== 'call' || node.name.toUpperCase() !== 'SUM' || node.args.length !== 1) return
    const arg = node.args[0]
    if (arg.type !== 'range' || arg.kind !== 'cells' || arg.sheet !== undefined) return
    const range = placedRange(arg, row, col)
    const vertical = range.left === col && range.right === col && range.bottom < row
    const horizontal = range.top === row && range.bottom === row && range.right < col
    if (!vertical && !horizontal) return
    const figure = (r: number, c: number) => this.isBlockFigure(sheet, r, c, range)
    const missing: { row: number; col: number }[] = []
    if (vertical) {
      for (let r = range.bottom + 1; r < row; r++) if (figure(r, col)) missing.push({ row: r, col })
      for (let r = range.top - 1; r >= 0 && figure(r, col); r--) missing.push({ row: r, col })
    } else {
      for (let c = range.right + 1; c < col; c++) if (figure(row, c)) missing.push({ row, col: c })
      for (let c = range.left - 1; c >= 0 && figure(row, c); c--) missing.push({ row, col: c })
    }
    if (missing.length === 0) return
    missing.sort((a, b) => a.row - b.row || a.col - b.col)
    const block = { top: Math.min(range.top, missing[0].row), bottom: Math.max(range.bottom, missing.at(-1)!.row), left: Math.min(range.left, missing[0].col), right: Math.max(range.right, missing.at(-1)!.col) }
    const position = { sheet, row, col }
    const missed = missing.map((cell) => ({ sheet, ...cell }))
    this.add({
      rule: 'incomplete-total',
      severity: 'error',
      cells: [position, ...missed],
      message: `${this.where(position)} totals ${formatRange(range)} but misses ${this.list(missed)}, which ${missed.length === 1 ? 'is' : 'are'} part of the same block of figures`,
      fix: `Extend the total to =SUM(${formatRange(block)})`,
    })
  }

  /**
   * A cell that belongs with the figures of a total's range: a number, in the range's number format,
   * not a header and not a bold subtotal (unless the range's own cells are bold).
   */
  private isBlockFigure(sheet: SheetRecord, row: number, col: number, range: RangeAddress): boolean {
    const value = this.state.engine.getValueAt(sheet.name, row, col)
    if (typeof value !== 'number') return false
    if (this.scope.layout(sheet).headerRows.some((header) => header.row === row)) return false
    const format = (r: number, c: number) => this.state.formatAtPosition(sheet.id, r, c) ?? this.state.engine.getSuggestedFormat(sheet.name, formatAddress(r, c))
    const bold = (r: number, c: number) => this.state.styleAtPosition(sheet.id, r, c)?.bold === true
    if (format(row, col) !== format(range.top, range.left)) return false
    return bold(row, col) === bold(range.top, range.left)
  }

  /** Error cells traced to the cells their errors start at. */
  private errorOrigins(erroring: CellPosition[]): void {
    if (erroring.length === 0) return
    const inError = new Set(erroring.map((cell) => key(cell.sheet, cell.row, cell.col)))
    const origins = erroring.filter((cell) => !this.readsAnError(cell))
    const explained = new Set<string>()
    for (const origin of origins) {
      const value = this.state.engine.getValueAt(origin.sheet.name, origin.row, origin.col)
      const code = isCellError(value) ? value.code : '#ERROR!'
      const downstream = this.errorDependents(origin, inError)
      for (const cell of [origin, ...downstream]) explained.add(key(cell.sheet, cell.row, cell.col))
      const typed = !this.state.engine.getInputAt(origin.sheet.name, origin.row, origin.col).startsWith('=')
      const known = ERROR_CAUSES[code] ?? { cause: 'its calculation failed', fix: 'Check the formula and the cells it reads' }
      this.add({
        rule: 'error-cell',
        severity: 'error',
        cells: [origin, ...downstream],
        message:
          `${this.where(origin)} shows ${code}${typed ? ', typed in as a value' : ` because ${known.cause} (${this.formulaAt(origin)})`}` +
          (downstream.length > 0 ? `; ${plural(downstream.length, 'other cell')} show${downstream.length === 1 ? 's' : ''} it because they depend on it` : ''),
        fix: typed ? 'Replace the typed error with the value it stands for' : known.fix,
      })
    }
    // Errors fed by a loop among error cells (no origin of their own) are reported where they are.
    const rest = erroring.filter((cell) => !explained.has(key(cell.sheet, cell.row, cell.col)))
    if (rest.length > 0) {
      this.add({ rule: 'error-cell', severity: 'error', cells: rest, message: `${plural(rest.length, 'cell')} show errors that feed each other: ${this.list(rest)}`, fix: 'Correct the formulas these cells share' })
    }
  }

  /** Whether a cell reads another cell that shows an error. */
  private readsAnError(cell: CellPosition): boolean {
    for (const reference of this.reader.referencesOf(cell.sheet, cell.row, cell.col)) {
      if (!reference.sheet) continue
      const { range } = reference
      const area = (range.bottom - range.top + 1) * (range.right - range.left + 1)
      if (area > MAX_SCANNED_RANGE) continue
      for (let r = range.top; r <= range.bottom; r++) {
        for (let c = range.left; c <= range.right; c++) {
          if (r === cell.row && c === cell.col && reference.sheet === cell.sheet) continue
          if (isCellError(this.state.engine.getValueAt(reference.sheet.name, r, c))) return true
        }
      }
    }
    return false
  }

  /** The error cells that depend on an origin, breadth first. */
  private errorDependents(origin: CellPosition, inError: Set<string>): CellPosition[] {
    this.dependents ??= new DependentsIndex(this.state)
    const seen = new Set([key(origin.sheet, origin.row, origin.col)])
    const found: CellPosition[] = []
    const queue = [origin]
    while (queue.length > 0) {
      const next = queue.shift()!
      for (const reader of this.dependents.readersOf(next.sheet, next.row, next.col)) {
        const readerKey = key(reader.sheet, reader.row, reader.col)
        if (seen.has(readerKey) || !inError.has(readerKey)) continue
        seen.add(readerKey)
        found.push(reader)
        queue.push(reader)
      }
    }
    return found
  }

  /** Loops of formulas: errors where the workbook does not iterate, by design where it does. */
  private circularReferences(): void {
    const engine = this.state.engine
    const wanted = new Set(this.sheets.map((sheet) => sheet.id))
    if (!engine.getIterativeSettings().enabled) {
      for (const cycle of engine.getCircularReferences()) {
        const cells = cycle.flatMap((cell) => {
          const sheet = this.state.findSheet(cell.sheet)
          return sheet ? [{ sheet, ...parseAddress(cell.address) }] : []
        })
        if (!cells.some((cell) => wanted.has(cell.sheet.id))) continue
        this.add({
          rule: 'circular-reference',
          severity: 'error',
          cells,
          message: `${plural(cells.length, 'cell')} read each other in a loop, which is not calculated (they keep their last values or 0): ${this.list(cells)}`,
          fix: 'Break the loop (make one of them read an input or the previous period), or switch on iterative calculation if the loop is meant (interest on average balances)',
        })
      }
      return
    }
    for (const cycle of this.loops()) {
      if (!cycle.some((cell) => wanted.has(cell.sheet.id))) continue
      this.add({
        rule: 'circular-reference',
        severity: 'info',
        cells: cycle,
        message: `${plural(cycle.length, 'cell')} read each other in a loop, calculated iteratively (at most 100 passes, until no value moves by 0.001): ${this.list(cycle)}`,
        fix: 'Keep a switch that breaks the loop (such as interest on opening balances) for when it does not settle',
      })
    }
  }

  /** Strongly connected groups of formula cells (Tarjan's algorithm, without recursion). */
  private loops(): CellPosition[][] {
    const positions = new Map<string, CellPosition>()
    for (const sheet of this.state.sheets) {
      this.state.engine.forEachCell(sheet.name, (cell) => {
        if (cell.formula !== undefined) positions.set(key(sheet, cell.row, cell.col), { sheet, row: cell.row, col: cell.col })
      })
    }
    const edges = (cell: CellPosition): string[] => {
      const out: string[] = []
      for (const reference of this.reader.referencesOf(cell.sheet, cell.row, cell.col)) {
        if (!reference.sheet) continue
        const { range } = reference
        if ((range.bottom - range.top + 1) * (range.right - range.left + 1) > MAX_SCANNED_RANGE) continue
        for (let r = range.top; r <= range.bottom; r++) for (let c = range.left; c <= range.right; c++) {
          const target = key(reference.sheet, r, c)
          if (positions.has(target)) out.push(target)
        }
      }
      return out
    }
    const index = new Map<string, number>()
    const low = new Map<string, number>()
    const stack: string[] = []
    const onStack = new Set<string>()
    const groups: CellPosition[][] = []
    let counter = 0
    for (const start of positions.keys()) {
      if (index.has(start)) continue
      const work: { node: string; next: string[]; at: number }[] = [{ node: start, next: edges(positions.get(start)!), at: 0 }]
      index.set(start, counter)
      low.set(start, counter++)
      stack.push(start)
      onStack.add(start)
      while (work.length > 0) {
        const frame = work.at(-1)!
        if (frame.at < frame.next.length) {
          const target = frame.next[frame.at++]
          if (!index.has(target)) {
            index.set(target, counter)
            low.set(target, counter++)
            stack.push(target)
            onStack.add(target)
            work.push({ node: target, next: edges(positions.get(target)!), at: 0 })
          } else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!))
          continue
        }
        work.pop()
        if (work.length > 0) {
          const parent = work.at(-1)!.node
          low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!))
        }
        if (low.get(frame.node) === index.get(frame.node)) {
          const group: string[] = []
          let member: string
          do {
            member = stack.pop()!
            onStack.delete(member)
            group.push(member)
          } while (member !== frame.node)
          const selfLoop = group.length === 1 && edges(positions.get(group[0])!).includes(group[0])
          if (group.length > 1 || selfLoop) groups.push(group.map((id) => positions.get(id)!).sort(byPosition(this.state.sheets)))
        }
      }
    }
    return groups
  }

  // ---- reporting ------------------------------------------------------------------------------------

  private add(finding: Raw): void {
    this.found.push(finding)
  }

  private report(): AuditReport {
    const order = byPosition(this.state.sheets)
    const sorted = [...this.found].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || order(a.cells[0], b.cells[0]))
    const counts = { error: 0, warning: 0, info: 0 }
    for (const finding of sorted) counts[finding.severity]++
    const findings: AuditFinding[] = sorted.slice(0, MAX_AUDIT_FINDINGS).map((finding) => ({
      rule: finding.rule,
      severity: finding.severity,
      cells: finding.cells.slice(0, MAX_AUDIT_FINDING_CELLS).map((cell) => this.where(cell)),
      message: finding.message,
      fix: finding.fix,
    }))
    return {
      findings,
      counts,
      unlisted: Math.max(0, sorted.length - MAX_AUDIT_FINDINGS),
      inputSheet: this.inputSheet?.name ?? null,
      checkedCells: this.checkedCells,
      checkedFormulas: this.checkedFormulas,
    }
  }

  private where(cell: CellPosition): string {
    return cellText(cell.sheet.name, cell.row, cell.col)
  }

  /** The cell's address with its row label, when it has one: "FCF!C11 (Unlevered free cash flow)". */
  private list(cells: CellPosition[]): string {
    const shown = cells.slice(0, 8).map((cell) => {
      const label = cellLabelAt(this.state, cell.sheet, cell.row, cell.col)
      return label ? `${this.where(cell)} (${label})` : this.where(cell)
    })
    return cells.length > 8 ? `${shown.join(', ')} and ${cells.length - 8} more` : shown.join(', ')
  }

  private formulaAt(cell: CellPosition): string {
    const input = this.state.engine.getInputAt(cell.sheet.name, cell.row, cell.col)
    return input.length > 120 ? `${input.slice(0, 120)}…` : input
  }
}

function parse(formula: string, address: string): FormulaNode | undefined {
  try {
    return parseFormulaText(formula, address)
  } catch {
    return undefined
  }
}

/** Numbers typed into a formula that stand for assumptions, as written (percentages with %). */
function typedNumbersIn(tree: FormulaNode): string[] {
  const found: string[] = []
  const visit = (node: FormulaNode, positional: boolean): void => {
    switch (node.type) {
      case 'number':
        if (!positional && !STRUCTURAL_NUMBERS.has(Math.abs(node.value))) found.push(String(node.value))
        return
      case 'percent':
        if (node.operand.type === 'number') {
          if (!positional) found.push(`${node.operand.value}%`)
          return
        }
        visit(node.operand, positional)
        return
      case 'call': {
        const structural = POSITIONAL_FUNCTIONS.has(node.name.toUpperCase())
        // The first argument of a positional function is still a value (ROUND's number, INDEX's array).
        node.args.forEach((arg, index) => visit(arg, structural && index > 0))
        return
      }
      case 'invoke':
        visit(node.callee, positional)
        for (const arg of node.args) visit(arg, positional)
        return
      case 'unary':
      case 'spill':
        visit(node.operand, positional)
        return
      case 'group':
        visit(node.expression, positional)
        return
      case 'binary':
      case 'rangeOp':
      case 'intersection':
        visit(node.left, positional)
        visit(node.right, positional)
        return
      case 'union':
        for (const item of node.items) visit(item, positional)
        return
      case 'array':
        return
      default:
        return
    }
  }
  visit(tree, false)
  return found
}

function placedRange(node: Extract<FormulaNode, { type: 'range' }>, row: number, col: number): RangeAddress {
  const r = (corner: typeof node.start) => (corner.rowAbsolute ? corner.row : row + corner.row)
  const c = (corner: typeof node.start) => (corner.colAbsolute ? corner.col : col + corner.col)
  const [top, bottom] = [r(node.start), r(node.end)].sort((a, b) => a - b)
  const [left, right] = [c(node.start), c(node.end)].sort((a, b) => a - b)
  return { top, bottom, left, right }
}

function byPosition(sheets: readonly SheetRecord[]): (a: CellPosition, b: CellPosition) => number {
  const order = new Map(sheets.map((sheet, index) => [sheet.id, index]))
  return (a, b) => (order.get(a.sheet.id) ?? 0) - (order.get(b.sheet.id) ?? 0) || a.row - b.row || a.col - b.col
}

function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? noun : nouns}`
}
