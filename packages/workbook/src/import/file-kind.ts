/**
 * What a file is, from its first bytes rather than its name: an upload whose extension lies is caught
 * before any parser sees it.
 */

export type FileKind = 'xlsx' | 'xls' | 'csv' | 'pdf'

export type ContentKind = 'zip' | 'ole2' | 'pdf' | 'text' | 'binary'

const ZIP = [0x50, 0x4b]
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]

/** Classifies content from at least its first 1 KB. */
export function contentKindOf(head: Uint8Array): ContentKind {
  if (startsWith(head, ZIP) && (head[2] === 0x03 || head[2] === 0x05 || head[2] === 0x07)) return 'zip'
  if (startsWith(head, OLE2)) return 'ole2'
  if (Buffer.from(head.subarray(0, 1024)).includes('%PDF-')) return 'pdf'
  return looksLikeText(head) ? 'text' : 'binary'
}

/** The kind of file an extension names, or undefined when it is not one the product takes. */
export function fileKindOfName(name: string): FileKind | undefined {
  const match = /\.(xlsx|xls|csv|pdf)$/i.exec(name.trim())
  return match ? (match[1].toLowerCase() as FileKind) : undefined
}

const MIME_KINDS: Record<string, FileKind> = {
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.ms-excel': 'xls',
  'text/csv': 'csv',
  'application/csv': 'csv',
  'text/comma-separated-values': 'csv',
  'application/pdf': 'pdf',
}

export function fileKindOfMime(mimeType: string | undefined): FileKind | undefined {
  if (!mimeType) return undefined
  return MIME_KINDS[mimeType.split(';')[0].trim().toLowerCase()]
}

/** Whether content of this kind can be a file of that kind: an xlsx is a zip, a csv is text... */
export function contentMatches(kind: FileKind, content: ContentKind): boolean {
  switch (kind) {
    case 'xlsx':
      return content === 'zip' || content === 'ole2' // an encrypted xlsx is an OLE2 container
    case 'xls':
      return content === 'ole2'
    case 'pdf':
      return content === 'pdf'
    case 'csv':
      return content === 'text'
  }
}

export const CONTENT_DESCRIPTIONS: Record<ContentKind, string> = {
  zip: 'a zip archive',
  ole2: 'an Office document in the old binary format',
  pdf: 'a PDF document',
  text: 'a text file',
  binary: 'a binary file',
}

export const KIND_DESCRIPTIONS: Record<FileKind, string> = {
  xlsx: 'an Excel workbook (.xlsx)',
  xls: 'an Excel 97–2003 workbook (.xls)',
  csv: 'a CSV file (.csv)',
  pdf: 'a PDF document (.pdf)',
}

/** An OLE2 container holding an EncryptedPackage stream is a password-protected xlsx. */
export function isEncryptedOfficeFile(bytes: Uint8Array): boolean {
  return Buffer.from(bytes).includes(Buffer.from('EncryptedPackage', 'utf16le'))
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte)
}

/** Text has no NUL in its first kilobyte unless it is UTF-16 (then every other byte is NUL for ASCII). */
function looksLikeText(head: Uint8Array): boolean {
  const sample = head.subarray(0, 1024)
  if (sample.length === 0) return true
  if ((sample[0] === 0xff && sample[1] === 0xfe) || (sample[0] === 0xfe && sample[1] === 0xff)) return true
  let control = 0
  for (const byte of sample) {
    if (byte === 0) return false
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20)) control++
  }
  return control / sample.length < 0.05
}
