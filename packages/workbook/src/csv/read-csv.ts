/**
 * CSV files (RFC 4180) into a one-sheet workbook, streamed: the encoding is found from the byte order
 * mark or by chardet, the delimiter from the first lines, and each field is read as Excel reads typed
 * input (numbers with separators, currency, percentages, dates, booleans). Text that starts with '='
 * stays text: a CSV carries data, and a formula arriving in one is an injection, not an intent.
 */
import { createReadStream } from 'node:fs'
import { open, stat } from 'node:fs/promises'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import chardet from 'chardet'
import { parse, CsvError } from 'csv-parse'
import iconv from 'iconv-lite'
import { columnToLetters, parseCellInput } from '@finsheet/formula'
import {
  DEFAULT_IMPORT_LIMITS,
  formatCount,
  ImportFileError,
  type ImportedCell,
  type ImportedStyle,
  type ImportedValue,
  type ImportedWorkbook,
  type ImportLimits,
  type ProgressListener,
} from '../import/imported-workbook.js'

export interface ReadCsvOptions {
  /** The one sheet's name; default "Sheet1". */
  sheetName?: string
  limits?: Partial<ImportLimits>
  onProgress?: ProgressListener
}

export interface CsvDialect {
  encoding: string
  delimiter: string
  /** Numbers are written 1.234,5 (the delimiter is then ';' or a tab). */
  decimalComma: boolean
}

const SAMPLE_BYTES = 64 * 1024
const DELIMITERS = [',', ';', '\t', '|']

/** Reads the CSV file at `path` into a workbook of one sheet. */
export async function readCsvFile(path: string, options: ReadCsvOptions = {}): Promise<ImportedWorkbook> {
  const limits = { ...DEFAULT_IMPORT_LIMITS, ...options.limits }
  const size = (await stat(path)).size
  const sample = await readSample(path)
  const dialect = detectDialect(sample)

  const cells: ImportedCell[] = []
  const styles: ImportedStyle[] = []
  const styleByFormat = new Map<string, number>()
  let rowCount = 0
  let columnCount = 0
  let bytesRead = 0
  let line = 1

  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytesRead += chunk.length
      options.onProgress?.(Math.min(1, bytesRead / (size || 1)))
      callback(null, chunk)
    },
  })
  // A NUL cannot appear in text; finding one means the file is binary or mislabelled.
  const nulGuard = new Transform({
    decodeStrings: false,
    transform(chunk: string, _encoding, callback) {
      const nul = chunk.indexOf('\u0000')
      if (nul !== -1) {
        const lineOfNul = line + countNewlines(chunk, nul)
        callback(new ImportFileError('CSV_INVALID', `The CSV file contains a NUL byte on line ${lineOfNul}; it is not a text file. Export it again as CSV (UTF-8).`))
        return
      }
      line += countNewlines(chunk, chunk.length)
      callback(null, chunk)
    },
  })
  const parser = parse({
    delimiter: dialect.delimiter,
    bom: true,
    skip_empty_lines: true,
    relax_column_count: false,
    max_record_size: 1024 * 1024,
  })

  let row = 0
  const consume = async function* (records: AsyncIterable<string[]>) {
    for await (const record of records) {
      for (let col = 0; col < record.length; col++) {
        const field = record[col]
        if (field === '') continue
        const { value, format } = readField(field, dialect.decimalComma)
        const cell: ImportedCell = { row, col, address: columnToLetters(col) + String(row + 1), value }
        if (format) {
          let index = styleByFormat.get(format)
          if (index === undefined) {
            index = styles.push({ numberFormat: format }) - 1
            styleByFormat.set(format, index)
          }
          cell.style = index
        }
        cells.push(cell)
        if (col >= columnCount) columnCount = col + 1
        if (cells.length > limits.maxCells) {
          throw new ImportFileError('TOO_MANY_CELLS', `The CSV file has more than ${formatCount(limits.maxCells)} cells, the most one import takes. Split it into smaller files.`)
        }
      }
      row++
      rowCount = row
    }
    yield* []
  }

  try {
    await pipeline(createReadStream(path), counter, iconv.decodeStream(dialect.encoding), nulGuard, parser, consume)
  } catch (error) {
    throw csvError(error)
  }
  if (cells.length === 0) throw new ImportFileError('NO_DATA', 'The CSV file has no data.')
  options.onProgress?.(1)
  return {
    sheets: [{ name: options.sheetName ?? 'Sheet1', state: 'visible', cells, merges: [], columns: [], rows: [], rowCount, columnCount }],
    definedNames: [],
    styles,
    date1904: false,
    cellCount: cells.length,
    formulaCount: 0,
  }
}

