import type { WorkbookMetadata } from '@finsheet/contracts'
import { Copy, FilePlus2, FileSpreadsheet, Pencil, Table2, Trash2 } from 'lucide-react'
import { useEffect, useMemo, useState } from 'react'
import { useSession } from '../app/app-context'
import { api } from '../app/services'
import { toast, toasts } from '../toasts/toast-store'
import { ConfirmDialog } from '../ui/ConfirmDialog'
import { relativeTime } from '../versions/version-view'
import { listWorkbooks } from '../visualizations/charts-api'
import { RenameWorkbookDialog } from '../workbooks/RenameWorkbookDialog'
import { DELETE_UNDO_MS, deleteMessage, newestFirst, sheetSummary, workbookOrigin, workbookSize } from '../workbooks/workbook-list'
import { errorText } from './error-text'
import { LoadProblem } from './LoadProblem'
import { useRemote } from './use-remote'
import './screens.css'

/** Relative times are redrawn every minute. */
const CLOCK_TICK_MS = 60_000

/**
 * Every workbook the user owns, newest first (File → Open): open, rename, duplicate, and delete with
 * a confirmation and an Undo. Workbooks made from templates, uploads and the assistant are here too.
 */
export function WorkbooksPage() {
  const [session, controller] = useSession()
  const [data, reload] = useRemote((signal) => listWorkbooks(api, signal), [])
  const [renaming, setRenaming] = useState<WorkbookMetadata | null>(null)
  const [deleting, setDeleting] = useState<WorkbookMetadata | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const [now, setNow] = useState(() => Date.now())
  const workbooks = useMemo(() => newestFirst(data.data ?? []), [data.data])
  const openId = controller.openWorkbookId

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), CLOCK_TICK_MS)
    return () => clearInterval(timer)
  }, [])

  // another part of the app (the assistant, an import) changed the list: read it again
  useEffect(() => {
    if (session.workbooks) void reload()
  }, [session.workbooks, reload])

  const duplicate = async (workbook: WorkbookMetadata) => {
    setBusy(workbook.id)
    try {
      const copy = await controller.duplicateWorkbook(workbook.id)
      toast({ title: 'Workbook copied', description: `${copy.name} is a copy of ${workbook.name}.`, variant: 'success' })
    } catch (error) {
      toast({ title: 'Error', description: `The workbook could not be copied: ${errorText(error)}`, variant: 'destructive' })
    } finally {
      setBusy(null)
    }
  }

  const remove = async (workbook: WorkbookMetadata) => {
    setBusy(workbook.id)
    try {
      await controller.deleteWorkbook(workbook.id)
      const notice: string = toast({
        title: 'Workbook deleted',
        description: `${workbook.name} is in the trash.`,
        duration: DELETE_UNDO_MS,
        action: {
          label: 'Undo',
          onClick: () => {
            toasts.dismiss(notice)
            controller.restoreWorkbook(workbook.id).then(
              () => toast({ title: 'Workbook restored', description: `${workbook.name} is back.`, variant: 'success' }),
              (error: unknown) => toast({ title: 'Error', description: `The workbook could not be restored: ${errorText(error)}`, variant: 'destructive' }),
            )
          },
        },
      })
    } catch (error) {
      toast({ title: 'Error', description: `Failed to delete spreadsheet: ${errorText(error)}`, variant: 'destructive' })
    } finally {
      setBusy(null)
    }
  }

  return (
    <div className="page wide-page">
      <div className="page-header-row">
        <header className="page-header">
          <h1>Workbooks</h1>
          <p>Every workbook you own, the most recently changed first: blank ones, copies, templates, uploads and the assistant’s.</p>
        </header>
        <div className="page-actions">
          <button type="button" className="button primary" onClick={() => void controller.createWorkbook()}>
            <FilePlus2 size={15} aria-hidden="true" /> New workbook
          </button>
        </div>
      </div>

      {data.status === 'error' && <LoadProblem message="Your workbooks could not be loaded." onRetry={() => void reload()} />}

      {data.status === 'loading' && !data.data ? (
        <p className="muted" role="status">
          Loading workbooks…
        </p>
      ) : workbooks.length === 0 ? (
        data.status !== 'error' && <p className="empty-state">No workbooks yet. Start a new one, pick a template, or upload a file.</p>
      ) : (
        <table className="data-table workbook-table" aria-label="Your workbooks">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Sheets</th>
              <th scope="col" className="numeric">
                Size
              </th>
              <th scope="col">Last edit</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {workbooks.map((workbook) => {
              const origin = workbookOrigin(workbook)
              return (
                <tr key={workbook.id} aria-current={workbook.id === openId ? 'true' : undefined}>
                  <td>
                    <button type="button" className="link-button file-name" onClick={() => void controller.openWorkbook(workbook.id, workbook.name)}>
                      <FileSpreadsheet size={16} aria-hidden="true" className="sheet-icon" />
                      <span>{workbook.name}</span>
                    </button>
                    {origin && <span className="chip small">{origin}</span>}
                  </td>
                  <td title={workbook.sheets.join(', ')}>{sheetSummary(workbook.sheets)}</td>
                  <td className="numeric">{workbookSize(workbook)}</td>
                  <td title={new Date(workbook.updatedAt).toLocaleString()}>{relativeTime(workbook.updatedAt, now)}</td>
                  <td className="row-actions">
                    <button type="button" className="button small" aria-label={`Open ${workbook.name}`} onClick={() => void controller.openWorkbook(workbook.id, workbook.name)}>
                      <Table2 size={14} aria-hidden="true" /> Open
                    </button>
                    <button type="button" className="button small" aria-label={`Rename ${workbook.name}`} onClick={() => setRenaming(workbook)}>
                      <Pencil size={14} aria-hidden="true" /> Rename
                    </button>
                    <button type="button" className="button small" aria-label={`Duplicate ${workbook.name}`} disabled={busy === workbook.id} onClick={() => void duplicate(workbook)}>
                      <Copy size={14} aria-hidden="true" /> Duplicate
                    </button>
                    <button type="button" className="icon-button small-icon" aria-label={`Delete ${workbook.name}`} title="Delete" disabled={busy === workbook.id} onClick={() => setDeleting(workbook)}>
                      <Trash2 size={16} aria-hidden="true" />
                    </button>
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}

      <RenameWorkbookDialog workbook={renaming} onRename={(id, name) => controller.renameWorkbook(id, name)} onClose={() => setRenaming(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={deleting ? `Delete ${deleting.name}?` : 'Delete workbook?'}
        message={deleting ? deleteMessage(deleting.name) : ''}
        confirmLabel="Delete"
        destructive
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const workbook = deleting
          setDeleting(null)
          if (workbook) void remove(workbook)
        }}
      />
    </div>
  )
}
