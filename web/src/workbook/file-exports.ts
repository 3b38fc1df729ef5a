import type { SessionCell, SheetState } from '@finsheet/contracts'
import { cellAddress, columnLabel, parseCellAddress } from '../grid/address'
import type { Selection } from '../grid/selection'
import { selectionRange } from '../grid/selection'
import { isEngineError } from './calc-engine'
import type { WorkbookStore } from './workbook-store'

export const SAVE_FILE_NAME = 'spreadsheet-save.json'

type Scalar = string | number | boolean | null

function valueOf(store: WorkbookStore, sheet: string, address: string): Scalar {
  const pos = parseCellAddress(address)
  if (!pos) return null
  const value = store.getValue(sheet, pos)
  return isEngineError(value) ? value.code : value
}

/** The active sheet's state (selection, cells with value and formula): the top-level fields of a save file. */
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
