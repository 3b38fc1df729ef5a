/**
 * The cells and ranges a formula reads (its precedents), and the reverse: which formulas read a cell
 * (its dependents). A formula's references are read from its syntax tree, where relative references
 * are offsets from the formula's own cell; the copies of a filled formula share one tree, so the
 * index of dependents parses each shape once.
 */
import { MAX_COL, MAX_ROW, parseFormulaText, type FormulaNode, type NameInfo } from '@finsheet/formula'
import { formatAddress, formatRange, formatSheetPrefix, type RangeAddress, type SheetRecord, type WorkbookModel } from '@finsheet/workbook'

/** A cell or range a formula reads. */
export interface Reference {
  /** Undefined for a sheet that does not exist here (another workbook, a deleted sheet). */
  sheet: SheetRecord | undefined
  sheetName: string
  range: RangeAddress
  /** `Sheet!A1` or `Sheet!A1:B5`. */
  text: string
  /** The defined name the reference came through. */
  name?: string
}

type Corner = { row: number; col: number; rowAbsolute: boolean; colAbsolute: boolean }

/** A reference as the tree holds it: relative parts are offsets from the formula's cell. */
interface RelativeReference {
  sheet: string | undefined
  kind: 'cells' | 'columns' | 'rows'
  start: Corner
  end: Corner
}

/** Collects a tree's references; defined names are collected by name. */
function collect(node: FormulaNode, references: RelativeReference[], names: { name: string; sheet?: string }[]): void {
  switch (node.type) {
    case 'cell':
      references.push({ sheet: node.sheet, kind: 'cells', start: node.ref, end: node.ref })
      return
    case 'range':
      references.push({ sheet: node.sheet, kind: node.kind, start: node.start, end: node.end })
      return
    case 'name':
      names.push({ name: node.name, ...(node.sheet !== undefined ? { sheet: node.sheet } : {}) })
      return
    case 'call':
      for (const arg of node.args) collect(arg, references, names)
      return
    case 'invoke':
      collect(node.callee, references, names)
      for (const arg of node.args) collect(arg, references, names)
      return
    case 'unary':
    case 'percent':
    case 'spill':
      collect(node.operand, references, names)
      return
    case 'group':
      collect(node.expression, references, names)
      return
    case 'binary':
    case 'rangeOp':
    case 'intersection':
      collect(node.left, references, names)
      collect(node.right, references, names)
      return
    case 'union':
      for (const item of node.items) collect(item, references, names)
      return
    case 'array':
      for (const row of node.rows) for (const item of row) collect(item, references, names)
      return
    default:
      return
  }
}

const clampRow = (row: number) => Math.max(0, Math.min(MAX_ROW, row))
const clampCol = (col: number) => Math.max(0, Math.min(MAX_COL, col))

/** A relative reference seen from a cell, as a range. */
function placed(reference: RelativeReference, row: number, col: number): RangeAddress {
  const r = (corner: Corner) => clampRow(corner.rowAbsolute ? corner.row : row + corner.row)
  const c = (corner: Corner) => clampCol(corner.colAbsolute ? corner.col : col + corner.col)
  if (reference.kind === 'columns') {
    const [a, b] = [c(reference.start), c(reference.end)]
    return { top: 0, bottom: MAX_ROW, left: Math.min(a, b), right: Math.max(a, b) }
  }
  if (reference.kind === 'rows') {
    const [a, b] = [r(reference.start), r(reference.end)]
    return { top: Math.min(a, b), bottom: Math.max(a, b), left: 0, right: MAX_COL }
  }
  const [top, bottom] = [r(reference.start), r(reference.end)]
  const [left, right] = [c(reference.start), c(reference.end)]
  return { top: Math.min(top, bottom), bottom: Math.max(top, bottom), left: Math.min(left, right), right: Math.max(left, right) }
}

/** What a formula shape reads, parsed once and placed for each copy. */
interface ShapeReferences {
  references: RelativeReference[]
  names: { name: string; sheet?: string }[]
}

function shapeReferences(formula: string, row: number, col: number): ShapeReferences {
  const references: RelativeReference[] = []
  const names: { name: string; sheet?: string }[] = []
  try {
    collect(parseFormulaText(formula, formatAddress(row, col)), references, names)
  } catch {
    // A formula that does not parse reads nothing.
  }
  return { references, names }
}

