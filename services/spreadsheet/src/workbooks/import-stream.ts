/**
 * The streamed form of the bulk import (application/x-ndjson): a header line, lines of cells, an end
 * line. Each line is parsed and checked as it arrives and its cells handed to the import, so neither
 * the body's text nor its objects are ever held whole. A stream past the size limit, a line that is
 * not what the contract says, or a stream that stops before its end line stores nothing.
 */
import { StringDecoder } from 'node:string_decoder'
import { Compile } from 'typebox/compile'
import { ImportCellRunLine, ImportCellsLine, ImportEndLine, ImportStreamHeader } from '@finsheet/contracts'
import { spreadsheetErrors } from '../errors.js'
import type { WorkbookImport } from './workbook-import.js'

const headerCheck = Compile(ImportStreamHeader)
const cellsCheck = Compile(ImportCellsLine)
const runCheck = Compile(ImportCellRunLine)
const endCheck = Compile(ImportEndLine)

/** What the header line decides: import the cells into this, or skip them (the import is already stored). */
export type HeaderDecision = WorkbookImport | 'skip'

function describeFirstError(errors: { instancePath?: string; message?: string }[]): string {
  const first = errors[0]
  if (!first) return 'it does not match the import contract'
  return `${first.instancePath ? `${first.instancePath} ` : ''}${first.message ?? 'is invalid'}`
}

function parseLine(text: string, lineNumber: number): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw spreadsheetErrors.invalidImport(`Line ${lineNumber} of the import is not JSON`)
  }
}

/**
 * Reads an import stream; `onHeader` gets the checked header and answers where its cells go.
 * Resolves with the header once the end line has arrived and nothing follows it.
 */
export async function readImportStream(
  stream: AsyncIterable<Buffer | string>,
  limitBytes: number,
  onHeader: (header: ImportStreamHeader) => Promise<HeaderDecision> | HeaderDecision,
): Promise<{ header: ImportStreamHeader; skipped: boolean }> {
  const decoder = new StringDecoder('utf8')
  let bytes = 0
  let pending = ''
  let lineNumber = 0
  let header: ImportStreamHeader | undefined
  let target: HeaderDecision | undefined
  let ended = false
  let cells = 0

  const handle = async (text: string) => {
    lineNumber++
    if (text.trim() === '') return
    if (ended) throw spreadsheetErrors.invalidImport(`Line ${lineNumber} follows the import's end line`)
    const value = parseLine(text, lineNumber)
    if (!header) {
      if (!headerCheck.Check(value)) throw spreadsheetErrors.invalidImport(`The import's first line is not its header: ${describeFirstError(headerCheck.Errors(value))}`)
      header = value
      target = await onHeader(value)
      return
    }
    if (typeof value === 'object' && value !== null && 'end' in value) {
      if (!endCheck.Check(value)) throw spreadsheetErrors.invalidImport(`Line ${lineNumber}: ${describeFirstError(endCheck.Errors(value))}`)
      if (value.end.cells !== cells) throw spreadsheetErrors.importIncomplete(`its end line counts ${value.end.cells} cells but ${cells} arrived`)
      ended = true
      return
    }
    const run = typeof value === 'object' && value !== null && 'rows' in value
    if (target === 'skip') {
      const sent = run ? (value as { rows?: unknown }).rows : (value as { cells?: unknown }).cells
      cells += Array.isArray(sent) ? sent.length : 0
      return
    }
    const check = run ? runCheck : cellsCheck
    if (!check.Check(value)) throw spreadsheetErrors.invalidImport(`Line ${lineNumber}: ${describeFirstError(check.Errors(value))}`)
    const line = value as ImportCellRunLine | ImportCellsLine
    if (line.sheet >= header.sheets.length) throw spreadsheetErrors.invalidImport(`Line ${lineNumber} names sheet ${line.sheet + 1} but the header declares ${header.sheets.length}`)
    if ('rows' in line) {
      cells += line.rows.length
      ;(target as WorkbookImport).addCellRun(line, lineNumber)
    } else {
      cells += line.cells.length
      ;(target as WorkbookImport).addCellTuples(line.sheet, line.cells)
    }
  }

  for await (const chunk of stream) {
    bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length
    if (bytes > limitBytes) throw spreadsheetErrors.importTooLarge(limitBytes)
    pending += typeof chunk === 'string' ? chunk : decoder.write(chunk)
    let start = 0
    for (let newline = pending.indexOf('\n'); newline >= 0; newline = pending.indexOf('\n', start)) {
      await handle(pending.slice(start, newline))
      start = newline + 1
    }
    pending = pending.slice(start)
  }
  pending += decoder.end()
  if (pending !== '') await handle(pending)
  if (!header) throw spreadsheetErrors.importIncomplete('it has no header line')
  if (!ended) throw spreadsheetErrors.importIncomplete(`its end line is missing after ${cells} cells`)
  return { header, skipped: target === 'skip' }
}
