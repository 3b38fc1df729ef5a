/** The workbook in the shape of the cells route (GET /workbook/{id}/cells), for export and for the route itself. */
import type { CellsResponse, SheetCells } from '@finsheet/contracts'
import { toApiCell } from '../model/cell-record.js'
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
