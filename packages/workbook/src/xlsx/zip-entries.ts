/**
 * The parts of an xlsx (a zip) read through yauzl's central directory, so every part's declared size
 * is known before a byte is inflated: a zip bomb or an oversized workbook is refused up front, and
 * yauzl stops any part that inflates past what it declared.
 */
import type { Readable } from 'node:stream'
import yauzl from 'yauzl'
import { formatMegabytes, ImportFileError, type ImportLimits } from '../import/imported-workbook.js'

export interface ZipPart {
  readonly name: string
  readonly compressedSize: number
  readonly uncompressedSize: number
}

export interface ZipParts {
  readonly parts: ReadonlyMap<string, ZipPart>
  /** The part's bytes as they inflate; a part that inflates past its declared size errors. */
  open(name: string): Promise<Readable>
  /** The whole part as text, for the small ones (workbook.xml, styles.xml, rels). */
  text(name: string): Promise<string>
  close(): void
}

/** Parts smaller than this may compress as well as they like: tiny repetitive XML is normal. */
const RATIO_CHECK_FLOOR = 16 * 1024 * 1024

/** Opens the zip at `path`, checks its declared sizes against the limits, and gives access to its parts. */
export async function openZipParts(path: string, limits: Pick<ImportLimits, 'maxUncompressedBytes' | 'maxCompressionRatio'>): Promise<ZipParts> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, strictFileNames: false, validateEntrySizes: true }, (error, file) => {
      if (error || !file) reject(notAZip(error))
      else resolve(file)
    })
  })
  try {
    const entries = await readEntries(zip)
    const parts = new Map<string, ZipPart>()
    let total = 0
    for (const entry of entries.values()) {
      if ((entry.generalPurposeBitFlag & 0x1) !== 0) {
        throw new ImportFileError('PASSWORD_PROTECTED', 'This workbook is encrypted. Remove its password in Excel, save it, and upload it again.')
      }
      total += entry.uncompressedSize
      const ratio = entry.compressedSize > 0 ? entry.uncompressedSize / entry.compressedSize : Infinity
      if (entry.uncompressedSize > RATIO_CHECK_FLOOR && ratio > limits.maxCompressionRatio) {
        throw new ImportFileError(
          'ZIP_BOMB',
          `The file's part ${entry.fileName} would inflate ${Math.round(ratio)} times to ${formatMegabytes(entry.uncompressedSize)}; it looks like a zip bomb and was not opened.`,
        )
      }
      parts.set(entry.fileName, { name: entry.fileName, compressedSize: entry.compressedSize, uncompressedSize: entry.uncompressedSize })
    }
    if (total > limits.maxUncompressedBytes) {
      throw new ImportFileError(
        'TOO_LARGE',
        `The workbook inflates to ${formatMegabytes(total)}, more than the ${formatMegabytes(limits.maxUncompressedBytes)} one import takes. Split it into smaller workbooks.`,
      )
    }
    return {
      parts,
      open: (name) => openEntry(zip, entries, name),
      text: async (name) => {
        const chunks: Buffer[] = []
        for await (const chunk of await openEntry(zip, entries, name)) chunks.push(chunk as Buffer)
        return Buffer.concat(chunks).toString('utf8')
      },
      close: () => zip.close(),
    }
  } catch (error) {
    zip.close()
    throw error
  }
}

function readEntries(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, yauzl.Entry>()
    zip.on('entry', (entry: yauzl.Entry) => {
      // Part names are case-insensitive in OPC; keep the first spelling and normalise separators.
      entries.set(entry.fileName.replace(/\\/g, '/').replace(/^\//, ''), entry)
      zip.readEntry()
    })
    zip.once('end', () => resolve(entries))
    zip.once('error', (error: Error) => reject(notAZip(error)))
    zip.readEntry()
  })
}

function openEntry(zip: yauzl.ZipFile, entries: ReadonlyMap<string, yauzl.Entry>, name: string): Promise<Readable> {
  const entry = entries.get(name) ?? findCaseInsensitive(entries, name)
  if (!entry) return Promise.reject(new ImportFileError('CORRUPT_FILE', `The workbook is incomplete: its part ${name} is missing.`))
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) reject(notAZip(error))
      else resolve(stream)
    })
  })
}

function findCaseInsensitive(entries: ReadonlyMap<string, yauzl.Entry>, name: string): yauzl.Entry | undefined {
  const lower = name.toLowerCase()
  for (const [key, entry] of entries) if (key.toLowerCase() === lower) return entry
  return undefined
}

function notAZip(error: unknown): ImportFileError {
  if (error instanceof ImportFileError) return error
  const detail = error instanceof Error ? error.message : 'unreadable'
  return new ImportFileError('CORRUPT_FILE', `The file is not a readable xlsx workbook (it is damaged or truncated: ${detail}).`)
}

/** Turns an error raised while inflating or parsing a part into the import error a person sees. */
export function partError(part: string, error: unknown): ImportFileError {
  if (error instanceof ImportFileError) return error
  const detail = error instanceof Error ? error.message.split('\n')[0] : String(error)
  return new ImportFileError('CORRUPT_FILE', `The workbook is damaged: its part ${part} could not be read (${detail}).`)
}
