import type { FileJobResult } from '@finsheet/contracts'
import { useCallback } from 'react'
import { toast } from '../toasts/toast-store'
import { Dialog } from '../ui/Dialog'
import { DocumentDropZone } from './DocumentDropZone'
import { FILE_MANAGER_TYPE_MESSAGE } from './file-manager'
import type { ImportOutcome } from './import-client'
import { announceNotKept, notKeptText } from './import-report'
import { useDocumentUpload } from './use-document-upload'

interface UploadFileDialogProps {
  open: boolean
  onClose(): void
  /** the file is stored and processed; `result.workbookId` is the workbook a spreadsheet became */
  onUploaded(fileName: string, result: FileJobResult): void
}

function describeUpload({ fileName, result }: ImportOutcome): string {
  return result.workbookId
    ? [`${fileName} is ready: ${result.cellCount.toLocaleString('en-US')} cells, ${result.formulaCount.toLocaleString('en-US')} formulas.`, notKeptText(result), 'Opening it…'].filter(Boolean).join(' ')
    : `${fileName} is ready: ${(result.data ?? []).length} figures extracted.`
}

/** Upload File (spec 2 §2.4): choose or drop a file, follow its upload and processing to the end. */
export function UploadFileDialog({ open, onClose, onUploaded }: UploadFileDialogProps) {
  const onFinished = useCallback(({ fileName, result }: ImportOutcome) => result.kind !== 'json' && onUploaded(fileName, result), [onUploaded])
  const upload = useDocumentUpload({ open, wrongTypeMessage: FILE_MANAGER_TYPE_MESSAGE, onFinished })

  const start = () =>
    upload.start({
      describe: describeUpload,
      onSuccess: ({ fileName, result }) => {
        toast({ title: 'Success', description: 'File uploaded successfully', variant: 'success' })
        if (result.workbookId) announceNotKept(fileName, result)
      },
      onFailure: (reason) => toast({ title: 'Error', description: `Failed to upload file: ${reason}`, variant: 'destructive' }),
    })

  return (
    <Dialog open={open} title="Upload File" onClose={onClose} width={520}>
      <DocumentDropZone upload={upload} inputLabel="File to upload" inputTestId="upload-file-input" progressLabel="Upload progress" />
      <div className="form-actions">
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="button primary" onClick={() => void start()} disabled={upload.phase === 'running' || upload.phase === 'success'}>
          {upload.phase === 'running' ? 'Uploading…' : 'Upload'}
        </button>
      </div>
    </Dialog>
  )
}
