/**
 * Tasks in SpreadsheetBench's layout, scored as its evaluation.py scores them. A dataset folder holds
 * dataset.json (a JSON array or JSON lines of {id, instruction, instruction_type, answer_position})
 * and, per task, test cases `{n}_{id}_input.xlsx` with `{n}_{id}_answer.xlsx` under spreadsheet/{id}/
 * (or {id}/). A test case passes when every cell of answer_position holds in the output what it holds
 * in the answer, comparing cached values as openpyxl reads them with data_only: numbers (and booleans,
 * and text that reads as a number) rounded to 2 decimals, dates as serial days rounded to whole days,
 * times as "HH:MM", empty equal to empty text, other text exactly, and a value of another type never
 * equal. A range without a sheet is on the answer's first sheet. Any malformed position fails the case,
 * as the exception it raises there does.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { isDateFormat } from '@finsheet/formula'

export interface BenchTask {
  id: string
  instruction: string
  instructionType: string
  answerPosition: string
  /** Test cases: an input workbook and the answer it should become. */
  cases: { input: string; answer: string }[]
}

/** Whether a folder is in SpreadsheetBench's layout. */
export function isBenchDataset(dir: string): boolean {
  return existsSync(join(dir, 'dataset.json'))
}

export function loadBenchTasks(dir: string): BenchTask[] {
  const text = readFileSync(join(dir, 'dataset.json'), 'utf8').trim()
  const entries: Record<string, unknown>[] = text.startsWith('[') ? JSON.parse(text) : text.split('\n').filter(Boolean).map((line) => JSON.parse(line))
  return entries.map((entry) => {
    const id = String(entry.id)
    const folder = [join(dir, 'spreadsheet', id), join(dir, id)].find((candidate) => existsSync(candidate))
    const cases: BenchTask['cases'] = []
    if (folder) {
      const inputs = readdirSync(folder).filter((name) => name.endsWith(`_${id}_input.xlsx`)).sort()
      for (const input of inputs) {
        const answer = input.replace(/_input\.xlsx$/, '_answer.xlsx')
        if (existsSync(join(folder, answer))) cases.push({ input: join(folder, input), answer: join(folder, answer) })
      }
    }
    return { id, instruction: String(entry.instruction), instructionType: String(entry.instruction_type ?? ''), answerPosition: String(entry.answer_position ?? ''), cases }
  })
}

// ---- values as openpyxl reads them --------------------------------------------------------------

/** A cell value as openpyxl gives it with data_only (cached values). */
export type SheetValue = null | { kind: 'number'; value: number } | { kind: 'bool'; value: boolean } | { kind: 'text'; value: string } | { kind: 'datetime'; serial: number } | { kind: 'time'; text: string }

/** A sheet's cells by address, with the sheet order of the workbook. */
export interface BenchWorkbook {
  sheetNames: string[]
  sheets: Map<string, Map<string, SheetValue>>
}

const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30)
const MS_PER_DAY = 86_400_000

/** openpyxl's reading of a serial under a date format: a time below one day, else a date and time. */
function dateValue(serial: number): SheetValue {
  const day = Math.floor(serial)
  const milliseconds = Math.round((serial - day) * MS_PER_DAY)
  if (serial >= 0 && serial < 1 && milliseconds < MS_PER_DAY) {
    const seconds = Math.floor(milliseconds / 1000)
    const pad = (n: number) => String(n).padStart(2, '0')
    const rest = milliseconds % 1000
    // str(time) is HH:MM:SS or HH:MM:SS.ffffff; evaluation.py drops its last three characters.
    const full = `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}${rest > 0 ? `.${String(rest * 1000).padStart(6, '0')}` : ''}`
    return { kind: 'time', text: full.slice(0, -3) }
  }
  // openpyxl counts the 1900 leap-year bug: serials below 60 are a day later.
  const shifted = serial > 0 && serial < 60 ? day + 1 : day
  return { kind: 'datetime', serial: shifted + milliseconds / MS_PER_DAY }
}

