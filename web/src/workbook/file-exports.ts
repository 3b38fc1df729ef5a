import type { SessionCell, SheetState } from '@finsheet/contracts'
import { cellAddress, columnLabel, parseCellAddress } from '../grid/address'
import type { Selection } from '../grid/selection'
import { selectionRange } from '../grid/selection'
import { isEngineError } from './calc-engine'
import type { WorkbookStore } from './workbook-store'

export const SAVE_FILE_NAME = 'spreadsheet-save.json'
export const EXPORT_FILE_NAME = 'spreadsheet-export.xls'

type Scalar = string | number | boolean | null

function valueOf(store: WorkbookStore, sheet: string, address: string): Scalar {
  const pos = parseCellAddress(address)
  if (!pos) return null
  const value = store.getValue(sheet, pos)
  return isEngineError(value) ? value.code : value
}

/** Spec 1 §7 Save (.json): the active sheet's state (selection, cells with value and formula). */
export function sheetSaveState(store: WorkbookStore, sheet: string, selection: Selection): SheetState {
  const snapshot = store.snapshot().sheets.find((s) => s.name === sheet)
  const cells: Record<string, SessionCell> = {}
  for (const [address, cell] of Object.entries(snapshot?.cells ?? {})) {
    const pos = parseCellAddress(address)!
    const input = cell.input ?? ''
    const entry: SessionCell = {
      value: input.startsWith('=') ? valueOf(store, sheet, address) : input,
      formula: input.startsWith('=') ? input : null,
      sheetName: sheet,
      row: pos.row,
      column: columnLabel(pos.col),
    }
    if (cell.style) entry.style = cell.style as Record<string, unknown>
    if (cell.format) entry.format = cell.format
    cells[address] = entry
  }
  const range = selectionRange(selection)
  return {
    selectedCell: { col: columnLabel(selection.active.col), row: selection.active.row, value: valueOf(store, sheet, cellAddress(selection.active)) },
    selectedRange: { startCol: columnLabel(range.startCol), startRow: range.startRow, endCol: columnLabel(range.endCol), endRow: range.endRow },
    isSelecting: false,
    cells,
    showContextualHelp: false,
    contextualHelpData: null,
    showTour: false,
    gridApi: null,
    editingCell: null,
    formulaBarValue: store.getInput(sheet, selection.active),
    activeView: 'spreadsheet',
  }
}

/**
 * Spec 1 §7 Export (.xls): a header 'Row' followed by the column keys, then one row per data
 * row with its row number and values (blank when missing); 'No data' when the sheet is empty.
 */
export function exportRows(store: WorkbookStore, sheet: string): Scalar[][] {
  if (!store.sheet(sheet)) return [['No data']]
  const last = store.lastUsedCell(sheet)
  if (last.row === 0 && last.col === 0 && !store.isFilled(sheet, last)) return [['No data']]
  const columns = Array.from({ length: last.col + 1 }, (_, i) => columnLabel(i))
  const rows: Scalar[][] = [['Row', ...columns]]
  for (let row = 0; row <= last.row; row++) {
    const line: Scalar[] = [row + 1]
    for (let col = 0; col <= last.col; col++) {
      line.push(store.isFilled(sheet, { col, row }) ? valueOf(store, sheet, cellAddress({ col, row })) : '')
    }
    rows.push(line)
  }
  return rows
}

/** The .xls bytes (Excel 97, one sheet named Sheet1), written by SheetJS loaded on demand. */
export async function exportXls(rows: Scalar[][]): Promise<Blob> {
  const XLSX = await import('@e965/xlsx')
  const book = XLSX.utils.book_new()
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Sheet1')
  const bytes = XLSX.write(book, { bookType: 'biff8', type: 'array' }) as ArrayBuffer
  return new Blob([bytes], { type: 'application/vnd.ms-excel' })
}

/** Saves a blob through the browser's download. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}
