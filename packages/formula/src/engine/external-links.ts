/**
 * Other workbooks' values, as a file keeps them for the formulas that refer to them (an xlsx file's
 * external-link parts). The engine never opens another file: like Excel opening a workbook whose
 * sources are closed or missing, it calculates external references from these cached values.
 *
 * Which cells answer: a file caches, for each external sheet, the cells its formulas read when it was
 * last saved (Excel leaves out the empty cells of a range). A single cell the cache does not hold, on a
 * sheet or workbook the file has no cache for, or on a sheet whose last refresh failed, is #REF!, which
 * is what Excel shows for an external reference whose source it cannot read. A range is read from the
 * cells held inside it (the others are empty), and is #REF! when the cache holds none of its cells.
 */
import { fileNameOf, splitExternalSheetName } from '../address/external.js'
import { parseAddress } from '../address/a1.js'
import type { Scalar, SheetView } from '../values.js'

/** Another workbook a file links to, with the values it keeps of it. */
export interface ExternalWorkbook {
  /** The linked file as the link names it: `Budget.xlsx`, `../Plans/Budget.xlsx`, `file:///C:/Budget.xlsx`. */
  target: string
  /** Its sheets in the order the link lists them; `[1]Sheet1` finds a sheet by name, ignoring case. */
  sheets: ExternalWorkbookSheet[]
}

export interface ExternalWorkbookSheet {
  name: string
  /** Cached values by A1 address; null for a cell held without a value. */
  cells: Record<string, Scalar>
  /** The sheet could not be read when the link was last refreshed: its references are #REF!. */
  refreshError?: boolean
}

/** An external workbook as the engine lists it (`Engine.getExternalLinks`). */
export interface ExternalLinkInfo {
  /** The number formulas in files use for it (`[1]`): its position in the list, from 1. */
  index: number
  target: string
  /** The file name alone (`Budget.xlsx`), which typed references (`[Budget.xlsx]Q1!B2`) name. */
  fileName: string
  sheets: string[]
  /** How many formula cells refer to it. */
  formulaCells: number
}

/** Cell keys in one number, as the engine's sheets index them. */
function cellKey(row: number, col: number): number {
  return row * 16_384 + col
}

/**
 * A sheet of another workbook as references read it. One instance per name a formula uses, kept by the
 * engine and refilled whenever the links change, so compiled formulas can hold it.
 */
export class ExternalSheet implements SheetView {
  /** Held cells by key, sorted column by column then row by row (the order range walks visit). */
  private keys: number[] = []
  private values = new Map<number, Scalar>()
  /** The file has cached values for this sheet. */
  available = false

  constructor(
    readonly id: number,
    /** The reference's sheet name as formulas write it (`[1]Sheet1`). */
    readonly name: string,
  ) {}

  /** Fills the sheet from a cache; undefined when there is none (every reference is then #REF!). */
  fill(sheet: ExternalWorkbookSheet | undefined): void {
    this.values = new Map()
    this.available = sheet !== undefined && sheet.refreshError !== true
    if (sheet === undefined || !this.available) {
      this.keys = []
      return
    }
    for (const [address, value] of Object.entries(sheet.cells)) {
      const { row, col } = parseAddress(address)
      this.values.set(cellKey(row, col), value)
    }
    this.keys = [...this.values.keys()].sort((a, b) => (a % 16_384) - (b % 16_384) || a - b)
  }

  holds(row: number, col: number): boolean {
    return this.values.has(cellKey(row, col))
  }

  /** Whether the cache holds a cell of the block. */
  holdsAny(top: number, left: number, bottom: number, right: number): boolean {
    let found = false
    this.forEachKey(top, left, bottom, right, () => {
      found = true
      return false
    })
    return found
  }

  read(row: number, col: number): Scalar {
    return this.values.get(cellKey(row, col)) ?? null
  }

  private forEachKey(top: number, left: number, bottom: number, right: number, visit: (key: number, row: number, col: number) => boolean | void): void {
    for (const key of this.keys) {
      const col = key % 16_384
      const row = (key - col) / 16_384
      if (col < left || col > right || row < top || row > bottom) continue
      if (visit(key, row, col) === false) return
    }
  }

  forEachInBlock(top: number, left: number, bottom: number, right: number, visit: (value: Scalar, row: number, col: number) => boolean | void): void {
    this.forEachKey(top, left, bottom, right, (key, row, col) => {
      const value = this.values.get(key) ?? null
      if (value === null) return undefined
      return visit(value, row, col)
    })
  }

  usedRowEnd(left: number, right: number): number {
    let end = 0
    this.forEachKey(0, left, Number.MAX_SAFE_INTEGER, right, (_key, row) => {
      end = Math.max(end, row + 1)
    })
    return end
  }

  usedColEnd(top: number, bottom: number): number {
    let end = 0
    this.forEachKey(top, 0, bottom, Number.MAX_SAFE_INTEGER, (_key, _row, col) => {
      end = Math.max(end, col + 1)
    })
    return end
  }

  isSubtotalCell(): boolean {
    return false
  }

  hasFormula(): boolean {
    return false
  }

  formulaText(): undefined {
    return undefined
  }
}

/** The workbook an external sheet name points at: `[2]` by position, `[Budget.xlsx]` by file name. */
export function findExternalWorkbook(links: readonly ExternalWorkbook[], name: string): { index: number; workbook: ExternalWorkbook } | undefined {
  const parts = splitExternalSheetName(name)
  if (parts === undefined) return undefined
  if (/^[0-9]+$/.test(parts.workbook) && parts.path === '') {
    const index = Number(parts.workbook)
    const workbook = links[index - 1]
    return workbook === undefined ? undefined : { index, workbook }
  }
  const wanted = parts.workbook.toUpperCase()
  const position = links.findIndex((link) => fileNameOf(link.target).toUpperCase() === wanted)
  return position < 0 ? undefined : { index: position + 1, workbook: links[position] }
}

/** The cached sheet an external sheet name reads, if the links hold one. */
export function findExternalSheet(links: readonly ExternalWorkbook[], name: string): ExternalWorkbookSheet | undefined {
  const parts = splitExternalSheetName(name)
  const found = findExternalWorkbook(links, name)
  if (parts === undefined || found === undefined || parts.sheet === '') return undefined
  const wanted = parts.sheet.toUpperCase()
  return found.workbook.sheets.find((sheet) => sheet.name.toUpperCase() === wanted)
}
