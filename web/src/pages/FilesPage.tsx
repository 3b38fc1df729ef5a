import type { FileJobResult, FileListTab, FileRecord } from '@finsheet/contracts'
import { Database, RefreshCw, Upload } from 'lucide-react'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useSession } from '../app/app-context'
import { useAssistant } from '../assistant/assistant-react'
import { api } from '../app/services'
import type { FileListState } from '../files/file-manager'
import {
  beginDelete,
  deleteFailed,
  deleteFailureNotice,
  deleteSucceeded,
  FILE_LIST_THROTTLE_MS,
  FILE_TABS,
  fileListState,
  filesInTab,
  isProcessing,
  LOAD_FILES_FAILED,
  mayRefresh,
  tabCounts,
  withLoadedFiles,
} from '../files/file-manager'
import { deleteFile, importFile, listFiles } from '../files/files-api'
import { FileTable } from '../files/FileTable'
import { UploadFileDialog } from '../files/UploadFileDialog'
import { VectorDbDialog } from '../files/VectorDbDialog'
import { toast } from '../toasts/toast-store'
import { ConfirmDialog } from '../ui/ConfirmDialog'
import { errorText } from './error-text'
import { LoadProblem } from './LoadProblem'
import { Tabs } from './Tabs'
import './screens.css'

type LoadStatus = 'loading' | 'ready' | 'error'

/** Spec 2 §2.4 File management: the user's uploads, with upload, import and delete. */
export function FilesPage() {
  const [, controller] = useSession()
  const [, assistant] = useAssistant()
  const [list, setList] = useState<FileListState>(() => fileListState([]))
  const listRef = useRef(list)
  const [status, setStatus] = useState<LoadStatus>('loading')
  const [tab, setTab] = useState<FileListTab>('all')
  const [uploadOpen, setUploadOpen] = useState(false)
  const [vectorOpen, setVectorOpen] = useState(false)
  const [confirming, setConfirming] = useState<FileRecord | null>(null)
  const [importing, setImporting] = useState<string | null>(null)
  const lastLoadedAt = useRef<number | null>(null)

  const commit = useCallback((next: FileListState) => {
    listRef.current = next
    setList(next)
  }, [])

  const load = useCallback(
    async (requestedByUser: boolean) => {
      if (!mayRefresh(lastLoadedAt.current, Date.now(), requestedByUser)) return
      lastLoadedAt.current = Date.now()
      setStatus('loading')
      try {
        const files = await listFiles(api)
        commit(withLoadedFiles(listRef.current, files))
        setStatus('ready')
      } catch (error) {
        console.error(LOAD_FILES_FAILED, error)
        setStatus('error')
      }
    },
    [commit],
  )

  useEffect(() => {
    void load(true)
  }, [load])

  // files still being processed change status on the server: look again after the throttle
  const processing = isProcessing(list.files)
  useEffect(() => {
    if (!processing || status !== 'ready') return
    const timer = setTimeout(() => void load(false), FILE_LIST_THROTTLE_MS)
    return () => clearTimeout(timer)
  }, [processing, status, load])

  const openWorkbook = async (workbookId: string, name: string) => {
    await controller.openWorkbook(workbookId, name)
  }

  const onUploaded = useCallback(
    (fileName: string, result: FileJobResult) => {
      setUploadOpen(false)
      // spec 2 §4: a spreadsheet goes into the grid as soon as it is a workbook
      if (result.workbookId) {
        const name = fileName.replace(/\.[^.]+$/, '')
        assistant.afterUpload(result.workbookId, name)
        void controller.openWorkbook(result.workbookId, name)
      } else {
        if (result.kind === 'pdf') assistant.afterDocument(result.fileId, fileName, result.data?.length ?? 0)
        void load(true)
      }
    },
    [controller, load, assistant],
  )

  const importWorkbook = async (file: FileRecord) => {
    if (importing) return
    setImporting(file.id)
    try {
      const workbook = await importFile(api, file)
      toast({ title: 'Success', description: 'Workbook imported successfully', variant: 'success' })
      await openWorkbook(workbook.workbookId, workbook.name)
    } catch (error) {
      console.error('Import failed', error)
      toast({ title: 'Error', description: `Failed to import workbook: ${errorText(error, 'Import Failed')}`, variant: 'destructive' })
    } finally {
      setImporting(null)
    }
  }

  const remove = async (file: FileRecord) => {
    const { state, started } = beginDelete(listRef.current, file.id)
    if (!started) return
    commit(state)
    try {
      await deleteFile(api, file.id)
      commit(deleteSucceeded(listRef.current, file.id))
      toast({ title: 'Success', description: 'File deleted successfully', variant: 'success' })
    } catch (error) {
      const notice = deleteFailureNotice(error)
      commit(deleteFailed(listRef.current, file.id, notice))
      toast({ title: notice.title, description: notice.description, variant: 'destructive' })
    }
  }

  const counts = tabCounts(list.files)
  const shown = filesInTab(list.files, tab)

  return (
    <div className="page wide-page">
      <div className="page-header-row">
        <header className="page-header">
          <h1>File Management</h1>
          <p>Your uploaded workbooks and documents. Spreadsheets become workbooks you can open and edit.</p>
        </header>
        <div className="page-actions">
          <button type="button" className="button" onClick={() => void load(true)} disabled={status === 'loading'}>
            <RefreshCw size={15} aria-hidden="true" /> Refresh
          </button>
          <button type="button" className="button" onClick={() => setVectorOpen(true)}>
            <Database size={15} aria-hidden="true" /> Import from Vector DB
          </button>
          <button type="button" className="button primary" onClick={() => setUploadOpen(true)}>
            <Upload size={15} aria-hidden="true" /> Upload File
          </button>
        </div>
      </div>

      {status === 'error' && <LoadProblem message={LOAD_FILES_FAILED} onRetry={() => void load(true)} />}

      <Tabs<FileListTab>
        label="File types"
        tabs={FILE_TABS.map((t) => ({ id: t.id, label: `${t.label} (${counts[t.id]})` }))}
        selected={tab}
        onSelect={setTab}
      >
        {shown.length > 0 ? (
          <FileTable
            files={shown}
            failures={list.failures}
            importing={importing}
            onOpen={(file) => file.workbookId && void openWorkbook(file.workbookId, file.name.replace(/\.[^.]+$/, ''))}
            onImport={(file) => void importWorkbook(file)}
            onDelete={setConfirming}
          />
        ) : status === 'loading' && lastLoadedAt.current !== null && list.files.length === 0 ? (
          <p className="muted" role="status">
            Loading files…
          </p>
        ) : (
          status !== 'error' && <p className="empty-state">{tab === 'all' ? 'No files yet. Upload an Excel workbook, a CSV file or a PDF document.' : 'No files of this type.'}</p>
        )}
      </Tabs>

      <UploadFileDialog open={uploadOpen} onClose={() => setUploadOpen(false)} onUploaded={onUploaded} />
      <VectorDbDialog
        open={vectorOpen}
        onClose={() => setVectorOpen(false)}
        onOpen={(workbookId, name) => {
          setVectorOpen(false)
          void openWorkbook(workbookId, name)
        }}
      />
      <ConfirmDialog
        open={confirming !== null}
        title="Delete file?"
        message={confirming ? `${confirming.name} will be deleted. Workbooks made from it are kept.` : ''}
        confirmLabel="Delete"
        destructive
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          const file = confirming
          setConfirming(null)
          if (file) void remove(file)
        }}
      />
    </div>
  )
}
