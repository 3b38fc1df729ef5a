import type { FileRecord } from '@finsheet/contracts'
import { FileSpreadsheet, FileText, FolderInput, Table2, Trash2 } from 'lucide-react'
import { canImport, kindLabel } from './file-manager'
import { formatFileSize } from './file-types'

interface FileTableProps {
  files: readonly FileRecord[]
  failures: Record<string, string>
  /** the file being imported, if any */
  importing: string | null
  onOpen(file: FileRecord): void
  onImport(file: FileRecord): void
  onDelete(file: FileRecord): void
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' })

function statusText(file: FileRecord): string {
  if (file.status === 'failed') return file.error ?? 'Processing failed'
  if (file.status !== 'processed') return 'Processing…'
  if (file.isPdf) return `${file.processedData?.data?.length ?? 0} figures extracted`
  return `${file.cellsProcessed.toLocaleString('en-US')} cells, ${file.formulasProcessed.toLocaleString('en-US')} formulas`
}

export function FileTable({ files, failures, importing, onOpen, onImport, onDelete }: FileTableProps) {
  return (
    <table className="data-table file-table">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Type</th>
          <th scope="col" className="numeric">
            Size
          </th>
          <th scope="col">Uploaded</th>
          <th scope="col">Status</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {files.map((file) => {
          const Icon = file.isPdf ? FileText : FileSpreadsheet
          return (
            <tr key={file.id}>
              <td>
                <span className="file-name">
                  <Icon size={16} aria-hidden="true" className={file.isPdf ? 'pdf-icon' : 'sheet-icon'} />
                  <span>{file.name}</span>
                </span>
                {failures[file.id] && (
                  <span role="alert" className="inline-failure">
                    {failures[file.id]}
                  </span>
                )}
              </td>
              <td>{kindLabel(file)}</td>
              <td className="numeric">{formatFileSize(file.size)}</td>
              <td>{dateFormat.format(new Date(file.createdAt))}</td>
              <td className={`file-status status-${file.status}`}>{statusText(file)}</td>
              <td className="row-actions">
                {file.workbookId && file.status === 'processed' && (
                  <button type="button" className="button small" onClick={() => onOpen(file)} aria-label={`Open ${file.name}`}>
                    <Table2 size={14} aria-hidden="true" /> Open
                  </button>
                )}
                {canImport(file) && (
                  <button type="button" className="button small" onClick={() => onImport(file)} disabled={importing !== null} aria-label={`Import ${file.name}`}>
                    <FolderInput size={14} aria-hidden="true" /> {importing === file.id ? 'Importing…' : 'Import'}
                  </button>
                )}
                <button type="button" className="icon-button small-icon" onClick={() => onDelete(file)} aria-label={`Delete ${file.name}`} title="Delete">
                  <Trash2 size={16} aria-hidden="true" />
                </button>
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}
