import type { Cell, SheetCells } from '@finsheet/contracts'
import { parseCellAddress } from '../grid/address'
import { plural } from '../ui/plural'
import type { ReferencedBlock } from './formula-references'
import { formulaFacts } from './formula-references'

/** How many entries each list of findings keeps. */
export const LIST_LIMIT = 8
/** A value this many median absolute deviations from its row's median stands out. */
export const OUTLIER_DEVIATIONS = 5
/** Ranges smaller than this are expanded cell by cell when finding what formulas read. */
const EXPAND_LIMIT = 10_000

export interface CellRef {
  sheet: string
  address: string
  /** the text that names the cell's row in a model: the nearest text to its left */
  label: string | null
  display: string
}

export interface ErrorFinding extends CellRef {
  code: string
  formula: string | null
  /** none of the cells it reads shows an error: the error starts here */
  source: boolean
}

export interface Trend {
  sheet: string
  label: string
  range: string
  first: number
  last: number
  periods: number
  /** compound growth per period when both ends are positive, else null */
  growth: number | null
  change: number
}

export interface Outlier extends CellRef {
  value: number
  median: number
}

export interface WorkbookInsights {
  figures: { sheets: number; cells: number; formulas: number; numbers: number; text: number; errors: number }
  errors: ErrorFinding[]
  errorSources: number
  largestInputs: (CellRef & { value: number })[]
  unusedInputs: { count: number; cells: CellRef[] }
  hardCoded: { count: number; cells: (CellRef & { formula: string; numbers: number[] })[] }
  trends: Trend[]
  outliers: Outlier[]
  /** formulas name defined names, so some cells may be read without showing here */
  usesNames: boolean
  recommendations: string[]
}

interface Located {
  sheet: string
  address: string
  row: number
  col: number
  cell: Cell
}

