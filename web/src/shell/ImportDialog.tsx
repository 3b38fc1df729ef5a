import { CheckCircle2, FileUp, TriangleAlert } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { api } from '../app/services'
import { ACCEPTED_EXTENSIONS, formatFileSize, IMPORT_TYPE_MESSAGE, isAcceptedFile, NO_FILE_MESSAGE } from '../files/file-types'
import { importDocument } from '../files/import-client'
import { toast } from '../toasts/toast-store'
import { Dialog } from '../ui/Dialog'

/** Spec 2 §4: the dialog closes 2,000 ms after a successful import. */
export const IMPORT_CLOSE_DELAY_MS = 2000

type Phase = 'idle' | 'processing' | 'success' | 'error'

interface ImportDialogProps {
  open: boolean
  onClose(): void
  /** the workbook the document became (null for a PDF's figures), to open at / */
  onImported(workbookId: string | null, name: string): void
}

/** Import Document (spec 2 §2.3): choose or drop a file, process it, follow the real job progress. */
export function ImportDialog({ open, onClose, onImported }: ImportDialogProps) {
  const [file, setFile] = useState<File | null>(null)
  const [phase, setPhase] = useState<Phase>('idle')
  const [progress, setProgress] = useState(0)
  const [message, setMessage] = useState<string | null>(null)
  const [dragging, setDragging] = useState(false)
  const inputRef = useRef<HTMLInputElement>(null)
  const abortRef = useRef<AbortController | null>(null)
  const resultRef = useRef<{ workbookId: string | null; name: string } | null>(null)

  useEffect(() => {
    if (open) return
    abortRef.current?.abort()
    setFile(null)
    setPhase('idle')
    setProgress(0)
    setMessage(null)
  }, [open])

  useEffect(() => {
    if (phase !== 'success') return
    const timer = setTimeout(() => {
      const result = resultRef.current
      if (result) onImported(result.workbookId, result.name)
    }, IMPORT_CLOSE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [phase, onImported])

  const choose = (chosen: File | undefined) => {
    if (!chosen) return
    if (!isAcceptedFile(chosen.name, chosen.type)) {
      setFile(null)
      setPhase('error')
      setMessage(IMPORT_TYPE_MESSAGE)
      return
    }
    setFile(chosen)
    setPhase('idle')
    setMessage(null)
    setProgress(0)
  }

  const process = async () => {
    if (!file) {
      setPhase('error')
      setMessage(NO_FILE_MESSAGE)
      return
    }
    const controller = new AbortController()
    abortRef.current = controller
    setPhase('processing')
    setProgress(0)
    setMessage(null)
    try {
      const { fileName, result } = await importDocument(api, file, setProgress, controller.signal)
      resultRef.current = { workbookId: result.workbookId, name: fileName.replace(/\.[^.]+$/, '') }
      setProgress(100)
      setPhase('success')
      if (result.workbookId) {
        const counts = `${result.cellCount.toLocaleString('en-US')} cells, ${result.formulaCount.toLocaleString('en-US')} formulas`
        setMessage(`${fileName} was imported: ${counts}.`)
        toast({ title: 'Success', description: 'Workbook imported successfully', variant: 'success' })
      } else {
        setMessage(`${fileName} was read: ${(result.data ?? []).length} figures extracted.`)
        toast({ title: 'PDF Processed', description: `${(result.data ?? []).length} figures extracted from ${fileName}`, variant: 'success' })
      }
    } catch (error) {
      if (controller.signal.aborted) return
      setPhase('error')
      setMessage(error instanceof Error ? error.message.replace(/^API Error \d+: /, '') : 'Upload failed')
    }
  }

  const reset = () => {
    setFile(null)
    setPhase('idle')
    setProgress(0)
    setMessage(null)
    inputRef.current?.click()
  }

  return (
    <Dialog open={open} title="Import Document" onClose={onClose} width={520}>
      <div
        className={`drop-zone ${dragging ? 'dragging' : ''}`}
        onDragOver={(e) => {
          e.preventDefault()
          setDragging(true)
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault()
          setDragging(false)
          choose(e.dataTransfer.files[0])
        }}
      >
        <FileUp size={28} aria-hidden="true" />
        <p>
          Drag a file here, or{' '}
          <button type="button" className="link-button" onClick={() => inputRef.current?.click()} disabled={phase === 'processing'}>
            choose one
          </button>
        </p>
        <p className="drop-hint">Excel (.xlsx, .xls), CSV or PDF</p>
        <input
          ref={inputRef}
          type="file"
          hidden
          accept={ACCEPTED_EXTENSIONS.join(',')}
          aria-label="Document to import"
          data-testid="import-file-input"
          onChange={(e) => {
            choose(e.target.files?.[0])
            e.target.value = ''
          }}
        />
      </div>
      {file && (
        <p className="chosen-file">
          <strong>{file.name}</strong> <span>{formatFileSize(file.size)}</span>
        </p>
      )}
      {(phase === 'processing' || phase === 'success') && (
        <div className="progress" role="progressbar" aria-label="Import progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}>
          <div className="progress-fill" style={{ width: `${progress}%` }} />
          <span className="progress-text">{progress}%</span>
        </div>
      )}
      {phase === 'success' && message && (
        <p role="status" className="alert success">
          <CheckCircle2 size={16} aria-hidden="true" /> {message}
        </p>
      )}
      {phase === 'error' && message && (
        <p role="alert" className="alert error">
          <TriangleAlert size={16} aria-hidden="true" /> {message}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
        {phase === 'success' ? (
          <button type="button" className="button" onClick={reset}>
            Process Another Document
          </button>
        ) : (
          file && (
            <button type="button" className="button" onClick={reset} disabled={phase === 'processing'}>
              Choose Different File
            </button>
          )
        )}
        <button type="button" className="button primary" onClick={() => void process()} disabled={phase === 'processing' || phase === 'success'}>
          {phase === 'processing' ? 'Processing…' : 'Process Document'}
        </button>
      </div>
    </Dialog>
  )
}
