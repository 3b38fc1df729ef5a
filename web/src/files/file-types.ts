/** Spec 2 §2.3 and §5: the import dialog takes .xlsx, .xls, .csv and .pdf, by extension or MIME type. */
export const ACCEPTED_EXTENSIONS = ['.xlsx', '.xls', '.csv', '.pdf'] as const
export const ACCEPTED_MIME_TYPES = [
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-excel',
  'text/csv',
  'application/csv',
  'text/comma-separated-values',
  'application/pdf',
] as const

export const IMPORT_TYPE_MESSAGE = 'Please upload a PDF or Excel file (.xlsx, .xls, .csv)'

export function isAcceptedFile(name: string, mimeType: string): boolean {
  const lower = name.toLowerCase()
  return ACCEPTED_EXTENSIONS.some((ext) => lower.endsWith(ext)) || (ACCEPTED_MIME_TYPES as readonly string[]).includes(mimeType.toLowerCase())
}

/** Spec 2 §5: sizes show in B, KB or MB. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}