/** Reads the references of formulas, each shape parsed once, for one state of a workbook. */
export class ReferenceReader {
  private readonly shapes = new Map<string, ShapeReferences>()
  private readonly names: NameInfo[]

  constructor(private readonly state: WorkbookModel) {
    this.names = state.engine.getNames()
  }

  /** The references of the formula in a cell (none when it holds no formula). */
  referencesOf(sheet: SheetRecord, row: number, col: number): Reference[] {
    const formula = this.state.engine.getFormula(sheet.name, formatAddress(row, col))
    if (formula === undefined) return []
    const shape = this.state.engine.getFormulaShapeAt(sheet.name, row, col)
    let parsed = shape === undefined ? undefined : this.shapes.get(shape)
    if (!parsed) {
      parsed = shapeReferences(formula, row, col)
      if (shape !== undefined) this.shapes.set(shape, parsed)
    }
    const found: Reference[] = []
    for (const reference of parsed.references) found.push(this.reference(reference.sheet ?? sheet.name, placed(reference, row, col)))
    for (const use of parsed.names) found.push(...this.nameReferences(use.name, use.sheet ?? sheet.name, use.sheet !== undefined))
    return found
  }

  private reference(sheetName: string, range: RangeAddress, name?: string): Reference {
    const sheet = this.state.findSheet(sheetName)
    const shownName = sheet?.name ?? sheetName
    return { sheet, sheetName: shownName, range, text: `${formatSheetPrefix(shownName)}!${formatRange(range)}`, ...(name !== undefined ? { name } : {}) }
  }

  /** The cells a defined name stands for, seen from a sheet (a sheet's own name wins over the workbook's). */
  private nameReferences(name: string, sheetName: string, qualified: boolean): Reference[] {
    const upper = name.toUpperCase()
    const sheetUpper = sheetName.toUpperCase()
    const definition =
      this.names.find((info) => info.name.toUpperCase() === upper && info.scope?.toUpperCase() === sheetUpper) ??
      (qualified ? undefined : this.names.find((info) => info.name.toUpperCase() === upper && info.scope === undefined))
    if (!definition) return []
    const parsed = shapeReferences(definition.formula, 0, 0)
    return parsed.references.map((reference) => this.reference(reference.sheet ?? definition.scope ?? sheetName, placed(reference, 0, 0), definition.name))
  }
}

/** A cell position on a sheet, as one key. */
const positionKey = (sheetId: string, row: number, col: number) => `${sheetId}!${row}:${col}`

export interface CellPosition {
  sheet: SheetRecord
  row: number
  col: number
}

/** Which formulas read each cell, built from every formula of a workbook at once. */
export class DependentsIndex {
  private readonly cellReaders = new Map<string, CellPosition[]>()
  private readonly rangeReaders = new Map<string, { range: RangeAddress; reader: CellPosition }[]>()

  constructor(state: WorkbookModel) {
    const reader = new ReferenceReader(state)
    for (const sheet of state.sheets) {
      state.engine.forEachCell(sheet.name, (cell) => {
        if (cell.formula === undefined) return
        const position: CellPosition = { sheet, row: cell.row, col: cell.col }
        for (const reference of reader.referencesOf(sheet, cell.row, cell.col)) {
          if (!reference.sheet) continue
          const { range } = reference
          if (range.top === range.bottom && range.left === range.right) {
            const key = positionKey(reference.sheet.id, range.top, range.left)
            const readers = this.cellReaders.get(key)
            if (readers) readers.push(position)
            else this.cellReaders.set(key, [position])
          } else {
            let list = this.rangeReaders.get(reference.sheet.id)
            if (!list) this.rangeReaders.set(reference.sheet.id, (list = []))
            list.push({ range, reader: position })
          }
        }
      })
    }
  }

  /** The formulas that read a cell directly, by a reference to it or to a range holding it. */
  readersOf(sheet: SheetRecord, row: number, col: number): CellPosition[] {
    const found = [...(this.cellReaders.get(positionKey(sheet.id, row, col)) ?? [])]
    for (const { range, reader } of this.rangeReaders.get(sheet.id) ?? []) {
      if (row >= range.top && row <= range.bottom && col >= range.left && col <= range.right) found.push(reader)
    }
    const seen = new Set<string>()
    return found.filter((position) => {
      const key = positionKey(position.sheet.id, position.row, position.col)
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
  }
}