async function readSample(path: string): Promise<Buffer> {
  const handle = await open(path, 'r')
  try {
    const buffer = Buffer.alloc(SAMPLE_BYTES)
    const { bytesRead } = await handle.read(buffer, 0, SAMPLE_BYTES, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

/** The encoding, delimiter and decimal mark of a CSV file, from its first bytes. */
export function detectDialect(sample: Buffer): CsvDialect {
  const encoding = detectEncoding(sample)
  const text = iconv.decode(sample, encoding)
  const lines = sampleLines(text)
  const delimiter = detectDelimiter(lines)
  const decimalComma = delimiter !== ',' && lines.some((line) => line.split(delimiter).some((field) => /^\s*-?[\d.]*\d,\d+\s*$/.test(field.replace(/"/g, ''))))
  return { encoding, delimiter, decimalComma }
}

export function detectEncoding(sample: Buffer): string {
  if (sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf) return 'utf8'
  if (sample[0] === 0xff && sample[1] === 0xfe) return 'utf16le'
  if (sample[0] === 0xfe && sample[1] === 0xff) return 'utf16be'
  if (isUtf8(sample)) return 'utf8'
  const guess = chardet.detect(sample)
  if (guess && iconv.encodingExists(guess)) return guess
  return 'windows-1252'
}

function isUtf8(sample: Buffer): boolean {
  // The sample may end inside a character: drop up to three trailing bytes of an unfinished one.
  let end = sample.length
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = sample[end - back]
    if ((byte & 0xc0) === 0xc0) {
      end -= back
      break
    }
    if ((byte & 0x80) === 0) break
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample.subarray(0, end))
    return true
  } catch {
    return false
  }
}

/** Up to 50 whole lines, with line breaks inside quotes kept inside their line. */
function sampleLines(text: string): string[] {
  const lines: string[] = []
  let current = ''
  let quoted = false
  for (let i = 0; i < text.length && lines.length < 50; i++) {
    const ch = text[i]
    if (ch === '"') quoted = !quoted
    if (!quoted && (ch === '\n' || ch === '\r')) {
      if (current !== '') lines.push(current)
      current = ''
      continue
    }
    current += ch
  }
  // The last line of a sample cut mid-file is incomplete; keep it only when it is all there is.
  if (current !== '' && lines.length === 0) lines.push(current)
  return lines
}

/** The candidate that splits every sampled line into the same number of fields, the most of them. */
function detectDelimiter(lines: string[]): string {
  let best = ','
  let bestScore = 0
  for (const delimiter of DELIMITERS) {
    const counts = lines.map((line) => countOutsideQuotes(line, delimiter))
    if (counts.length === 0 || counts[0] === 0) continue
    const consistent = counts.filter((count) => count === counts[0]).length / counts.length
    const score = consistent * 1000 + counts[0]
    if (score > bestScore) {
      bestScore = score
      best = delimiter
    }
  }
  return best
}

function countOutsideQuotes(line: string, delimiter: string): number {
  let count = 0
  let quoted = false
  for (const ch of line) {
    if (ch === '"') quoted = !quoted
    else if (ch === delimiter && !quoted) count++
  }
  return count
}

function countNewlines(text: string, end: number): number {
  let count = 0
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) count++
  return count
}

/** A field as a value, read as typed input; formulas and formula-like text stay text. */
export function readField(field: string, decimalComma: boolean): { value: ImportedValue; format?: string } {
  if (field.charCodeAt(0) === 61 /* = */) return { value: field }
  const text = decimalComma && /^\s*[-+(]?[\d.]*\d(,\d+)?\)?%?\s*$/.test(field) ? field.replace(/\./g, '').replace(',', '.') : field
  const input = parseCellInput(text)
  if (input.kind !== 'value') return { value: field }
  const value = input.value
  if (typeof value === 'object') return { value: { error: value.code } }
  if (typeof value === 'string') return { value: field }
  return input.format ? { value, format: input.format } : { value }
}

function csvError(error: unknown): ImportFileError {
  if (error instanceof ImportFileError) return error
  if (error instanceof CsvError) {
    const line = (error as CsvError & { lines?: number }).lines
    const where = line ? ` on line ${line}` : ''
    switch (error.code) {
      case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH':
      case 'CSV_RECORD_INCONSISTENT_COLUMNS': {
        const record = (error as CsvError & { record?: unknown[] }).record
        const found = Array.isArray(record) ? ` has ${record.length} fields` : ' has a different number of fields'
        return new ImportFileError('CSV_INVALID', `The CSV file's rows are ragged: the row${where}${found}, unlike the first row. Every row needs the same number of fields.`)
      }
      case 'CSV_QUOTE_NOT_CLOSED':
        return new ImportFileError('CSV_INVALID', `The CSV file has a quote that is never closed${where}.`)
      case 'CSV_INVALID_CLOSING_QUOTE':
      case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
        return new ImportFileError('CSV_INVALID', `The CSV file has text after a closing quote${where}; quotes inside a field must be doubled ("").`)
      case 'CSV_MAX_RECORD_SIZE':
        return new ImportFileError('CSV_INVALID', `The CSV file has a row longer than 1 MB${where}; it does not look like CSV.`)
      default:
        return new ImportFileError('CSV_INVALID', `The CSV file cannot be read${where}: ${error.message}`)
    }
  }
  const detail = error instanceof Error ? error.message : String(error)
  return new ImportFileError('CSV_INVALID', `The CSV file cannot be read: ${detail}`)
}
