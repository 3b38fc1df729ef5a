import type { SessionCell, SheetEntry, UserSession, WorkbookEntry } from '@finsheet/contracts'
import type { CellStyle } from '../grid/types'
import type { WorkbookSnapshot } from '../workbook/workbook-store'

export const DEFAULT_WORKBOOK_ID = 'defaultWorkbook'
export const DEFAULT_SHEET_NAME = 'Sheet1'

/**
 * Spec 1 §4: a session has a real workbook unless its only workbook is a single, empty
 * 'defaultWorkbook'.
 */
export function hasRealWorkbook(session: UserSession | null): boolean {
  if (!session) return false
  const ids = Object.keys(session.workbooks)
  if (ids.length === 0) return false
  if (ids.length > 1 || ids[0] !== DEFAULT_WORKBOOK_ID) return true
  const entry = session.workbooks[DEFAULT_WORKBOOK_ID]
  const sheets = Object.values(entry.sheets)
  if (sheets.length > 1) return true
  return sheets.some((sheet) => Object.values(sheet.state.cells ?? {}).some(cellHasContent))
}

function cellHasContent(cell: SessionCell): boolean {
  return (cell.formula !== undefined && cell.formula !== null && cell.formula !== '') || (cell.value !== undefined && cell.value !== null && cell.value !== '')
}

/** The input a session cell stands for: its formula, or its value as typed. */
export function sessionCellInput(cell: SessionCell): string {
  if (cell.formula) return cell.formula.startsWith('=') ? cell.formula : `=${cell.formula}`
  if (cell.value === undefined || cell.value === null) return ''
  if (typeof cell.value === 'boolean') return cell.value ? 'TRUE' : 'FALSE'
  return String(cell.value)
}

/** A workbook kept in the session (the default workbook) as the store opens it. */
export function sessionWorkbookSnapshot(id: string, entry: WorkbookEntry): WorkbookSnapshot {
  const order = entry.sheetOrder.filter((name) => entry.sheets[name])
  for (const name of Object.keys(entry.sheets)) if (!order.includes(name)) order.push(name)
  if (order.length === 0) order.push(DEFAULT_SHEET_NAME)
  return {
    id,
    name: entry.name,
    sheets: order.map((name) => {
      const cells: WorkbookSnapshot['sheets'][number]['cells'] = {}
      for (const [address, cell] of Object.entries(entry.sheets[name]?.state.cells ?? {})) {
        const input = sessionCellInput(cell)
        const style = cell.style as CellStyle | undefined
        const format = cell.format ?? undefined
        if (input === '' && !style && !format) continue
        cells[address] = { input, ...(style ? { style } : {}), ...(format ? { format } : {}) }
      }
      const state = entry.sheets[name]?.state
      return {
        name,
        cells,
        ...(state?.columnWidths ? { columnWidths: state.columnWidths } : {}),
        ...(state?.merges ? { merges: state.merges } : {}),
      }
    }),
  }
}

/** The value a cell shows, as the session stores it beside the formula. */
export type CellValueReader = (sheet: string, address: string) => string | number | boolean | null

/**
 * Writes the open workbook back into its session entry: one sheet entry per sheet with its cells
 * (formula and value), the order and the active sheet. Other state of each sheet is kept.
 */
export function updateSessionWorkbook(
  entry: WorkbookEntry | undefined,
  snapshot: WorkbookSnapshot,
  activeSheet: string,
  readValue: CellValueReader,
  now: string,
): WorkbookEntry {
  const sheets: Record<string, SheetEntry> = {}
  for (const sheet of snapshot.sheets) {
    const cells: Record<string, SessionCell> = {}
    for (const [address, cell] of Object.entries(sheet.cells)) {
      const input = cell.input ?? ''
      const out: SessionCell = {}
      if (input.startsWith('=')) {
        out.formula = input
        out.value = readValue(sheet.name, address)
      } else if (input !== '') {
        out.value = input
      }
      if (cell.style) out.style = cell.style as Record<string, unknown>
      if (cell.format) out.format = cell.format
      cells[address] = out
    }
    const previous = entry?.sheets[sheet.name]
    const { columnWidths: _widths, merges: _merges, ...previousState } = previous?.state ?? {}
    sheets[sheet.name] = {
      state: {
        ...previousState,
        cells,
        activeView: previous?.state.activeView ?? 'spreadsheet',
        ...(sheet.columnWidths && Object.keys(sheet.columnWidths).length > 0 ? { columnWidths: sheet.columnWidths } : {}),
        ...(sheet.merges && sheet.merges.length > 0 ? { merges: sheet.merges } : {}),
      },
      lastModified: now,
    }
  }
  const order = snapshot.sheets.map((s) => s.name)
  const recently = [activeSheet, ...(entry?.recentlyOpened ?? []).filter((n) => n !== activeSheet && order.includes(n))].slice(0, 10)
  return {
    ...(entry?.name !== undefined ? { name: entry.name } : {}),
    activeSheet,
    recentlyOpened: recently,
    sheetOrder: order,
    totalSheets: order.length,
    sheets,
  }
}
