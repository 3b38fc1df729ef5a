/**
 * The `finsheet` command line:
 *   finsheet calc FILE.xlsx    prints {"Sheet!A1": value, ...} for every formula cell, calculated by our engine
 *   finsheet check FILE.xlsx   compares our values with those Excel cached in the file
 * Options set iterative calculation, which otherwise follows the file's own settings.
 */
import { access } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { loadXlsxIntoEngine } from '../xlsx/load-xlsx.js'
import type { LoadedWorkbook } from '../xlsx/load-xlsx.js'
import { cellKey } from '../model/workbook-model.js'
import { compareWithCachedValues, valueToJson } from '../xlsx/compare.js'
import type { Mismatch } from '../xlsx/compare.js'
import { XlsxFormatError } from '../xlsx/read-xlsx.js'
import { MAX_ITERATIONS_LIMIT } from '../model/calculation.js'
import type { CalculationSettings } from '../model/calculation.js'

export interface CliOutput {
  write(text: string): void
}

export const USAGE = `Usage: finsheet <command> [options] FILE.xlsx

Commands:
  calc FILE.xlsx    Recalculate every formula of the workbook and print {"Sheet!A1": value, ...} as JSON
  check FILE.xlsx   Compare the recalculated values with those Excel saved in the file; print each
                    mismatch, then "N passed, N failed"

Options (iterative calculation follows the workbook's own settings unless these are given):
  --iterate               Calculate circular references by iteration
  --no-iterate            Report circular references instead (their cells keep the values saved in the file)
  --max-iterations N      The most passes over a circular reference, 1 to ${MAX_ITERATIONS_LIMIT} (Excel's default: 100)
  --max-change X          Stop iterating at the first pass that moves no value by X or more (default: 0.001)
`

/** The calculation settings the options ask for, or the text of what is wrong with them. */
function calculationOptions(values: { iterate?: boolean; 'max-iterations'?: string; 'max-change'?: string }): Partial<CalculationSettings> | string {
  const settings: Partial<CalculationSettings> = {}
  if (values.iterate !== undefined) settings.iterate = values.iterate
  const count = values['max-iterations']
  if (count !== undefined) {
    const number = Number(count)
    if (!/^\s*\d+\s*$/.test(count) || number < 1 || number > MAX_ITERATIONS_LIMIT) {
      return `--max-iterations takes a whole number from 1 to ${MAX_ITERATIONS_LIMIT}, not "${count}"`
    }
    settings.maxIterations = number
  }
  const change = values['max-change']
  if (change !== undefined) {
    const number = Number(change)
    if (change.trim() === '' || !Number.isFinite(number) || number < 0) return `--max-change takes a number of 0 or more, not "${change}"`
    settings.maxChange = number
  }
  return settings
}

/** Exit codes: 0 success (check: every cell matches), 1 check found mismatches, 2 usage or file error. */
export async function runCli(argv: readonly string[], stdout: CliOutput, stderr: CliOutput): Promise<number> {
  let parsed: ReturnType<typeof parseCommandLine>
  try {
    parsed = parseCommandLine(argv)
  } catch (error) {
    stderr.write(`finsheet: ${(error as Error).message}\n\n${USAGE}`)
    return 2
  }
  const [command, file, ...rest] = parsed.positionals
  if (command === undefined || command === 'help' || parsed.values.help) {
    ;(command === undefined && !parsed.values.help ? stderr : stdout).write(USAGE)
    return command === undefined && !parsed.values.help ? 2 : 0
  }
  if (command !== 'calc' && command !== 'check') {
    stderr.write(`finsheet: unknown command "${command}"\n\n${USAGE}`)
    return 2
  }
  if (file === undefined || rest.length > 0) {
    stderr.write(`finsheet ${command}: give exactly one xlsx file\n\n${USAGE}`)
    return 2
  }
  const calculation = calculationOptions(parsed.values)
  if (typeof calculation === 'string') {
    stderr.write(`finsheet ${command}: ${calculation}\n`)
    return 2
  }
  try {
    await access(file)
  } catch {
    stderr.write(`finsheet ${command}: cannot read ${file}\n`)
    return 2
  }

  let loaded: LoadedWorkbook
  try {
    loaded = await loadXlsxIntoEngine(file, { calculation })
  } catch (error) {
    const reason = error instanceof XlsxFormatError ? error.message : `not a readable xlsx workbook (${(error as Error).message})`
    stderr.write(`finsheet ${command}: ${file}: ${reason}\n`)
    return 2
  }
  warnOfCircularReferences(loaded, command, stderr)

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

function parseCommandLine(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    allowNegative: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      iterate: { type: 'boolean' },
      'max-iterations': { type: 'string' },
      'max-change': { type: 'string' },
    },
  })
}

/**
 * Excel's warning for circular references it cannot calculate (iteration off): the cells of each, on
 * stderr so that stdout keeps only the command's result.
 */
function warnOfCircularReferences(loaded: LoadedWorkbook, command: string, stderr: CliOutput): void {
  const cycles = loaded.engine.getCircularReferences()
  if (cycles.length === 0) return
  const cells = cycles.map((cycle) => cycle.map((cell) => cellKey(cell.sheet, cell.address)).join(', '))
  stderr.write(
    `finsheet ${command}: Circular References: ${cells.join('; ')}\n` +
      `  Iterative calculation is off, so these formulas keep the values saved in the file; --iterate calculates them.\n`,
  )
}

export function describeMismatch(mismatch: Mismatch): string {
  const show = (value: Mismatch['ours']) => JSON.stringify(valueToJson(value))
  return `${cellKey(mismatch.sheet, mismatch.address)}  ${mismatch.formula}  ours: ${show(mismatch.ours)}  Excel: ${show(mismatch.excel)}`
}
