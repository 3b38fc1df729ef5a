/**
 * The `finsheet` command line:
 *   finsheet calc FILE.xlsx    prints {"Sheet!A1": value, ...} for every formula cell, calculated by our engine
 *   finsheet check FILE.xlsx   compares our values with those Excel cached in the file
 */
import { access } from 'node:fs/promises'
import { loadXlsxIntoEngine } from '../xlsx/load-xlsx.js'
import { cellKey } from '../model/workbook-model.js'
import { compareWithCachedValues, valueToJson } from '../xlsx/compare.js'
import type { Mismatch } from '../xlsx/compare.js'
import { XlsxFormatError } from '../xlsx/read-xlsx.js'

export interface CliOutput {
  write(text: string): void
}

export const USAGE = `Usage: finsheet <command> FILE.xlsx

Commands:
  calc FILE.xlsx    Recalculate every formula of the workbook and print {"Sheet!A1": value, ...} as JSON
  check FILE.xlsx   Compare the recalculated values with those Excel saved in the file; print each
                    mismatch, then "N passed, N failed"
`

/** Exit codes: 0 success (check: every cell matches), 1 check found mismatches, 2 usage or file error. */
export async function runCli(argv: readonly string[], stdout: CliOutput, stderr: CliOutput): Promise<number> {
  const [command, file, ...rest] = argv
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    ;(command === undefined ? stderr : stdout).write(USAGE)
    return command === undefined ? 2 : 0
  }
  if (command !== 'calc' && command !== 'check') {
    stderr.write(`finsheet: unknown command "${command}"\n\n${USAGE}`)
    return 2
  }
  if (file === undefined || rest.length > 0) {
    stderr.write(`finsheet ${command}: give exactly one xlsx file\n\n${USAGE}`)
    return 2
  }
  try {
    await access(file)
  } catch {
    stderr.write(`finsheet ${command}: cannot read ${file}\n`)
    return 2
  }

  let loaded: Awaited<ReturnType<typeof loadXlsxIntoEngine>>
  try {
    loaded = await loadXlsxIntoEngine(file)
  } catch (error) {
    const reason = error instanceof XlsxFormatError ? error.message : `not a readable xlsx workbook (${(error as Error).message})`
    stderr.write(`finsheet ${command}: ${file}: ${reason}\n`)
    return 2
  }

  if (command === 'calc') {
    const values: Record<string, number | string | boolean | null> = {}
    for (const cell of loaded.formulaCells) {
      values[cellKey(cell.sheet, cell.address)] = valueToJson(loaded.engine.getValue(cell.sheet, cell.address))
    }
    stdout.write(JSON.stringify(values, null, 2) + '\n')
    return 0
  }

  const report = compareWithCachedValues(loaded)
  for (const mismatch of report.mismatches) stdout.write(describeMismatch(mismatch) + '\n')
  stdout.write(`${report.passed} passed, ${report.failed} failed\n`)
  return report.failed === 0 ? 0 : 1
}

export function describeMismatch(mismatch: Mismatch): string {
  const show = (value: Mismatch['ours']) => JSON.stringify(valueToJson(value))
  return `${cellKey(mismatch.sheet, mismatch.address)}  ${mismatch.formula}  ours: ${show(mismatch.ours)}  Excel: ${show(mismatch.excel)}`
}
