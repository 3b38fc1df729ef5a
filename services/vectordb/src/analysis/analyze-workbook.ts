import type { AnalysisFinding, AnalysisType, CellsResponse, WorkbookAnalysis } from '@finsheet/contracts'
import { parseFormulaText, type FormulaNode } from '@finsheet/formula'
import { addressOf, SheetModel, type PlacedCell } from '../workbooks/sheet-model.js'

/** A cell of the workbook with where it is and what it depends on. */
interface ModelCell extends PlacedCell {
  sheet: string
  key: string
  label: string | null
  precedents: string[]
}

const keyOf = (sheet: string, row: number, col: number) => `${sheet.toUpperCase()}!${row}:${col}`

/** Cells a formula reads, with ranges read as the used cells inside them. */
function precedentsOf(formula: string, cell: PlacedCell, sheet: string, used: (sheet: string) => PlacedCell[] | undefined): string[] {
  let tree: FormulaNode
  try {
    tree = parseFormulaText(formula, cell.address)
  } catch {
    return []
  }
  const found = new Set<string>()
  const at = (ref: { row: number; col: number; rowAbsolute: boolean; colAbsolute: boolean }) => ({
    row: ref.rowAbsolute ? ref.row : cell.row + ref.row,
    col: ref.colAbsolute ? ref.col : cell.col + ref.col,
  })
  const walk = (node: FormulaNode): void => {
    if (node.type === 'cell') {
      const { row, col } = at(node.ref)
      found.add(keyOf(node.sheet ?? sheet, row, col))
      return
    }
    if (node.type === 'range') {
      const target = node.sheet ?? sheet
      const a = at(node.start)
      const b = at(node.end)
      const [top, bottom] = node.kind === 'columns' ? [0, Number.MAX_SAFE_INTEGER] : [Math.min(a.row, b.row), Math.max(a.row, b.row)]
      const [left, right] = node.kind === 'rows' ? [0, Number.MAX_SAFE_INTEGER] : [Math.min(a.col, b.col), Math.max(a.col, b.col)]
      for (const other of used(target) ?? []) if (other.row >= top && other.row <= bottom && other.col >= left && other.col <= right) found.add(keyOf(target, other.row, other.col))
      return
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) for (const item of value.flat()) if (item && typeof item === 'object' && 'type' in item) walk(item as FormulaNode)
      if (value && typeof value === 'object' && !Array.isArray(value) && 'type' in value) walk(value as FormulaNode)
    }
  }
  walk(tree)
  return [...found]
}

/** Numbers written into a formula itself ('=B3*1.05'), other than 0, 1 and 100 and the powers in '^2'. */
function literalsOf(formula: string): number[] {
  try {
    const numbers: number[] = []
    const walk = (node: FormulaNode, exponent = false): void => {
      if (node.type === 'number' && !exponent && ![0, 1, 100].includes(node.value)) numbers.push(node.value)
      for (const [key, value] of Object.entries(node)) {
        if (Array.isArray(value)) for (const item of value.flat()) if (item && typeof item === 'object' && 'type' in item) walk(item as FormulaNode)
        if (value && typeof value === 'object' && !Array.isArray(value) && 'type' in value) walk(value as FormulaNode, node.type === 'binary' && node.operator === '^' && key === 'right')
      }
    }
    walk(parseFormulaText(formula))
    return numbers
  } catch {
    return []
  }
}

export interface AnalysisOptions {
  analysisType?: AnalysisType
  limit?: number
  sheet?: string
}

/**
 * The rule-based analysis of a model: what drives it (inputs most formulas depend on, directly or
 * through others), what it is for (results nothing else reads), what is broken (error values and
 * where they start) and what may be forgotten (numbers typed into rows that are otherwise formulas).
 */
