/**
 * Errors thrown for misuse of the engine's API. Spreadsheet errors are values (CellError), never thrown.
 * Every message text lives here.
 */

export const MESSAGES = {
  invalidAddress: (text: string) => `Invalid cell address: ${JSON.stringify(text)}`,
  invalidRange: (text: string) => `Invalid range: ${JSON.stringify(text)}`,
  sheetNotFound: (name: string) => `Sheet not found: ${JSON.stringify(name)}`,
  sheetExists: (name: string) => `A sheet named ${JSON.stringify(name)} already exists`,
  invalidSheetName: (name: string) =>
    `Invalid sheet name ${JSON.stringify(name)}: use 1 to 31 characters, none of : \\ / ? * [ ], not starting or ending with '`,
  lastSheet: () => 'A workbook must keep at least one sheet',
  invalidName: (name: string) =>
    `Invalid name ${JSON.stringify(name)}: start with a letter, underscore or backslash, use letters, digits, periods and underscores, and do not look like a cell reference`,
  nameNotFound: (name: string) => `Name not found: ${JSON.stringify(name)}`,
  nameTaken: (name: string) => `The name ${JSON.stringify(name)} is already used by a table or a defined name`,
  tableNotFound: (name: string) => `Table not found: ${JSON.stringify(name)}`,
  tableOverlaps: (name: string, other: string) => `The table ${JSON.stringify(name)} would overlap the table ${JSON.stringify(other)}`,
  tableTooSmall: (name: string) => `The table ${JSON.stringify(name)} needs at least one data row`,
  tableColumns: (name: string, expected: number, got: number) =>
    `The table ${JSON.stringify(name)} spans ${expected} columns but ${got} column names were given`,
  tableColumnNames: (name: string) => `The table ${JSON.stringify(name)} needs unique, non-empty column names`,
  tableColumnNotFound: (table: string, column: string) => `The table ${JSON.stringify(table)} has no column ${JSON.stringify(column)}`,
  invalidCount: (count: number) => `The count must be a positive whole number, got ${count}`,
  invalidPosition: (what: string, index: number) => `Invalid ${what} position: ${index}`,
  partOfArray: () => "You can't change part of an array",
  sizeMismatch: () => 'The target range must be a multiple of the source range in each direction',
  invalidFormat: (format: string) => `Invalid number format: ${JSON.stringify(format)}`,
  invalidOption: (name: string, detail: string) => `Invalid option ${name}: ${detail}`,
  externalWorkbookTarget: () => 'An external workbook needs the name of its file',
} as const

/** An address or range text that does not parse (`'A0'`, `'1A'`, `'XFE1'`). */
export class InvalidAddressError extends Error {
  override readonly name = 'InvalidAddressError'
  constructor(readonly address: string) {
    super(MESSAGES.invalidAddress(address))
  }
}

/** A sheet name that does not exist in the engine. */
export class SheetNotFoundError extends Error {
  override readonly name = 'SheetNotFoundError'
  constructor(readonly sheet: string) {
    super(MESSAGES.sheetNotFound(sheet))
  }
}

/** Any other misuse: a duplicate or invalid sheet name, an invalid defined name, a bad count. */
export class EngineUsageError extends Error {
  override readonly name = 'EngineUsageError'
}
