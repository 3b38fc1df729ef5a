import { useCallback } from 'react'
import { DocumentDropZone } from '../files/DocumentDropZone'
import { IMPORT_TYPE_MESSAGE } from '../files/file-types'
import type { ImportOutcome } from '../files/import-client'
import { announceNotKept, notKeptText } from '../files/import-report'
import { useDocumentUpload } from '../files/use-document-upload'
import { toast } from '../toasts/toast-store'
import { Dialog } from '../ui/Dialog'

interface ImportDialogProps {
  open: boolean
  onClose(): void
  /** the workbook the document became (null for a PDF's figures), to open at /; `outcome` says what was read */
  onImported(workbookId: string | null, name: string, outcome: ImportOutcome): void
}

function describeImport({ fileName, result }: ImportOutcome): string {
  if (!result.workbookId) return `${fileName} was read: ${(result.data ?? []).length} figures extracted.`
  return [`${fileName} was imported: ${result.cellCount.toLocaleString('en-US')} cells, ${result.formulaCount.toLocaleString('en-US')} formulas.`, notKeptText(result)].filter(Boolean).join(' ')
}

function announceImport({ fileName, result }: ImportOutcome): void {
  if (result.workbookId) {
    toast({ title: 'Success', description: 'Workbook imported successfully', variant: 'success' })
    announceNotKept(fileName, result)
  }
  else toast({ title: 'PDF Processed', description: `${(result.data ?? []).length} figures extracted from ${fileName}`, variant: 'success' })
}

/** Import Document (spec 2 §2.3): choose or drop a file, process it, follow the real job progress. */
export function ImportDialog({ open, onClose, onImported }: ImportDialogProps) {
  const onFinished = useCallback(
    (outcome: ImportOutcome) => onImported(outcome.result.workbookId, outcome.fileName.replace(/\.[^.]+$/, ''), outcome),
    [onImported],
  )
  const upload = useDocumentUpload({ open, wrongTypeMessage: IMPORT_TYPE_MESSAGE, onFinished, acceptSaveFiles: true })
  const { phase } = upload

  return (
    <Dialog open={open} title="Import Document" onClose={onClose} width={520}>
      <DocumentDropZone upload={upload} inputLabel="Document to import" inputTestId="import-file-input" progressLabel="Import progress" />
      <div className="form-actions">
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
        {phase === 'success' ? (
          <button type="button" className="button" onClick={upload.chooseAgain}>
            Process Another Document
          </button>
        ) : (
          upload.file && (
            <button type="button" className="button" onClick={upload.chooseAgain} disabled={phase === 'running'}>
              Choose Different File
            </button>
          )
        )}
        <button
          type="button"
          className="button primary"
          onClick={() => void upload.start({ describe: describeImport, onSuccess: announceImport })}
          disabled={phase === 'running' || phase === 'success'}
        >
          {phase === 'running' ? 'Processing…' : 'Process Document'}
        </button>
      </div>
    </Dialog>
  )
}
