import type { FileJobResult } from '@finsheet/contracts'
import { CheckCircle2, FileUp, TriangleAlert } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { api } from '../app/services'
import { errorText } from '../pages/error-text'
import { toast } from '../toasts/toast-store'
import { Dialog } from '../ui/Dialog'
import { FILE_MANAGER_TYPE_MESSAGE } from './file-manager'
import { ACCEPTED_EXTENSIONS, formatFileSize, isAcceptedFile, NO_FILE_MESSAGE } from './file-types'
import { importDocument } from './import-client'

/** Spec 2 §4 and §9: the dialog closes 2,000 ms after a successful upload. */
export const UPLOAD_CLOSE_DELAY_MS = 2000

type Phase = 'idle' | 'uploading' | 'success' | 'error'

interface UploadFileDialogProps {
  open: boolean
  onClose(): void
  /** the file is stored and processed; `result.workbookId` is the workbook a spreadsheet became */
  onUploaded(fileName: string, result: FileJobResult): void
}

/** Upload File (spec 2 §2.4): choose or drop a file, follow its upload and processing to the end. */
export function UploadFileDialog({ open, onClose, onUploaded }: UploadFileDialogProps) {
  const [file, setFile] = useState<File | null>(null)
  const [phase, setPhase] = useState<Phase>('idle')
  const [progress, setProgress] = useState(0)
  const [message, setMessage] = useState<string | null>(null)
  const [dragging, setDragging] = useState(false)
  const inputRef = useRef<HTMLInputElement>(null)
  const abortRef = useRef<AbortController | null>(null)
  const doneRef = useRef<{ fileName: string; result: FileJobResult } | null>(null)

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
      const done = doneRef.current
      if (done) onUploaded(done.fileName, done.result)
    }, UPLOAD_CLOSE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [phase, onUploaded])

  const choose = (chosen: File | undefined) => {
    if (!chosen) return
    setProgress(0)
    if (!isAcceptedFile(chosen.name, chosen.type)) {
      setFile(null)
      setPhase('error')
      setMessage(FILE_MANAGER_TYPE_MESSAGE)
      return
    }
    setFile(chosen)
    setPhase('idle')
    setMessage(null)
  }

  const upload = async () => {
    if (!file) {
      setPhase('error')
      setMessage(NO_FILE_MESSAGE)
      return
    }
    const controller = new AbortController()
    abortRef.current = controller
    setPhase('uploading')
    setProgress(0)
    setMessage(null)
    try {
      const { fileName, result } = await importDocument(api, file, setProgress, controller.signal)
      doneRef.current = { fileName, result }
      setProgress(100)
      setPhase('success')
      setMessage(
        result.workbookId
          ? `${fileName} is ready: ${result.cellCount.toLocaleString('en-US')} cells, ${result.formulaCount.toLocaleString('en-US')} formulas. Opening it…`
          : `${fileName} is ready: ${(result.data ?? []).length} figures extracted.`,
      )
      toast({ title: 'Success', description: 'File uploaded successfully', variant: 'success' })
    } catch (error) {
      if (controller.signal.aborted) return
      const reason = errorText(error, 'Upload failed')
      setPhase('error')
      setMessage(reason)
      toast({ title: 'Error', description: `Failed to upload file: ${reason}`, variant: 'destructive' })
    }
  }

  return (
    <Dialog open={open} title="Upload File" onClose={onClose} width={520}>
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
          <button type="button" className="link-button" onClick={() => inputRef.current?.click()} disabled={phase === 'uploading'}>
            choose one
          </button>
        </p>
        <p className="drop-hint">Excel (.xlsx, .xls), CSV or PDF</p>
        <input
          ref={inputRef}
          type="file"
          hidden
          accept={ACCEPTED_EXTENSIONS.join(',')}
          aria-label="File to upload"
          data-testid="upload-file-input"
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
      {(phase === 'uploading' || phase === 'success') && (
        <div className="progress" role="progressbar" aria-label="Upload progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}>
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
        <button type="button" className="button primary" onClick={() => void upload()} disabled={phase === 'uploading' || phase === 'success'}>
          {phase === 'uploading' ? 'Uploading…' : 'Upload'}
        </button>
      </div>
    </Dialog>
  )
}