function key(sheet: string, row: number, col: number): string {
  return `${sheet.toUpperCase()}!${row}:${col}`
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** The cells of each sheet by row, in column order, for labels and trends. */
function rowsOf(cells: Located[]): Map<number, Located[]> {
  const rows = new Map<number, Located[]>()
  for (const cell of cells) {
    const line = rows.get(cell.row) ?? []
    line.push(cell)
    rows.set(cell.row, line)
  }
  for (const line of rows.values()) line.sort((a, b) => a.col - b.col)
  return rows
}

/** A run of numbers that only counts periods (1, 2, 3… or 2024, 2025…) is a header, not a trend. */
function isPeriodHeader(values: number[]): boolean {
  return values.every((value, index) => Number.isInteger(value) && (index === 0 || value - values[index - 1] === 1))
}

/**
 * Insights computed from a workbook's cells: counts, cells showing errors (and which of them start
 * the error), the largest typed numbers, typed numbers no formula reads, numbers typed inside
 * formulas, how labelled rows of figures move across their columns, values far from the rest of
 * their row, and what to do about them.
 */
export function analyseWorkbook(sheets: readonly Pick<SheetCells, 'name' | 'cells'>[]): WorkbookInsights {
  const all: Located[] = []
  const bySheet = new Map<string, Located[]>()
  for (const sheet of sheets) {
    const list: Located[] = []
    for (const [address, cell] of Object.entries(sheet.cells)) {
      const pos = parseCellAddress(address)
      if (!pos || (cell.input === '' && cell.value === null)) continue
      list.push({ sheet: sheet.name, address, row: pos.row, col: pos.col, cell })
    }
    bySheet.set(sheet.name, list)
    all.push(...list)
  }
  const rowsBySheet = new Map([...bySheet].map(([name, list]) => [name, rowsOf(list)]))

  const labelOf = (sheet: string, row: number, col: number): string | null => {
    const line = rowsBySheet.get(sheet)?.get(row) ?? []
    for (let i = line.length - 1; i >= 0; i--) {
      const candidate = line[i]
      if (candidate.col < col && candidate.cell.type === 'text' && String(candidate.cell.value).trim() !== '') return String(candidate.cell.value).trim().slice(0, 60)
    }
    return null
  }
  const ref = (cell: Located): CellRef => ({ sheet: cell.sheet, address: cell.address, label: labelOf(cell.sheet, cell.row, cell.col), display: cell.cell.display })

  // what every formula reads
  const readCells = new Set<string>()
  const bigBlocks: (ReferencedBlock & { sheet: string })[] = []
  const readsOf = new Map<Located, ReferencedBlock[]>()
  const hardCoded: (CellRef & { formula: string; numbers: number[] })[] = []
  let usesNames = false
  for (const cell of all) {
    if (!cell.cell.formula) continue
    const facts = formulaFacts(cell.cell.formula, cell.address, cell.row, cell.col)
    usesNames ||= facts.usesNames
    readsOf.set(cell, facts.references)
    if (facts.literals.length > 0) hardCoded.push({ ...ref(cell), formula: cell.cell.formula, numbers: facts.literals })
    for (const block of facts.references) {
      const sheet = block.sheet ?? cell.sheet
      const size = (Math.min(block.bottom, 1_048_575) - block.top + 1) * (Math.min(block.right, 16_383) - block.left + 1)
      if (size <= EXPAND_LIMIT) {
        for (let row = block.top; row <= block.bottom; row++) for (let col = block.left; col <= block.right; col++) readCells.add(key(sheet, row, col))
      } else bigBlocks.push({ ...block, sheet })
    }
  }
  const isRead = (cell: Located) =>
    readCells.has(key(cell.sheet, cell.row, cell.col)) ||
    bigBlocks.some((b) => b.sheet.toUpperCase() === cell.sheet.toUpperCase() && cell.row >= b.top && cell.row <= b.bottom && cell.col >= b.left && cell.col <= b.right)

  // errors, and whether each starts there or comes from a cell it reads
  const errorCells = all.filter((cell) => cell.cell.type === 'error')
  const errorKeys = new Set(errorCells.map((cell) => key(cell.sheet, cell.row, cell.col)))
  const readsAnError = (cell: Located, block: ReferencedBlock) => {
    const sheet = block.sheet ?? cell.sheet
    const rows = Math.min(block.bottom, 1_048_575) - block.top + 1
    const cols = Math.min(block.right, 16_383) - block.left + 1
    if (rows * cols <= EXPAND_LIMIT) {
      for (let row = block.top; row < block.top + rows; row++) for (let col = block.left; col < block.left + cols; col++) if (errorKeys.has(key(sheet, row, col))) return true
      return false
    }
    return errorCells.some((other) => other.sheet.toUpperCase() === sheet.toUpperCase() && other.row >= block.top && other.row <= block.bottom && other.col >= block.left && other.col <= block.right)
  }
  const errors: ErrorFinding[] = errorCells.map((cell) => {
    const inherited = (readsOf.get(cell) ?? []).some((block) => readsAnError(cell, block))
    return { ...ref(cell), code: String(cell.cell.value), formula: cell.cell.formula, source: !inherited }
  })
  errors.sort((a, b) => Number(b.source) - Number(a.source))

  // period numbers across a header row (1, 2, 3… or 2024, 2025…) label columns; they are not inputs
  const headerCells = new Set<Located>()
  for (const rows of rowsBySheet.values())
    for (const line of rows.values())
      for (const run of numberRuns(line)) if (run.length >= 3 && isPeriodHeader(run.map((cell) => cell.cell.value as number))) run.forEach((cell) => headerCells.add(cell))
  // typed numbers: the largest, and those no formula reads
  const inputs = all.filter((cell) => !cell.cell.formula && cell.cell.type === 'number' && typeof cell.cell.value === 'number')
  const largestInputs = inputs
    .filter((cell) => !headerCells.has(cell))
    .sort((a, b) => Math.abs(b.cell.value as number) - Math.abs(a.cell.value as number))
    .slice(0, LIST_LIMIT)
    .map((cell) => ({ ...ref(cell), value: cell.cell.value as number }))
  const hasFormulas = readsOf.size > 0
  const unused = hasFormulas ? inputs.filter((cell) => !isRead(cell) && !headerCells.has(cell)) : []

  // labelled rows of figures across their columns
  const trends: Trend[] = []
  const outliers: Outlier[] = []
  for (const [sheet, rows] of rowsBySheet) {
    for (const line of rows.values()) {
      const run = longestNumberRun(line)
      if (run.length < 3) continue
      const values = run.map((cell) => cell.cell.value as number)
      if (isPeriodHeader(values)) continue
      const label = labelOf(sheet, run[0].row, run[0].col)
      if (!label) continue
      const first = values[0]
      const last = values[values.length - 1]
      const periods = values.length - 1
      trends.push({
        sheet,
        label,
        range: `${run[0].address}:${run[run.length - 1].address}`,
        first,
        last,
        periods,
        growth: first > 0 && last > 0 ? (last / first) ** (1 / periods) - 1 : null,
        change: last - first,
      })
      if (values.length >= 4) {
        const middle = median(values)
        const spread = median(values.map((value) => Math.abs(value - middle)))
        if (spread > 0) {
          for (const cell of run) {
            const value = cell.cell.value as number
            if (Math.abs(value - middle) > OUTLIER_DEVIATIONS * spread) outliers.push({ ...ref(cell), value, median: middle })
          }
        }
      }
    }
  }
  const moving = trends.filter((trend) => trend.change !== 0)
  moving.sort((a, b) => Math.abs(b.growth ?? relative(b)) - Math.abs(a.growth ?? relative(a)))

  const figures = {
    sheets: sheets.length,
    cells: all.length,
    formulas: readsOf.size,
    numbers: inputs.length,
    text: all.filter((cell) => cell.cell.type === 'text' && !cell.cell.formula).length,
    errors: errorCells.length,
  }
  const insights: WorkbookInsights = {
    figures,
    errors: errors.slice(0, LIST_LIMIT),
    errorSources: errors.filter((error) => error.source).length,
    largestInputs,
    unusedInputs: { count: unused.length, cells: unused.slice(0, LIST_LIMIT).map(ref) },
    hardCoded: { count: hardCoded.length, cells: hardCoded.slice(0, LIST_LIMIT) },
    trends: moving.slice(0, LIST_LIMIT),
    outliers: outliers.slice(0, LIST_LIMIT),
    usesNames,
    recommendations: [],
  }
  insights.recommendations = recommendationsFor(insights)
  return insights
}

function relative(trend: Trend): number {
  return trend.first === 0 ? Math.sign(trend.change) : trend.change / Math.abs(trend.first)
}

/** The runs of number cells in adjacent columns of a row. */
function numberRuns(line: Located[]): Located[][] {
  const runs: Located[][] = []
  let current: Located[] = []
  for (const cell of line) {
    const isNumber = cell.cell.type === 'number' && typeof cell.cell.value === 'number'
    if (isNumber && current.length > 0 && cell.col === current[current.length - 1].col + 1) current.push(cell)
    else {
      if (current.length > 0) runs.push(current)
      current = isNumber ? [cell] : []
    }
  }
  if (current.length > 0) runs.push(current)
  return runs
}

/** The longest run of number cells in adjacent columns of a row. */
function longestNumberRun(line: Located[]): Located[] {
  return numberRuns(line).reduce<Located[]>((best, run) => (run.length > best.length ? run : best), [])
}

export function cellName(cell: Pick<CellRef, 'sheet' | 'address'>): string {
  return `${/^[A-Za-z_][A-Za-z0-9_]*$/.test(cell.sheet) ? cell.sheet : `'${cell.sheet.replace(/'/g, "''")}'`}!${cell.address}`
}

