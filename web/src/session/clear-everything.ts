import type { UserSession, WorkbookMetadata } from '@finsheet/contracts'
import { plural } from '../ui/plural'

/**
 * What Clear everything erases and what it keeps, one line each, as the confirmation says it: the
 * session's memory of the workbooks (the workbooks themselves stay in the spreadsheet service, the
 * user's first one included), and everything kept in this browser.
 */
export function clearEverythingEffects(session: UserSession | null, workbooks: readonly Pick<WorkbookMetadata, 'id'>[] | null): string[] {
  const remembered = Object.keys(session?.workbooks ?? {}).length
  const kept = workbooks?.length ?? 0
  return [
    remembered > 0
      ? `Your session forgets which workbook was open and where you were in ${plural(remembered, 'workbook')}.`
      : 'Your session forgets which workbook was open.',
    kept > 0
      ? `${kept === 1 ? 'Your workbook stays' : `Your ${plural(kept, 'workbook')} stay`} in your account with ${kept === 1 ? 'its' : 'their'} cells and versions: open ${kept === 1 ? 'it' : 'them'} again from the workbooks list (File → Open).`
      : 'You have no workbook yet: nothing of yours is erased.',
    'Everything Finsheet keeps in this browser is wiped: your sign-in (you sign in again) and the tour and welcome notices. Edits not yet saved are saved first; if they cannot be, nothing is cleared.',
    'Then the page reloads.',
  ]
}
