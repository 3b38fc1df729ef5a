/**
 * References to another workbook. A formula names one before a sheet: `[1]Sheet1!A1`, as xlsx files
 * store it (the number is the position of the workbook's external-link part, from 1), or
 * `[Budget.xlsx]Q1!B2` and `'C:\Models\[Budget 2024.xlsx]Q1'!B2`, as a user types it. The whole prefix
 * is kept as the reference's sheet name, `[1]Sheet1`, `C:\Models\[Budget 2024.xlsx]Q1`: a sheet of this
 * workbook can never be named so (sheet names exclude `[` and `]`), so renaming, inserting rows and
 * removing sheets leave such references alone without knowing of them.
 */
export interface ExternalSheetName {
  /** The folder or URL before the file name, as written (`C:\Models\`), or ''. */
  path: string
  /** What the brackets hold: a link number (`1`) or a file name (`Budget.xlsx`). */
  workbook: string
  /** The sheet, or '' for a name of the workbook itself (`[1]!Rate`). */
  sheet: string
}

/** Text that needs no quotes inside an external prefix: the characters the lexer reads in a name. */
const PLAIN = /^[A-Za-z0-9_.\\?\u0080-\uFFFF]+$/

/** Whether a reference's sheet name names another workbook's sheet. */
export function isExternalSheetName(name: string): boolean {
  return name.includes('[')
}

/** The parts of an external sheet name; undefined for a sheet of this workbook. */
export function splitExternalSheetName(name: string): ExternalSheetName | undefined {
  const open = name.lastIndexOf('[')
  if (open < 0) return undefined
  const close = name.indexOf(']', open)
  if (close < 0) return undefined
  return { path: name.slice(0, open), workbook: name.slice(open + 1, close), sheet: name.slice(close + 1) }
}

/**
 * The prefix before `!` for an external sheet name, quoted as Excel writes it: `[1]Sheet1`,
 * `'[1]Q1 Plan'`, `[Budget.xlsx]Q1`, and always quoted with a path. After the brackets a sheet named
 * like a cell (`Q1`) is no longer ambiguous, so only characters a name cannot hold need quotes.
 */
export function formatExternalSheetPrefix(name: string): string {
  const parts = splitExternalSheetName(name)
  const plain =
    parts !== undefined &&
    parts.path === '' &&
    PLAIN.test(parts.workbook) &&
    (parts.sheet === '' || PLAIN.test(parts.sheet))
  return plain ? name : `'${name.replace(/'/g, "''")}'`
}

/** The file name at the end of a path or URL (`file:///C:/Models/Budget%202024.xlsx` → `Budget 2024.xlsx`). */
export function fileNameOf(target: string): string {
  const last = target.slice(Math.max(target.lastIndexOf('/'), target.lastIndexOf('\\')) + 1)
  try {
    return decodeURIComponent(last)
  } catch {
    return last
  }
}
