/**
 * Runs Excel-saved workbooks through the engine and compares every formula cell with the value Excel
 * cached: the oracle of issue 3.
 */
import { readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { compareWithCachedValues, describeMismatch, loadXlsxIntoEngine } from '@finsheet/workbook'

/** The functions the engine issue lists; a workbook that uses only these must match in every cell. */
export const ISSUE_FUNCTIONS = new Set(
  `SUM SUMIF SUMIFS SUMPRODUCT AVERAGE AVERAGEIF AVERAGEIFS COUNT COUNTA COUNTBLANK COUNTIF COUNTIFS MIN MAX
  MINIFS MAXIFS MEDIAN LARGE SMALL RANK.EQ STDEV.S PERCENTILE.INC PRODUCT ROUND ROUNDUP ROUNDDOWN MROUND INT
  TRUNC ABS MOD SIGN POWER SQRT EXP LN LOG CEILING FLOOR SUBTOTAL IF IFS IFERROR IFNA AND OR NOT XOR SWITCH
  CHOOSE LET INDEX MATCH XLOOKUP XMATCH VLOOKUP HLOOKUP LOOKUP OFFSET INDIRECT ROW ROWS COLUMN COLUMNS ADDRESS
  TRANSPOSE NPV XNPV IRR XIRR MIRR PMT IPMT PPMT CUMIPMT CUMPRINC PV FV NPER RATE EFFECT NOMINAL SLN DB DDB SYD
  VDB FVSCHEDULE DATE YEAR MONTH DAY EOMONTH EDATE YEARFRAC DATEDIF DAYS DAYS360 NETWORKDAYS WORKDAY TODAY NOW
  WEEKDAY DATEVALUE TEXT CONCAT CONCATENATE TEXTJOIN LEFT RIGHT MID LEN FIND SEARCH SUBSTITUTE TRIM UPPER LOWER
  PROPER VALUE FIXED REPT ISERROR ISERR ISNUMBER ISBLANK ISTEXT ISNA ISLOGICAL NA N TRUE FALSE`.split(/\s+/),
)

export interface WorkbookResult {
  /** Path relative to the oracle folder, such as `MATH_AND_TRIGONOMETRY/ABS.xlsx`. */
  readonly file: string
  readonly matching: number
  readonly total: number
  /** Functions the workbook's formulas call, sorted. */
  readonly functions: string[]
  /** Whether every function it calls is on the issue's list. */
  readonly onIssueList: boolean
  /** The first mismatches, as `finsheet check` prints them. */
  readonly mismatches: string[]
  /** Why the workbook could not be loaded at all. */
  readonly loadError?: string
}

export function findWorkbooks(root: string): string[] {
  const found: string[] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (name.endsWith('.xlsx') && !name.startsWith('~$')) found.push(path)
    }
  }
  walk(root)
  return found
}

/** The names called in a formula (`NAME(`), outside string literals and quoted sheet names. */
export function calledFunctions(formula: string): string[] {
  const withoutQuoted = formula.replace(/"(?:[^"]|"")*"|'(?:[^']|'')*'/g, '""')
  return [...withoutQuoted.matchAll(/(?<![\w.])([A-Za-z_][\w.]*)\s*\(/g)].map((match) => match[1].toUpperCase())
}

export async function runWorkbook(root: string, path: string, keepMismatches = 20): Promise<WorkbookResult> {
  const file = relative(root, path).split('\\').join('/')
  try {
    const loaded = await loadXlsxIntoEngine(path)
    const functions = new Set<string>()
    for (const cell of loaded.formulaCells) for (const name of calledFunctions(cell.formula)) functions.add(name)
    const report = compareWithCachedValues(loaded)
    const sorted = [...functions].sort()
    return {
      file,
      matching: report.passed,
      total: report.passed + report.failed,
      functions: sorted,
      onIssueList: sorted.every((name) => ISSUE_FUNCTIONS.has(name)),
      mismatches: report.mismatches.slice(0, keepMismatches).map(describeMismatch),
    }
  } catch (error) {
    return {
      file,
      matching: 0,
      total: 0,
      functions: [],
      onIssueList: false,
      mismatches: [],
      loadError: (error as Error).stack ?? String(error),
    }
  }
}

export function isFullMatch(result: WorkbookResult): boolean {
  return result.loadError === undefined && result.matching === result.total
}

/** The per-workbook table the oracle test prints. */
export function formatTable(results: readonly WorkbookResult[]): string {
  const width = Math.max(...results.map((result) => result.file.length), 8)
  const lines = [`${'workbook'.padEnd(width)}  matching/total  list  status`]
  for (const result of results) {
    const counts = `${result.matching}/${result.total}`.padStart(14)
    const status = result.loadError ? 'load error' : isFullMatch(result) ? 'ok' : 'DIFFERS'
    lines.push(`${result.file.padEnd(width)}  ${counts}  ${result.onIssueList ? 'yes ' : '    '}  ${status}`)
  }
  const full = results.filter(isFullMatch).length
  const listed = results.filter((result) => result.onIssueList)
  lines.push(
    `${full} of ${results.length} workbooks match fully; ${listed.filter(isFullMatch).length} of ${listed.length} on the issue's list`,
  )
  return lines.join('\n')
}
