import type { FileListTab, FileRecord } from '@finsheet/contracts'
import { INVALID_FILE_TYPE_MESSAGE } from '@finsheet/contracts'
import { ApiError, errorStatus, RetriesExhaustedError } from '../api/api-client'
import { errorText } from '../pages/error-text'

/** Spec 2 §2.4: the file manager's tabs. */
export const FILE_TABS: readonly { id: FileListTab; label: string }[] = [
  { id: 'all', label: 'All Files' },
  { id: 'excel', label: 'Excel Workbooks' },
  { id: 'pdf', label: 'PDF Documents' },
  { id: 'other', label: 'Other Files' },
]

/** Spec 2 §5: the file manager's answer to a file of another type. */
export const FILE_MANAGER_TYPE_MESSAGE = INVALID_FILE_TYPE_MESSAGE
/** Spec 2 §8. */
export const LOAD_FILES_FAILED = 'Failed to load files'
/** Spec 2 §9: the list is read again at most every 3 s, unless something the user did changed it. */
export const FILE_LIST_THROTTLE_MS = 3000

export function filesInTab(files: readonly FileRecord[], tab: FileListTab): FileRecord[] {
  switch (tab) {
    case 'all':
      return [...files]
    case 'excel':
      return files.filter((file) => file.isExcel)
    case 'pdf':
      return files.filter((file) => file.isPdf)
    case 'other':
      return files.filter((file) => !file.isExcel && !file.isPdf)
  }
}

export function tabCounts(files: readonly FileRecord[]): Record<FileListTab, number> {
  return {
    all: files.length,
    excel: filesInTab(files, 'excel').length,
    pdf: filesInTab(files, 'pdf').length,
    other: filesInTab(files, 'other').length,
  }
}

const KIND_LABELS: Record<FileRecord['kind'], string> = { xlsx: 'Excel workbook', xls: 'Excel 97–2003 workbook', csv: 'CSV file', pdf: 'PDF document' }

export function kindLabel(file: Pick<FileRecord, 'kind'>): string {
  return KIND_LABELS[file.kind] ?? file.kind
}

/** Only spreadsheets the service can read become workbooks: .xlsx and .csv, unless processing failed. */
export function canImport(file: Pick<FileRecord, 'kind' | 'status'>): boolean {
  return (file.kind === 'xlsx' || file.kind === 'csv') && file.status !== 'failed'
}

/** Whether the list should be read again soon because a file is still being processed. */
export function isProcessing(files: readonly Pick<FileRecord, 'status'>[]): boolean {
  return files.some((file) => file.status === 'uploaded' || file.status === 'processing')
}

/** Spec 2 §9: an automatic refresh waits out the 3 s throttle; one the user asked for does not. */
export function mayRefresh(lastLoadedAt: number | null, now: number, requestedByUser: boolean): boolean {
  return requestedByUser || lastLoadedAt === null || now - lastLoadedAt >= FILE_LIST_THROTTLE_MS
}

// ---- deleting: optimistic, restored on failure, one at a time per file --------------------------

export interface FileListState {
  files: FileRecord[]
  /** files taken off the list whose deletion has not answered yet, with where they were */
  deleting: Record<string, { file: FileRecord; index: number }>
  /** the inline failure shown beside a restored file */
  failures: Record<string, string>
}

export function fileListState(files: FileRecord[]): FileListState {
  return { files, deleting: {}, failures: {} }
}

/** A fresh list from the server; files still being deleted stay off it. */
export function withLoadedFiles(state: FileListState, files: FileRecord[]): FileListState {
  return { ...state, files: files.filter((file) => !(file.id in state.deleting)) }
}

/**
 * Spec 2 §4: takes the file off the list at once. A second request for a file whose deletion is
 * still pending is ignored (`started` false).
 */
export function beginDelete(state: FileListState, id: string): { state: FileListState; started: boolean } {
  if (id in state.deleting) return { state, started: false }
  const index = state.files.findIndex((file) => file.id === id)
  if (index < 0) return { state, started: false }
  const failures = { ...state.failures }
  delete failures[id]
  return {
    state: { files: state.files.filter((file) => file.id !== id), deleting: { ...state.deleting, [id]: { file: state.files[index], index } }, failures },
    started: true,
  }
}

export function deleteSucceeded(state: FileListState, id: string): FileListState {
  const deleting = { ...state.deleting }
  delete deleting[id]
  return { ...state, deleting }
}

export interface DeleteNotice {
  title: string
  description: string
  /** the file goes back on the list */
  restore: boolean
  /** shown beside the restored file */
  inline: string | null
}

/**
 * Spec 2 §8: 409 or CONCURRENT_DELETION — 'File Already Being Deleted'; 404 — 'File Already Deleted'
 * (the file stays off the list); anything else — 'Deletion Failed: ...', and the file comes back.
 */
export function deleteFailureNotice(error: unknown): DeleteNotice {
  const status = errorStatus(error)
  const code = error instanceof ApiError ? error.code : error instanceof RetriesExhaustedError ? error.lastError.code : undefined
  const message = errorText(error)
  if (status === 409 || code === 'CONCURRENT_DELETION') {
    return { title: 'File Already Being Deleted', description: message, restore: true, inline: null }
  }
  if (status === 404) return { title: 'File Already Deleted', description: message, restore: false, inline: null }
  return { title: 'Error', description: `Failed to delete file: ${message}`, restore: true, inline: `Deletion Failed: ${message}` }
}

export function deleteFailed(state: FileListState, id: string, notice: DeleteNotice): FileListState {
  const pending = state.deleting[id]
  if (!pending) return state
  const deleting = { ...state.deleting }
  delete deleting[id]
  if (!notice.restore) return { ...state, deleting }
  const files = [...state.files]
  files.splice(Math.min(pending.index, files.length), 0, pending.file)
  return { files, deleting, failures: notice.inline ? { ...state.failures, [id]: notice.inline } : state.failures }
}
