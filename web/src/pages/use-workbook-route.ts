import { useNavigate } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { useSession } from '../app/app-context'
import { useWorkspace } from '../spreadsheet/workspace-context'

/** What the spreadsheet screen shows. */
export type SpreadsheetScreen = 'grid' | 'welcome' | 'resolving'

/**
 * The spreadsheet screen follows its address. `/workbooks/$workbookId?sheet=` opens that workbook on
 * that sheet, and a sheet switch writes the new sheet back (replacing the entry), so that a reload, a
 * bookmark or a second tab opens the same workbook and sheet. `/` (no id) opens the session's active
 * or most recent workbook at its own address, or shows the welcome screen to a user without one.
 */
export function useWorkbookRoute(workbookId: string | undefined, sheet: string | undefined): SpreadsheetScreen {
  const [session, controller] = useSession()
  const [ws] = useWorkspace()
  const navigate = useNavigate()
  const [home, setHome] = useState<'resolving' | 'welcome'>('resolving')
  const ready = session.status === 'ready'

  // the address names a workbook (and a sheet): show it
  useEffect(() => {
    if (workbookId === undefined || !ready) return
    void controller.show(workbookId, sheet)
  }, [controller, ready, workbookId, sheet])

  // the user switched sheets: the address follows, without a new history entry
  const openId = ws.store?.id
  const openSheet = ws.sheet
  useEffect(() => {
    if (workbookId === undefined || openId !== workbookId || !openSheet || openSheet === sheet) return
    void navigate({ to: '/workbooks/$workbookId', params: { workbookId }, search: { sheet: openSheet }, replace: true })
  }, [navigate, workbookId, openId, openSheet, sheet])

  // `/`: the workbook to open, or the welcome screen
  useEffect(() => {
    if (workbookId !== undefined || !ready) return
    let live = true
    setHome('resolving')
    controller
      .homeWorkbook()
      .then((id) => {
        if (!live || id === undefined) return
        if (id === null) setHome('welcome')
        else void navigate({ to: '/workbooks/$workbookId', params: { workbookId: id }, replace: true })
      })
      .catch((error: unknown) => {
        console.error('Failed to find the workbook to open', error)
        if (live) setHome('welcome')
      })
    return () => {
      live = false
    }
  }, [controller, navigate, ready, workbookId])

  if (workbookId !== undefined) return 'grid'
  return ready ? home : 'resolving'
}
