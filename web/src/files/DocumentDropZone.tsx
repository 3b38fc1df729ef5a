import { CheckCircle2, FileUp, TriangleAlert } from 'lucide-react'
import { useState } from 'react'
import { ACCEPTED_EXTENSIONS, formatFileSize } from './file-types'
import type { DocumentUpload } from './use-document-upload'

interface DocumentDropZoneProps {
  upload: DocumentUpload
  /** The accessible name of the hidden file input. */
  inputLabel: string
  inputTestId: string
  /** The accessible name of the progress bar. */
  progressLabel: string
}

/** The drop zone, chosen file, progress bar and outcome of the upload and import dialogs. */
export function DocumentDropZone({ upload, inputLabel, inputTestId, progressLabel }: DocumentDropZoneProps) {
  const [dragging, setDragging] = useState(false)
  const { file, phase, progress, message, inputRef, choose } = upload
  return (
    <>
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
          <button type="button" className="link-button" onClick={() => inputRef.current?.click()} disabled={phase === 'running'}>
            choose one
          </button>
        </p>
        <p className="drop-hint">Excel (.xlsx, .xls), CSV or PDF{upload.acceptSaveFiles ? ', or a workbook saved as .json' : ''}</p>
        <input
          ref={inputRef}
          type="file"
          hidden
          accept={[...ACCEPTED_EXTENSIONS, ...(upload.acceptSaveFiles ? ['.json'] : [])].join(',')}
          aria-label={inputLabel}
          data-testid={inputTestId}
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
      {(phase === 'running' || phase === 'success') && (
        <div className="progress" role="progressbar" aria-label={progressLabel} aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}>
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
    </>
  )
}
