import { AppError } from '@finsheet/platform'
import {
  type ApprovalReason,
  type CellRef,
  INVALID_NAME_TEXT_MESSAGE,
  MAX_CELL_TEXT_LENGTH,
  MAX_EXPORT_BYTES,
  MAX_FORMATTED_CELLS,
  MAX_FORMULA_LENGTH,
  MAX_SHEETS,
  MAX_UPDATES_PER_CHANGE,
  MAX_XLSX_EXPORT_CELLS,
  cellsOffSheetMessage,
  mergeTooLargeMessage,
} from '@finsheet/contracts'

/** A 409 about a changeset whose body names what stood in the way (cells, or formulas awaiting approval). */
export class ChangesetRefusal extends AppError {
  constructor(
    code: string,
    message: string,
    readonly details: { cells?: CellRef[]; approvalReasons?: ApprovalReason[] },
  ) {
    super(code, 409, message)
  }

  body(): { error: { code: string; message: string; cells?: CellRef[]; approvalReasons?: ApprovalReason[] } } {
    return { error: { code: this.code, message: this.message, ...this.details } }
  }
}

const thousands = (n: number) => n.toLocaleString('en-US')
const megabytes = (bytes: number) => thousands(Math.ceil(bytes / (1024 * 1024)))

/** Every error the spreadsheet service answers with, by code. 4xx messages are shown to users. */
export const spreadsheetErrors = {
  workbookNotFound: () => new AppError('WORKBOOK_NOT_FOUND', 404, 'Workbook not found'),
  versionNotFound: () => new AppError('VERSION_NOT_FOUND', 404, 'Version not found'),
  chartNotFound: () => new AppError('CHART_NOT_FOUND', 404, 'Chart not found'),
  templateNotFound: (id: string) => new AppError('TEMPLATE_NOT_FOUND', 400, `Unknown template: ${id}`),
  templateNotFoundById: () => new AppError('TEMPLATE_NOT_FOUND', 404, 'Template not found'),
  sheetNotFound: (name: string) => new AppError('SHEET_NOT_FOUND', 400, `Sheet not found: ${name}`),
  invalidAddress: (address: string) =>
    new AppError('INVALID_ADDRESS', 400, `Invalid cell address: ${JSON.stringify(address)} (addresses run from A1 to XFD1048576)`),
  invalidRange: (range: string) => new AppError('INVALID_RANGE', 400, `Invalid range: ${JSON.stringify(range)} (use A1:C3 within A1:XFD1048576)`),
  invalidWindow: (message: string) => new AppError('INVALID_RANGE', 400, message),
  formulaTooLong: (address: string, length: number) =>
    new AppError('FORMULA_TOO_LONG', 400, `The formula in ${address} has ${thousands(length)} characters; formulas can have at most ${thousands(MAX_FORMULA_LENGTH)}`),
  textTooLong: (address: string) =>
    new AppError('TEXT_TOO_LONG', 400, `The text in ${address} is longer than ${thousands(MAX_CELL_TEXT_LENGTH)} characters, the most a cell can hold`),
  invalidFormat: (format: string) => new AppError('INVALID_FORMAT', 400, `Invalid number format: ${JSON.stringify(format)}`),
  tooManyUpdates: (count: number) =>
    new AppError('TOO_MANY_UPDATES', 400, `A change can hold at most ${thousands(MAX_UPDATES_PER_CHANGE)} cell updates; this one has ${thousands(count)}`),
  tooManyFormattedCells: () => new AppError('TOO_MANY_CELLS', 400, `A format can cover at most ${thousands(MAX_FORMATTED_CELLS)} cells at once`),
  nothingToUpdate: () => new AppError('NOTHING_TO_UPDATE', 400, 'Nothing to update: send a value, a formula, a style or a format'),
  missingAddress: () => new AppError('INVALID_ADDRESS', 400, 'Each update needs a cellAddress'),
  invalidSheetName: (message: string) => new AppError('INVALID_SHEET_NAME', 400, message),
  sheetExists: (name: string) => new AppError('SHEET_EXISTS', 409, `There is already a sheet named ${name}`),
  lastSheet: () => new AppError('LAST_SHEET', 400, 'A workbook must keep at least one sheet'),
  tooManySheets: () => new AppError('TOO_MANY_SHEETS', 400, `A workbook can have at most ${MAX_SHEETS} sheets`),
  invalidStructure: (message: string) => new AppError('INVALID_STRUCTURE_CHANGE', 400, message),
  overlappingMerge: (range: string) => new AppError('OVERLAPPING_MERGE', 400, `The range ${range} overlaps a merged range`),
  mergeTooLarge: (range: string, cells: number) => new AppError('MERGE_TOO_LARGE', 422, mergeTooLargeMessage(range, cells)),
  cellsOffSheet: (axis: 'rows' | 'columns', count: number) => new AppError('CELLS_OFF_SHEET', 422, cellsOffSheetMessage(axis, count)),
  invalidNameText: () => new AppError('INVALID_NAME_TEXT', 400, INVALID_NAME_TEXT_MESSAGE),
  invalidName: (message: string) => new AppError('INVALID_NAME', 400, message),
  invalidWorkbookName: () => new AppError('INVALID_WORKBOOK_NAME', 400, 'A workbook name cannot be empty'),
  revisionAhead: (revision: number, current: number) =>
    new AppError('UNKNOWN_REVISION', 409, `Revision ${revision} is newer than the workbook's revision ${current}; reload the workbook`),
  staleEdit: (message: string) => new AppError('STALE_EDIT', 409, message),
  nothingToUndo: () => new AppError('NOTHING_TO_UNDO', 409, 'Nothing to undo'),
  nothingToRedo: () => new AppError('NOTHING_TO_REDO', 409, 'Nothing to redo'),
  busy: () => new AppError('WORKBOOK_BUSY', 503, 'The workbook is being changed by many clients at once; try again'),
  csvExportTooLarge: (bytes: number) =>
    new AppError(
      'EXPORT_TOO_LARGE',
      413,
      `This sheet would make a CSV file of at least ${megabytes(bytes)} MB; an export can hold at most ${megabytes(MAX_EXPORT_BYTES)} MB. ` +
        'Clear the cells far from the data, or export the workbook as xlsx.',
    ),
  xlsxExportTooLarge: (cells: number, why?: string) =>
    new AppError(
      'EXPORT_TOO_LARGE',
      413,
      why === undefined
        ? `This workbook holds ${thousands(cells)} cells; an xlsx export can hold at most ${thousands(MAX_XLSX_EXPORT_CELLS)}. Export its sheets as CSV instead.`
        : `This workbook is too large to export as xlsx (${why}). Export its sheets as CSV instead.`,
    ),
  exportsBusy: () => new AppError('EXPORTS_BUSY', 503, 'Too many xlsx exports are under way; try again in a minute'),
  invalidChart: (message: string) => new AppError('INVALID_CHART', 400, message),
  invalidImport: (message: string) => new AppError('INVALID_IMPORT', 400, message),
  importTooLarge: (limit: number) => new AppError('IMPORT_TOO_LARGE', 413, `The import is larger than ${thousands(Math.round(limit / (1024 * 1024)))} MB`),
  importIncomplete: (message: string) => new AppError('IMPORT_INCOMPLETE', 400, `The import ended before it was complete: ${message}; nothing was stored`),
  compareLimit: () => new AppError('INVALID_COMPARE', 400, 'Choose two versions of this workbook to compare'),
  changesetNotFound: () => new AppError('CHANGESET_NOT_FOUND', 404, 'Changeset not found'),
  changesetClosed: (status: string) => new AppError('CHANGESET_CLOSED', 409, `This changeset was ${status} already`),
  changesetBusy: () => new AppError('CHANGESET_BUSY', 409, 'The changeset is being changed or applied by another request; try again'),
  changesetStale: (message: string) =>
    new AppError('CHANGESET_STALE', 409, `The changeset no longer applies to the workbook (${message}); discard it and ask again`),
  changesetConflict: (cells: CellRef[]) =>
    new ChangesetRefusal(
      'CHANGESET_CONFLICT',
      `${cells.length === 1 ? 'A cell' : `${cells.length.toLocaleString('en-US')} cells`} of the changeset changed since it was previewed: ${cells
        .slice(0, 20)
        .map((cell) => `${cell.sheet}!${cell.address}`)
        .join(', ')}${cells.length > 20 ? ' and more' : ''}. Nothing was applied; ask again to work from the workbook as it is now.`,
      { cells },
    ),
  approvalRequired: (reasons: ApprovalReason[]) =>
    new ChangesetRefusal(
      'APPROVAL_REQUIRED',
      `The changeset holds ${reasons.length === 1 ? 'a formula' : `${reasons.length} formulas`} that could reach the network or another file (${reasons
        .slice(0, 5)
        .map((reason) => `${reason.sheet}!${reason.address}: ${reason.reason}`)
        .join('; ')}); it is applied only with the user's approval`,
      { approvalReasons: reasons },
    ),
}
