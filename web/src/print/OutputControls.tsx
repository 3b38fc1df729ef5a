import type { PageSetup } from '@finsheet/contracts'
import { useCallback, useEffect, useState } from 'react'
import { rangeAddress } from '../grid/address'
import { selectionRange } from '../grid/selection'
import { errorText } from '../pages/error-text'
import { useWorkspace } from '../spreadsheet/workspace-context'
import { toast } from '../toasts/toast-store'
import { downloadBlob } from '../workbook/file-exports'
import { onOutputRequest, type OutputRequest } from './output-requests'
import { PageSetupDialog } from './PageSetupDialog'
import { writePdf } from './pdf-export'
import { NOTHING_TO_PRINT, pageSetupOf, printJob, type PrintJob, type SheetChoice } from './print-job'
import { PrintView } from './PrintView'

/** The file name of an exported PDF: the workbook's name, without characters file systems refuse. */
export function pdfFileName(workbookName: string | undefined): string {
  const base = (workbookName ?? 'Workbook').replace(/[\\/:*?"<>|]+/g, ' ').trim() || 'Workbook'
  return `${base}.pdf`
}

/**
 * Page setup, Print and Export PDF over the open workbook, whichever the menus, the toolbar or
 * Ctrl+P asked for: the dialog, the print view the browser prints, the PDF download.
 */
export function OutputControls() {
  const [ws, workspace] = useWorkspace()
  const [setupSheet, setSetupSheet] = useState<string | null>(null)
  const [choice, setChoice] = useState<SheetChoice>({ kind: 'active' })
  const [printing, setPrinting] = useState<PrintJob | null>(null)
  const { store, selection } = ws

  const jobFor = useCallback(
    (which: SheetChoice): PrintJob | null => {
      const { store: current, sheet: active } = workspace.state
      if (!current) return null
      const job = printJob(current, active, which)
      if (job.pages.length === 0) {
        toast({ title: 'Error', description: NOTHING_TO_PRINT, variant: 'destructive' })
        return null
      }
      return job
    },
    [workspace],
  )

  const exportPdf = useCallback(
    async (which: SheetChoice) => {
      const job = jobFor(which)
      const current = workspace.state.store
      if (!job || !current) return
      try {
        const bytes = await writePdf(job.pages, job.sources, current.name ?? 'Workbook')
        downloadBlob(new Blob([bytes as BlobPart], { type: 'application/pdf' }), pdfFileName(current.name))
        toast({ title: 'PDF exported', description: `${job.pages.length} page${job.pages.length === 1 ? '' : 's'} saved as ${pdfFileName(current.name)}.`, variant: 'success' })
      } catch (error) {
        console.error('PDF export failed', error)
        toast({ title: 'Error', description: `The PDF could not be made: ${errorText(error)}`, variant: 'destructive' })
      }
    },
    [jobFor, workspace],
  )

  const run = useCallback(
    (request: OutputRequest, which: SheetChoice) => {
      if (!workspace.state.store) return
      if (request === 'page-setup') setSetupSheet(workspace.state.sheet)
      else if (request === 'print') setPrinting(jobFor(which))
      else void exportPdf(which)
    },
    [exportPdf, jobFor, workspace],
  )

  useEffect(() => onOutputRequest((request) => run(request, choice)), [run, choice])

  // The print view is in the page before the browser's print dialog opens; it goes once printing ends.
  useEffect(() => {
    if (!printing) return
    const done = () => setPrinting(null)
    window.addEventListener('afterprint', done)
    const frame = requestAnimationFrame(() => {
      window.print()
    })
    return () => {
      cancelAnimationFrame(frame)
      window.removeEventListener('afterprint', done)
    }
  }, [printing])

  const apply = (setup: PageSetup, then: 'close' | 'print' | 'export-pdf') => {
    const target = setupSheet
    setSetupSheet(null)
    if (!target || !store) return
    try {
      if (JSON.stringify(setup) !== JSON.stringify(pageSetupOf(store, target))) workspace.dispatch({ type: 'set-sheet-view', sheet: target, pageSetup: setup })
    } catch (error) {
      toast({ title: 'Error', description: errorText(error), variant: 'destructive' })
      return
    }
    if (then !== 'close') run(then, choice)
    requestAnimationFrame(() => workspace.focusGrid())
  }

  return (
    <>
      <PageSetupDialog
        sheet={setupSheet}
        current={setupSheet && store ? pageSetupOf(store, setupSheet) : {}}
        selection={rangeAddress(selectionRange(selection))}
        sheetNames={store?.sheetNames ?? []}
        choice={choice}
        onChoice={setChoice}
        onApply={apply}
        onClose={() => {
          setSetupSheet(null)
          requestAnimationFrame(() => workspace.focusGrid())
        }}
      />
      {printing && <PrintView job={printing} />}
    </>
  )
}
