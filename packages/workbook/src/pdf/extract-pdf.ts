/**
 * Figures from a PDF document (a financial statement, a report): pdf-parse extracts each page's text,
 * and every line that reads as a label followed by a number becomes an entry, such as
 * 'Total revenue 1,234.5' → { label: 'Total revenue', value: 1234.5 }. Further figures on the line
 * (other years' columns) and the page go into the notes.
 *
 * pdf-parse runs in a worker thread: the pdf.js build it loads installs polyfills over JSON.parse
 * and Array.prototype.push, which would slow every other part of the process that imported it, and
 * the worker bounds the memory and time a hostile document can take.
 */
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import { ImportFileError } from '../import/imported-workbook.js'

export interface PdfEntry {
  label: string
  value: number
  notes: string
}

export interface PdfExtraction {
  data: PdfEntry[]
  pages: number
  /** Characters of text found, to tell a scanned document from one without figures. */
  textLength: number
}

/** The spec's text for a PDF that yields nothing. */
export const NO_DATA_EXTRACTED = 'No data extracted from document'

/** Extracts the label–value entries of a PDF held in memory (PDF parsing needs random access). */
export async function extractPdfEntries(bytes: Uint8Array): Promise<PdfExtraction> {
  if (!isPdf(bytes)) throw new ImportFileError('TYPE_MISMATCH', 'The file is not a PDF document (it does not start with %PDF).')
  const pages = await readPdfPages(bytes)
  const data: PdfEntry[] = []
  let textLength = 0
  for (const page of pages) {
    textLength += page.text.trim().length
    for (const line of page.text.split(/\r?\n/)) {
      const entry = entryFromLine(line)
      if (entry) data.push({ ...entry, notes: [entry.notes, `page ${page.num}`].filter(Boolean).join('; ') })
    }
  }
  if (data.length === 0) {
    throw new ImportFileError('NO_DATA', NO_DATA_EXTRACTED)
  }
  return { data, pages: pages.length, textLength }
}

/** Most time and memory one document may take to read. */
const PDF_TIMEOUT_MS = 60_000
const PDF_MEMORY_MB = 512

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const { PDFParse } = require(workerData.entry)
;(async () => {
  const parser = new PDFParse({ data: workerData.bytes, verbosity: 0 })
  try {
    const result = await parser.getText()
    parentPort.postMessage({ pages: result.pages.map((page) => ({ num: page.num, text: page.text })) })
  } catch (error) {
    parentPort.postMessage({ error: { name: (error && error.name) || 'Error', message: String((error && error.message) || error) } })
  } finally {
    await parser.destroy().catch(() => undefined)
  }
})()
`

/** The text of each page, read by pdf-parse in a worker thread. */
/** The text of each page of a PDF, read by pdf.js in a bounded worker. */
export function readPdfPages(bytes: Uint8Array): Promise<{ num: number; text: string }[]> {
  const entry = createRequire(import.meta.url).resolve('pdf-parse')
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { entry, bytes: new Uint8Array(bytes) },
      resourceLimits: { maxOldGenerationSizeMb: PDF_MEMORY_MB },
    })
    const timer = setTimeout(() => {
      void worker.terminate()
      reject(new ImportFileError('CORRUPT_FILE', 'The PDF took too long to read; it may be damaged.'))
    }, PDF_TIMEOUT_MS)
    worker.once('message', (message: { pages?: { num: number; text: string }[]; error?: { name: string; message: string } }) => {
      clearTimeout(timer)
      void worker.terminate()
      if (message.pages) return resolve(message.pages)
      const error = message.error ?? { name: 'Error', message: 'unknown error' }
      if (error.name === 'PasswordException') {
        return reject(new ImportFileError('PASSWORD_PROTECTED', 'This PDF is password-protected. Remove the password and upload it again.'))
      }
      reject(new ImportFileError('CORRUPT_FILE', `The PDF cannot be read (it is damaged or truncated: ${error.message}).`))
    })
    worker.once('error', (error) => {
      clearTimeout(timer)
      reject(new ImportFileError('CORRUPT_FILE', `The PDF cannot be read (${error.message}).`))
    })
  })
}

export function isPdf(bytes: Uint8Array): boolean {
  // The header may follow a little junk; readers accept it within the first kilobyte.
  return Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-')
}

const NUMBER = String.raw`\(?[-−–]?[$€£¥]?\s?\d[\d,]*(?:\.\d+)?\)?%?`
const LINE = new RegExp(String.raw`^(.*?[A-Za-z][^\d$€£¥()]*?)[\s.:…]+(${NUMBER})((?:\s+${NUMBER})*)\s*(.*)$`)

/** A label and its first figure from one line of text, or undefined when the line has no such pair. */
export function entryFromLine(line: string): PdfEntry | undefined {
  const text = line.replace(/\s+/g, ' ').trim()
  const match = LINE.exec(text)
  if (!match) return undefined
  const label = match[1].replace(/[\s.:…-]+$/, '').trim()
  if (label.length < 2 || !/[A-Za-z]{2}/.test(label)) return undefined
  const value = parseFigure(match[2])
  if (value === undefined) return undefined
  const notes = [match[3].trim(), match[4].trim()].filter(Boolean).join(' ')
  return { label, value, notes }
}

/** '1,234.5' → 1234.5, '(12)' → -12, '12%' → 0.12, '$3' → 3. */
export function parseFigure(text: string): number | undefined {
  const negative = /^\(.*\)%?$/.test(text) || /^[-−–]/.test(text.replace(/^\(/, ''))
  const digits = text.replace(/[()$€£¥\s%−–-]/g, '').replace(/,/g, '')
  if (!/^\d+(\.\d+)?$/.test(digits)) return undefined
  let value = Number(digits)
  if (text.endsWith('%')) value /= 100
  return negative ? -value : value
}