function cellValue(cell: ExcelJS.Cell): SheetValue {
  let value: unknown = cell.value
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const object = value as Record<string, unknown>
    if ('formula' in object || 'sharedFormula' in object) value = object.result ?? null
    else if ('richText' in object) value = (object.richText as { text: string }[]).map((run) => run.text).join('')
    else if ('text' in object) value = object.text
    else if ('error' in object) value = object.error
  }
  if (value !== null && typeof value === 'object' && 'error' in (value as object)) value = (value as { error: string }).error
  if (value === null || value === undefined) return null
  if (value instanceof Date) return dateValue((value.getTime() - EXCEL_EPOCH_MS) / MS_PER_DAY)
  if (typeof value === 'boolean') return { kind: 'bool', value }
  if (typeof value === 'number') return cell.numFmt && isDateFormat(cell.numFmt) ? dateValue(value) : { kind: 'number', value }
  return { kind: 'text', value: String(value) }
}

export async function readBenchWorkbook(file: string | Buffer): Promise<BenchWorkbook> {
  const workbook = new ExcelJS.Workbook()
  if (typeof file === 'string') await workbook.xlsx.readFile(file)
  else await workbook.xlsx.load(file as unknown as ArrayBuffer)
  const sheets = new Map<string, Map<string, SheetValue>>()
  for (const sheet of workbook.worksheets) {
    const cells = new Map<string, SheetValue>()
    sheet.eachRow({ includeEmpty: false }, (row) => row.eachCell({ includeEmpty: false }, (cell) => cells.set(cell.address, cellValue(cell))))
    sheets.set(sheet.name, cells)
  }
  return { sheetNames: workbook.worksheets.map((sheet) => sheet.name), sheets }
}

// ---- evaluation.py's comparison ----------------------------------------------------------------

/** Python's round(x, 2) on a double: the exact binary value rounded half to even. */
export function pythonRound2(x: number): number {
  if (!Number.isFinite(x)) return x
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, x)
  const high = view.getUint32(0)
  const low = view.getUint32(4)
  const negative = high >>> 31 === 1
  const exponentBits = (high >>> 20) & 0x7ff
  let mantissa = (BigInt(high & 0xfffff) << 32n) | BigInt(low)
  let exponent: number
  if (exponentBits === 0) exponent = -1074
  else {
    mantissa |= 1n << 52n
    exponent = exponentBits - 1075
  }
  // x = mantissa × 2^exponent; rounded = nearest integer to x × 100, ties to even.
  let rounded: bigint
  if (exponent >= 0) rounded = mantissa * 100n * (1n << BigInt(exponent))
  else {
    const numerator = mantissa * 100n
    const denominator = 1n << BigInt(-exponent)
    rounded = numerator / denominator
    const twice = (numerator % denominator) * 2n
    if (twice > denominator || (twice === denominator && rounded % 2n === 1n)) rounded += 1n
  }
  const result = Number(rounded) / 100
  return negative ? -result : result
}

/** Python's round(x) to a whole number, ties to even. */
function pythonRound0(x: number): number {
  const floor = Math.floor(x)
  const diff = x - floor
  if (diff > 0.5) return floor + 1
  if (diff < 0.5) return floor
  return floor % 2 === 0 ? floor : floor + 1
}

/** What Python's float() accepts: spaces around, underscores between digits, inf and nan. */
function pythonFloat(text: string): number | undefined {
  const trimmed = text.trim()
  if (/^[+-]?(inf|infinity)$/i.test(trimmed)) return trimmed.startsWith('-') ? -Infinity : Infinity
  if (/^[+-]?nan$/i.test(trimmed)) return NaN
  if (!/^[+-]?((\d(_?\d)*)?\.?\d(_?\d)*|\d(_?\d)*\.)([eE][+-]?\d(_?\d)*)?$/.test(trimmed)) return undefined
  return Number(trimmed.replace(/_/g, ''))
}

type Transformed = null | number | string

/** evaluation.py's transform_value. */
export function transformValue(value: SheetValue): Transformed {
  if (value === null) return null
  switch (value.kind) {
    case 'number':
      return pythonRound2(value.value)
    case 'bool':
      return value.value ? 1 : 0
    case 'time':
      return value.text
    case 'datetime':
      return pythonRound0(value.serial)
    case 'text': {
      const number = pythonFloat(value.value)
      return number === undefined ? value.value : pythonRound2(number)
    }
  }
}

/** evaluation.py's compare_cell_value. */
export function compareCellValue(a: SheetValue, b: SheetValue): boolean {
  const x = transformValue(a)
  const y = transformValue(b)
  if ((x === '' && y === null) || (x === null && y === '')) return true
  if (x === y) return true
  if (typeof x !== typeof y) return false
  return x === y
}