export function analyzeWorkbook(workbook: CellsResponse['workbook'], options: AnalysisOptions = {}): Omit<WorkbookAnalysis, 'summary' | 'narrator'> {
  const limit = options.limit ?? 20
  const analysisType = options.analysisType ?? 'overview'
  const models = new Map(workbook.sheets.map((sheet) => [sheet.name.toUpperCase(), new SheetModel(sheet)]))
  const cells = new Map<string, ModelCell>()
  for (const sheet of workbook.sheets) {
    const model = models.get(sheet.name.toUpperCase()) as SheetModel
    for (const cell of model.cells) {
      const label = model.rowLabel(cell.row)
      cells.set(keyOf(sheet.name, cell.row, cell.col), {
        ...cell,
        sheet: sheet.name,
        key: keyOf(sheet.name, cell.row, cell.col),
        label: label && label.col < cell.col ? String(label.value).trim() : null,
        precedents: [],
      })
    }
  }
  for (const cell of cells.values()) {
    if (cell.formula) cell.precedents = precedentsOf(cell.formula, cell, cell.sheet, (name) => models.get(name.toUpperCase())?.cells).filter((key) => key !== cell.key)
  }
  const dependents = new Map<string, string[]>()
  for (const cell of cells.values()) for (const key of cell.precedents) dependents.set(key, [...(dependents.get(key) ?? []), cell.key])

  /** Cells reached from `start` by following `next`, not counting `start`. */
  const reach = (start: string, next: (key: string) => readonly string[]) => {
    const seen = new Set<string>([start])
    const stack = [...next(start)]
    let count = 0
    while (stack.length > 0) {
      const key = stack.pop() as string
      if (seen.has(key)) continue
      seen.add(key)
      if (cells.get(key)?.formula) count++
      stack.push(...next(key))
    }
    return count
  }
  const inSheet = (cell: ModelCell) => !options.sheet || cell.sheet.toUpperCase() === options.sheet.toUpperCase()
  const finding = (cell: ModelCell, reason: string, reachCount: number): AnalysisFinding => ({
    sheet: cell.sheet,
    address: cell.address,
    label: cell.label,
    value: cell.value,
    formula: cell.formula,
    reason,
    reach: reachCount,
  })
  const all = [...cells.values()].filter(inSheet)

  const keyDrivers = all
    .filter((cell) => !cell.formula && typeof cell.value === 'number' && (dependents.get(cell.key)?.length ?? 0) > 0)
    .map((cell) => ({ cell, reach: reach(cell.key, (key) => dependents.get(key) ?? []) }))
    .sort((a, b) => b.reach - a.reach)
    .slice(0, limit)
    .map(({ cell, reach: count }) => finding(cell, `${count} formula cell${count === 1 ? '' : 's'} depend on this input`, count))

  const outputs = all
    .filter((cell) => cell.formula && (dependents.get(cell.key)?.length ?? 0) === 0 && cell.precedents.length > 0)
    .map((cell) => ({ cell, reach: reach(cell.key, (key) => cells.get(key)?.precedents ?? []) }))
    .sort((a, b) => Number(b.cell.label !== null) - Number(a.cell.label !== null) || b.reach - a.reach)
    .slice(0, limit)
    .map(({ cell, reach: count }) => finding(cell, `A result no other cell uses, calculated from ${count} formula cell${count === 1 ? '' : 's'}`, count))

  const errors = all
    .filter((cell) => cell.type === 'error')
    .map((cell) => {
      const source = cell.precedents.map((key) => cells.get(key)).find((other) => other?.type === 'error')
      const reason = source ? `Shows ${String(cell.value)} because ${source.sheet}!${source.address} does` : `The formula gives ${String(cell.value)}`
      return finding(cell, reason, dependents.get(cell.key)?.length ?? 0)
    })
    .sort((a, b) => Number(a.reason.startsWith('Shows')) - Number(b.reason.startsWith('Shows')))
    .slice(0, limit)

  const hardcodedNumbers: AnalysisFinding[] = []
  for (const sheet of workbook.sheets) {
    if (options.sheet && sheet.name.toUpperCase() !== options.sheet.toUpperCase()) continue
    const model = models.get(sheet.name.toUpperCase()) as SheetModel
    for (const [row, label] of model.labelledRows()) {
      const figures = model.row(row).filter((cell) => cell.col > label.col && model.isFigure(cell))
      const formulas = figures.filter((cell) => cell.formula !== null)
      if (formulas.length >= 2 && formulas.length > figures.length / 2) {
        for (const cell of figures) {
          if (cell.formula === null && typeof cell.value === 'number') {
            const modelCell = cells.get(keyOf(sheet.name, cell.row, cell.col)) as ModelCell
            hardcodedNumbers.push(finding(modelCell, `A typed number in a row of formulas (${label.value}): ${formulas.length} of its ${figures.length} figures are calculated`, dependents.get(modelCell.key)?.length ?? 0))
          }
        }
      }
      for (const cell of formulas) {
        const literals = literalsOf(cell.formula as string)
        if (literals.length > 0) {
          const modelCell = cells.get(keyOf(sheet.name, cell.row, cell.col)) as ModelCell
          hardcodedNumbers.push(finding(modelCell, `The formula holds the number${literals.length === 1 ? '' : 's'} ${literals.slice(0, 3).join(', ')} rather than a reference to an input`, dependents.get(modelCell.key)?.length ?? 0))
        }
      }
    }
  }

  const wants = (part: AnalysisType) => analysisType === 'overview' || analysisType === part
  const formulas = [...cells.values()].filter((cell) => cell.formula).length
  return {
    workbookId: workbook.workbookId,
    workbookName: workbook.name,
    analysisType,
    keyDrivers: wants('drivers') ? keyDrivers : [],
    outputs: wants('outputs') ? outputs : [],
    errors: wants('errors') ? errors : [],
    // Typed numbers among formulas first (the likeliest to be forgotten), then numbers inside formulas.
    hardcodedNumbers: wants('hardcodes') ? hardcodedNumbers.sort((a, b) => Number(b.formula === null) - Number(a.formula === null) || b.reach - a.reach).slice(0, limit) : [],
    stats: { sheets: workbook.sheets.length, cells: cells.size, formulas, inputs: [...cells.values()].filter((cell) => !cell.formula && typeof cell.value === 'number').length },
  }
}

export { addressOf }
