import type { UserSession } from '@finsheet/contracts'
import { plural } from '../ui/plural'
import type { WorkbookSnapshot } from '../workbook/workbook-store'
import { DEFAULT_WORKBOOK_ID, sessionWorkbookSnapshot } from './session-workbook'

/** Whether the default workbook (kept in the session) holds any cell: the open copy when it is open. */
export function defaultWorkbookHasCells(session: UserSession | null, open: { id: string; snapshot(): WorkbookSnapshot } | null): boolean {
  const snapshot = open?.id === DEFAULT_WORKBOOK_ID ? open.snapshot() : session?.workbooks[DEFAULT_WORKBOOK_ID] ? sessionWorkbookSnapshot(DEFAULT_WORKBOOK_ID, session.workbooks[DEFAULT_WORKBOOK_ID]) : null
  return snapshot !== null && snapshot.sheets.some((sheet) => Object.values(sheet.cells).some((cell) => (cell.input ?? '') !== ''))
}

/**
 * What Clear everything erases and what it keeps, one line each, as the confirmation says it: the
 * session's list of workbooks (the workbooks stay in the spreadsheet service), the default workbook's
 * cells (kept first as a workbook with a version), and everything kept in this browser.
 */
export function clearEverythingEffects(session: UserSession | null, defaultHasCells: boolean): string[] {
  const kept = Object.keys(session?.workbooks ?? {}).filter((id) => id !== DEFAULT_WORKBOOK_ID).length
  return [
    kept > 0
      ? `Your session forgets its ${plural(kept, 'workbook')}. They stay in your account with their versions: open them again from Version Control.`
      : 'Your session forgets which workbook was open.',
    defaultHasCells
      ? 'The Default Workbook is emptied. Its cells are first saved as a new workbook, “Default Workbook (cleared …)”, which you can open and restore from Version Control.'
      : 'The Default Workbook is empty: nothing in it is lost.',
    'Everything Finsheet keeps in this browser is wiped: your sign-in (you sign in again) and the tour and welcome notices. Edits not yet saved are saved first; if they cannot be, nothing is cleared.',
    'Then the page reloads.',
  ]
}