function colNameToNum(name: string): number {
  let num = 0
  for (const char of name) num = num * 26 + (char.charCodeAt(0) - 65 + 1)
  return num
}

function colNumToName(n: number): string {
  let name = ''
  while (n > 0) {
    const remainder = (n - 1) % 26
    n = Math.floor((n - 1) / 26)
    name = String.fromCharCode(65 + remainder) + name
  }
  return name
}

/** evaluation.py's generate_cell_names, then openpyxl's reading of each name; throws where they would. */
function cellNames(range: string): string[] {
  const split = (cell: string) => {
    let col = ''
    let row = ''
    for (const char of cell) if (/\d/.test(char)) row += char
    else col += char
    return { col, row: Number.parseInt(row, 10) }
  }
  let names: string[]
  if (!range.includes(':')) names = [range]
  else {
    const parts = range.split(':')
    if (parts.length !== 2) throw new Error(`bad range ${range}`)
    const start = split(parts[0])
    const end = split(parts[1])
    if (Number.isNaN(start.row) || Number.isNaN(end.row)) throw new Error(`bad range ${range}`)
    names = []
    for (let col = colNameToNum(start.col); col <= colNameToNum(end.col); col++) for (let row = start.row; row <= end.row; row++) names.push(`${colNumToName(col)}${row}`)
  }
  return names.map((name) => {
    const match = /^\$?([A-Za-z]{1,3})\$?(\d+)$/.exec(name)
    if (!match || Number(match[2]) < 1) throw new Error(`bad cell ${name}`)
    return `${match[1].toUpperCase()}${Number(match[2])}`
  })
}

/** The cells of answer_position by sheet, as evaluation.py reads it against the answer workbook. */
export function answerCells(answer: BenchWorkbook, position: string): { sheet: string; cells: string[] }[] {
  return position.split(',').map((part) => {
    let sheet: string
    let range: string
    if (part.includes('!')) {
      const pieces = part.split('!')
      if (pieces.length !== 2) throw new Error(`bad position ${part}`)
      sheet = pieces[0].replace(/^'+|'+$/g, '')
      range = pieces[1]
    } else {
      sheet = answer.sheetNames[0]
      range = part
    }
    return { sheet, cells: cellNames(range.replace(/^'+|'+$/g, '')) }
  })
}

/** One test case: the output workbook against the answer, over answer_position. */
export function compareWorkbooks(answer: BenchWorkbook, output: BenchWorkbook, position: string): { passed: boolean; message: string } {
  let positions: { sheet: string; cells: string[] }[]
  try {
    positions = answerCells(answer, position)
  } catch (error) {
    return { passed: false, message: (error as Error).message }
  }
  for (const { sheet, cells } of positions) {
    if (!output.sheets.has(sheet)) return { passed: false, message: 'worksheet not found' }
    const expected = answer.sheets.get(sheet)
    if (!expected) return { passed: false, message: `the answer has no sheet ${sheet}` }
    const got = output.sheets.get(sheet) as Map<string, SheetValue>
    for (const cell of cells) {
      const want = expected.get(cell) ?? null
      const have = got.get(cell) ?? null
      if (!compareCellValue(want, have)) return { passed: false, message: `Value difference at cell ${sheet}!${cell}: answer has ${JSON.stringify(transformValue(want))}, output has ${JSON.stringify(transformValue(have))}` }
    }
  }
  return { passed: true, message: '' }
}

/** Cells whose value differs between the input and the output, outside answer_position. */
export function changesOutside(input: BenchWorkbook, output: BenchWorkbook, answer: BenchWorkbook, position: string): string[] {
  const inside = new Set<string>()
  try {
    for (const { sheet, cells } of answerCells(answer, position)) for (const cell of cells) inside.add(`${sheet}!${cell}`)
  } catch {
    // A position evaluation.py cannot read covers nothing.
  }
  const changed: string[] = []
  const names = new Set([...input.sheetNames, ...output.sheetNames])
  for (const sheet of names) {
    const before = input.sheets.get(sheet) ?? new Map<string, SheetValue>()
    const after = output.sheets.get(sheet) ?? new Map<string, SheetValue>()
    for (const cell of new Set([...before.keys(), ...after.keys()])) {
      const ref = `${sheet}!${cell}`
      if (!inside.has(ref) && !compareCellValue(before.get(cell) ?? null, after.get(cell) ?? null)) changed.push(ref)
    }
  }
  return changed
}
