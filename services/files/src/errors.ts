import { AppError } from '@finsheet/platform'
import { INVALID_FILE_TYPE_MESSAGE, NO_FILE_MESSAGE } from '@finsheet/contracts'

export const filesErrors = {
  invalidFileType: () => new AppError('INVALID_FILE_TYPE', 400, INVALID_FILE_TYPE_MESSAGE),
  notASpreadsheet: () => new AppError('INVALID_FILE_TYPE', 400, 'Please upload an Excel file (.xlsx, .xls, .csv)'),
  noFile: () => new AppError('NO_FILE', 400, NO_FILE_MESSAGE),
  notMultipart: () => new AppError('UNSUPPORTED_MEDIA_TYPE', 415, 'Send the file as multipart/form-data'),
  emptyFile: () => new AppError('EMPTY_FILE', 400, 'The file is empty'),
  fileTooLarge: (limitBytes: number) => new AppError('FILE_TOO_LARGE', 413, `The file is larger than the ${formatLimit(limitBytes)} upload limit`),
  typeMismatch: (message: string) => new AppError('TYPE_MISMATCH', 400, message),
  fileNotFound: () => new AppError('FILE_NOT_FOUND', 404, 'File not found'),
  jobNotFound: () => new AppError('JOB_NOT_FOUND', 404, 'Job not found'),
  concurrentDeletion: () => new AppError('CONCURRENT_DELETION', 409, 'The file is already being deleted'),
  notImportable: (kind: string) =>
    new AppError('NOT_IMPORTABLE', 400, kind === 'pdf' ? 'A PDF document cannot be imported as a workbook; its figures are in the file record' : 'Excel 97–2003 workbooks (.xls) cannot be imported. Save the file as .xlsx and upload it again.'),
  importFailed: (message: string) => new AppError('IMPORT_FAILED', 422, message),
  downloadLinkInvalid: () => new AppError('DOWNLOAD_LINK_INVALID', 403, 'The download link is invalid or has expired'),
}

export function formatLimit(bytes: number): string {
  const megabytes = bytes / (1024 * 1024)
  return Number.isInteger(megabytes) ? `${megabytes} MB` : `${bytes} bytes`
}