/** What to do about the findings, most pressing first. */
export function recommendationsFor(insights: Omit<WorkbookInsights, 'recommendations'>): string[] {
  const advice: string[] = []
  const { figures, errors, errorSources, hardCoded, unusedInputs, outliers } = insights
  if (figures.errors > 0) {
    const first = errors.find((error) => error.source) ?? errors[0]
    advice.push(
      `Fix ${plural(figures.errors, 'cell')} showing errors${errorSources > 0 && errorSources < figures.errors ? `: ${plural(errorSources, 'cell')} cause the rest` : ''}. Start with ${cellName(first)} (${first.code}).`,
    )
  }
  if (figures.cells > 0 && figures.formulas === 0) advice.push('This workbook holds no formulas, so none of its figures recalculate. Link totals and results to their inputs.')
  if (hardCoded.count > 0) {
    const first = hardCoded.cells[0]
    advice.push(`Move the numbers typed inside ${plural(hardCoded.count, 'formula')} into labelled input cells, where they can be seen and changed once. First: ${cellName(first)} ${first.formula}.`)
  }
  if (unusedInputs.count > 0) {
    advice.push(`${plural(unusedInputs.count, 'typed number')} ${unusedInputs.count === 1 ? 'is' : 'are'} not read by any formula. Check whether the model should use ${unusedInputs.count === 1 ? 'it' : 'them'}, starting with ${cellName(unusedInputs.cells[0])}.`)
  }
  if (outliers.length > 0) advice.push(`${plural(outliers.length, 'value')} stand${outliers.length === 1 ? 's' : ''} far from the rest of ${outliers.length === 1 ? 'its' : 'their'} row. Check ${cellName(outliers[0])}.`)
  if (advice.length === 0 && figures.cells > 0) advice.push('No problems found: no errors, no numbers typed inside formulas, and every typed number is used.')
  return advice
}
