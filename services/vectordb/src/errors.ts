import { AppError } from '@finsheet/platform'

export const vectordbErrors = {
  emptyQuery: () => new AppError('EMPTY_QUERY', 400, 'The query has no words to search for'),
  workbookNotFound: () => new AppError('WORKBOOK_NOT_FOUND', 404, 'Workbook not found'),
  jobNotFound: () => new AppError('JOB_NOT_FOUND', 404, 'Job not found'),
  spreadsheetUnavailable: () => new AppError('SPREADSHEET_UNAVAILABLE', 503, 'The spreadsheet service is unavailable'),
}
