/** The workbook in the shape of the cells route (GET /workbook/{id}/cells), for export and for the route itself. */
import type { CellInputTuple, CellsResponse, CellStyle, InputsResponse, SheetCells } from '@finsheet/contracts'
import { effectiveFormat, toApiCell } from '../model/cell-record.js'
import type { SheetSnapshot, WorkbookSnapshot } from '../model/snapshot.js'
import { hasContent } from '../model/snapshot.js'

/** One sheet with its cells keyed by address; rowCount and columnCount reach just past the last used cell. */
export function toSheetCells(sheet: Pick<SheetSnapshot, 'name' | 'cells' | 'columnWidths' | 'merges'>): SheetCells {
  const cells: SheetCells['cells'] = {}
  let rowCount = 0
  let columnCount = 0
  for (const record of sheet.cells) {
    cells[record.address] = toApiCell(record)
    rowCount = Math.max(rowCount, record.row + 1)
    columnCount = Math.max(columnCount, record.col + 1)
  }
  return { name: sheet.name, cells, rowCount, columnCount, columnWidths: { ...sheet.columnWidths }, merges: [...sheet.merges] }
}

export interface CellsJsonOptions {
  workbookId: string
  /** Only this sheet (all sheets when absent). */
  sheet?: string
}

/** The `workbook` part of the cells route's answer. */
export function toCellsJson(snapshot: WorkbookSnapshot, options: CellsJsonOptions): CellsResponse['workbook'] {
  const sheets = options.sheet === undefined ? snapshot.sheets : snapshot.sheets.filter((sheet) => sheet.name === options.sheet)
  let totalCells = 0
  for (const sheet of snapshot.sheets) for (const cell of sheet.cells) if (hasContent(cell)) totalCells++
  return {
    workbookId: options.workbookId,
    name: snapshot.name,
    revision: snapshot.revision,
    sheets: sheets.map(toSheetCells),
    sheetOrder: snapshot.sheets.map((sheet) => sheet.name),
    totalCells,
    totalSheets: snapshot.sheets.length,
  }
}

/**
 * The `workbook` part of the inputs route's answer (GET /workbook/{id}/inputs): each sheet's inputs,
 * styles (as indexes into one table of the distinct styles) and formats row by row, without values.
 * `sheetOrder` names every sheet of the workbook, whichever sheets are given.
 */
export function toInputsJson(snapshot: WorkbookSnapshot, workbookId: string, sheetOrder: string[], options: { iterativeCalculation?: boolean } = {}): InputsResponse['workbook'] {
  const styles: CellStyle[] = []
  const styleIndex = new Map<string, number>()
  const indexOf = (style: CellStyle): number => {
    const key = JSON.stringify(style)
    let index = styleIndex.get(key)
    if (index === undefined) styleIndex.set(key, (index = styles.push(style) - 1))
    return index
  }
  const sheets = snapshot.sheets.map((sheet) => {
    const cells: CellInputTuple[] = []
    let rowCount = 0
    let columnCount = 0
    for (const record of sheet.cells) {
      const format = effectiveFormat(record)
      // A cell only filled by a spilling formula is the client's to calculate.
      if (record.input === '' && !record.style && format === null) continue
      cells.push([record.address, record.input, record.style ? indexOf(record.style) : -1, format ?? ''])
      rowCount = Math.max(rowCount, record.row + 1)
      columnCount = Math.max(columnCount, record.col + 1)
    }
    return { name: sheet.name, cells, rowCount, columnCount, columnWidths: { ...sheet.columnWidths }, merges: [...sheet.merges] }
  })
  return { workbookId, name: snapshot.name, revision: snapshot.revision, sheets, sheetOrder, styles, iterativeCalculation: options.iterativeCalculation ?? false }
}
