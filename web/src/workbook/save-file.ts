/**
 * Save (.json): the whole workbook in one file the import dialog reads back into a new workbook.
 * The file keeps the fields of a saved sheet state (the active sheet's cells with value and formula,
 * the selection) so that readers of the older form still find them; the workbook itself is under
 * `workbook`, in the body the workbook import route takes: every sheet with its inputs, styles,
 * number formats, merges, widths and layout, the defined names, tables, links and calculation mode.
 */
import type { ImportSheet, ImportWorkbookBody, SheetState } from '@finsheet/contracts'
import type { Selection } from '../grid/selection'
import { sheetSaveState } from './file-exports'
import type { WorkbookStore } from './workbook-store'

export const SAVE_FILE_FORMAT = 'finsheet-save'
export const SAVE_FILE_VERSION = 1

/** The workbook part of a save file: what POST /spreadsheet/workbooks/import stores. */
export type SavedWorkbook = Omit<ImportWorkbookBody, 'importId' | 'storageUrl' | 'isAIGenerated'>

export interface SaveFile extends SheetState {
  format: typeof SAVE_FILE_FORMAT
  version: number
  savedAt: string
  /** The sheet the file's top-level cells come from. */
  activeSheet: string
  workbook: SavedWorkbook
}

/** The workbook as the import route takes it; a sheet's cells in row-major order. */
export function savedWorkbook(store: WorkbookStore): SavedWorkbook {
  const snapshot = store.snapshot()
  const sheets: ImportSheet[] = snapshot.sheets.map((sheet) => ({
    name: sheet.name,
    cells: Object.entries(sheet.cells).map(([address, cell]) => ({
      address,
      input: cell.input ?? '',
      ...(cell.style ? { style: cell.style } : {}),
      ...(cell.format ? { format: cell.format } : {}),
    })),
    ...(sheet.columnWidths && Object.keys(sheet.columnWidths).length > 0 ? { columnWidths: { ...sheet.columnWidths } } : {}),
    ...(sheet.merges && sheet.merges.length > 0 ? { merges: [...sheet.merges] } : {}),
    ...(sheet.view ? { view: structuredClone(sheet.view) } : {}),
  }))
  return {
    name: store.name ?? 'Workbook',
    sheets,
    ...(snapshot.definedNames && snapshot.definedNames.length > 0 ? { definedNames: snapshot.definedNames.map((name) => ({ ...name })) } : {}),
    ...(snapshot.tables && snapshot.tables.length > 0 ? { tables: snapshot.tables.map((table) => ({ ...table, columns: [...table.columns] })) } : {}),
    ...(snapshot.externalLinks && snapshot.externalLinks.length > 0 ? { externalLinks: structuredClone(snapshot.externalLinks) } : {}),
    ...(store.calculation.iterate ? { iterativeCalculation: true } : {}),
  }
}

/** The file Save (.json) downloads. */
export function saveFile(store: WorkbookStore, sheet: string, selection: Selection, now = new Date()): SaveFile {
  return {
    format: SAVE_FILE_FORMAT,
    version: SAVE_FILE_VERSION,
    savedAt: now.toISOString(),
    activeSheet: sheet,
    ...sheetSaveState(store, sheet, selection),
    workbook: savedWorkbook(store),
  }
}

export class SaveFileError extends Error {}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The workbook a save file holds, named `name` unless it names itself. A file of the older form (one
 * sheet's state: cells with a value and a formula) becomes a workbook of that sheet. The import route
 * checks every field again; this only tells a file that is no save at all from one that is.
 */
export function readSaveFile(text: string, name: string): SavedWorkbook {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new SaveFileError('The file is not JSON: choose a file saved with File → Save (.json).')
  }
  if (!isObject(parsed)) throw new SaveFileError('The file is not a Finsheet save: choose a file saved with File → Save (.json).')
  if (isObject(parsed.workbook) && Array.isArray(parsed.workbook.sheets)) {
    if (typeof parsed.version === 'number' && parsed.version > SAVE_FILE_VERSION) {
      throw new SaveFileError('The file was saved by a newer version of Finsheet.')
    }
    const workbook = parsed.workbook as unknown as SavedWorkbook
    if (workbook.sheets.length === 0) throw new SaveFileError('The saved workbook has no sheets.')
    return { ...workbook, name: typeof workbook.name === 'string' && workbook.name.trim() !== '' ? workbook.name : name }
  }
  if (isObject(parsed.cells)) return { name, sheets: [olderSheet(parsed.cells)] }
  throw new SaveFileError('The file is not a Finsheet save: it holds no workbook and no cells.')
}

/** A sheet from the older save form: each cell's formula, else its value, is its input. */
function olderSheet(cells: Record<string, unknown>): ImportSheet {
  let sheetName = 'Sheet1'
  const out: ImportSheet['cells'] = []
  for (const [address, cell] of Object.entries(cells)) {
    if (!isObject(cell)) continue
    if (typeof cell.sheetName === 'string' && cell.sheetName.trim() !== '') sheetName = cell.sheetName
    const formula = typeof cell.formula === 'string' && cell.formula.startsWith('=') ? cell.formula : null
    const value = cell.value
    const input = formula ?? (value === null || value === undefined ? '' : String(value))
    const entry: ImportSheet['cells'][number] = { address, input }
    if (isObject(cell.style)) entry.style = cell.style as ImportSheet['cells'][number]['style']
    if (typeof cell.format === 'string') entry.format = cell.format
    if (input !== '' || entry.style || entry.format) out.push(entry)
  }
  return { name: sheetName, cells: out }
}

/** Whether a chosen file is a save file, by its name or type. */
export function isSaveFileName(name: string, mimeType = ''): boolean {
  return name.toLowerCase().endsWith('.json') || mimeType.toLowerCase() === 'application/json'
}
