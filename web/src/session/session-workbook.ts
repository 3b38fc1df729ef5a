import type { CellStyle, ImportCell, ImportSheet, SessionCell, UserSession, WorkbookEntry, WorkbookMetadata } from '@finsheet/contracts'
import { DEFAULT_SHEET_NAME, DEFAULT_WORKBOOK_ID } from '@finsheet/contracts'

export { DEFAULT_SHEET_NAME, DEFAULT_WORKBOOK_ID }

/**
 * The session keeps where the user was, never cells: which workbook is active, and for each workbook
 * opened (the most recent last) its active sheet and recently opened sheets. Every workbook, the
 * user's first included, lives in the spreadsheet service; `defaultWorkbook` is the name of that first
 * one until the service has told its id.
 */

/** Workbooks the session remembers; the least recently opened are forgotten past this. */
export const MAX_SESSION_WORKBOOKS = 50
/** Sheets a workbook entry lists as recently opened. */
export const MAX_RECENT_SHEETS = 10

/**
 * Whether the user has a workbook worth opening: any workbook, unless the only one is their first
 * workbook left empty (one sheet, no cell).
 */
export function hasRealWorkbook(workbooks: readonly Pick<WorkbookMetadata, 'isDefault' | 'totalSheets' | 'totalCells'>[] | null): boolean {
  if (!workbooks || workbooks.length === 0) return false
  if (workbooks.length > 1) return true
  const [only] = workbooks
  return !only.isDefault || only.totalSheets > 1 || only.totalCells > 0
}

/**
 * What `/` opens: the session's active workbook when the service still has it (its first workbook
 * when the session names `defaultWorkbook`), else the most recently changed one; null for the welcome
 * screen, when the user has no real workbook (`evenEmpty`: only when they have none at all). `exists`
 * asks the service about an active workbook the list (its first page) does not show.
 */
export async function homeWorkbookId(
  session: Pick<UserSession, 'activeWorkbook'> | null,
  workbooks: readonly WorkbookMetadata[],
  exists: (id: string) => Promise<boolean>,
  options: { evenEmpty?: boolean } = {},
): Promise<string | null> {
  if (workbooks.length === 0 || (!options.evenEmpty && !hasRealWorkbook(workbooks))) return null
  const active = session?.activeWorkbook
  if (active === DEFAULT_WORKBOOK_ID) {
    const first = workbooks.find((workbook) => workbook.isDefault)
    if (first) return first.id
  } else if (active) {
    if (workbooks.some((workbook) => workbook.id === active)) return active
    if (await exists(active)) return active
  }
  return workbooks[0].id
}

/** A workbook's session entry as the user leaves it: the active sheet first among the recent ones. */
export function workbookEntry(previous: WorkbookEntry | undefined, sheetOrder: readonly string[], activeSheet: string, name?: string): WorkbookEntry {
  const recent = [activeSheet, ...(previous?.recentlyOpened ?? []).filter((sheet) => sheet !== activeSheet && sheetOrder.includes(sheet))].slice(0, MAX_RECENT_SHEETS)
  const kept = name ?? previous?.name
  return {
    ...(kept !== undefined ? { name: kept } : {}),
    activeSheet,
    recentlyOpened: recent,
    sheetOrder: [...sheetOrder],
    totalSheets: sheetOrder.length,
    sheets: {},
  }
}

/**
 * The session with `id` active and its entry the most recent (last). The `defaultWorkbook` entry a
 * new session starts with only stands for the first workbook until a workbook of the service is
 * opened: it goes then. The oldest entries go past MAX_SESSION_WORKBOOKS.
 */
export function withOpenedWorkbook<S extends Pick<UserSession, 'activeWorkbook' | 'workbooks'>>(session: S, id: string, entry: WorkbookEntry): S {
  const others = Object.entries(session.workbooks).filter(([key]) => key !== id && key !== DEFAULT_WORKBOOK_ID)
  const kept = others.slice(Math.max(0, others.length - (MAX_SESSION_WORKBOOKS - 1)))
  return { ...session, activeWorkbook: id, workbooks: Object.fromEntries([...kept, [id, entry]]) }
}

/** The session without a workbook (deleted, or gone from the service). */
export function withoutWorkbook<S extends Pick<UserSession, 'activeWorkbook' | 'workbooks'>>(session: S, id: string): S {
  const workbooks = { ...session.workbooks }
  delete workbooks[id]
  return { ...session, workbooks, activeWorkbook: session.activeWorkbook === id ? DEFAULT_WORKBOOK_ID : session.activeWorkbook }
}

/** The input a session cell stands for: its formula, or its value as typed. */
export function sessionCellInput(cell: SessionCell): string {
  if (cell.formula) return cell.formula.startsWith('=') ? cell.formula : `=${cell.formula}`
  if (cell.value === undefined || cell.value === null) return ''
  if (typeof cell.value === 'boolean') return cell.value ? 'TRUE' : 'FALSE'
  return String(cell.value)
}

const STYLE_FIELDS = ['bold', 'italic', 'underline', 'fontFamily', 'fontSize', 'color', 'fill', 'align'] as const

/** The fields of a stored look that a cell style has, with their kinds checked. */
function cellStyle(style: Record<string, unknown> | undefined): CellStyle | undefined {
  if (!style) return undefined
  const out: Record<string, unknown> = {}
  for (const field of STYLE_FIELDS) {
    const value = style[field]
    if (value === undefined || value === null) continue
    const wanted = field === 'bold' || field === 'italic' || field === 'underline' ? 'boolean' : field === 'fontSize' ? 'number' : 'string'
    if (typeof value === wanted) out[field] = value
  }
  return Object.keys(out).length > 0 ? (out as CellStyle) : undefined
}

/**
 * The cells a session still holds for its default workbook, from before every workbook lived in the
 * spreadsheet service, as the sheets that workbook is created with; null when it holds none.
 */
export function legacyDefaultSheets(session: Pick<UserSession, 'workbooks'> | null): ImportSheet[] | null {
  const entry = session?.workbooks[DEFAULT_WORKBOOK_ID]
  if (!entry) return null
  const order = entry.sheetOrder.filter((name) => entry.sheets[name])
  for (const name of Object.keys(entry.sheets)) if (!order.includes(name)) order.push(name)
  let any = false
  const sheets = order.map((name): ImportSheet => {
    const state = entry.sheets[name].state
    const cells: ImportCell[] = []
    for (const [address, cell] of Object.entries(state.cells ?? {})) {
      const input = sessionCellInput(cell)
      const style = cellStyle(cell.style)
      const format = cell.format ?? undefined
      if (input === '' && !style && !format) continue
      cells.push({ address, input, ...(style ? { style } : {}), ...(format ? { format } : {}) })
    }
    if (cells.length > 0) any = true
    return {
      name,
      cells,
      ...(state.columnWidths && Object.keys(state.columnWidths).length > 0 ? { columnWidths: state.columnWidths } : {}),
      ...(state.merges && state.merges.length > 0 ? { merges: state.merges } : {}),
    }
  })
  return any ? sheets : null
}
