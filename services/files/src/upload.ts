/**
 * Receiving an upload: the multipart stream goes straight to the blob store through a counter that
 * stops it past the size limit and keeps its first kilobytes, so the content can be checked against
 * the name without holding the file in memory.
 */
import { randomUUID } from 'node:crypto'
import { Transform, type Readable } from 'node:stream'
import type { FastifyRequest } from 'fastify'
import type { BlobStore } from '@finsheet/platform'
import { userFileKey } from '@finsheet/platform'
import type { FileKind } from '@finsheet/contracts'
import { CONTENT_DESCRIPTIONS, contentKindOf, contentMatches, fileKindOfMime, fileKindOfName, KIND_DESCRIPTIONS } from '@finsheet/workbook'
import { filesErrors } from './errors.js'

export interface ReceivedUpload {
  id: string
  name: string
  size: number
  mimeType: string
  kind: FileKind
  storagePath: string
  /** Text fields sent beside the file (upload-excel's name and description). */
  fields: Record<string, string>
}

const HEAD_BYTES = 4096
const DEFAULT_MIME: Record<FileKind, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xls: 'application/vnd.ms-excel',
  csv: 'text/csv',
  pdf: 'application/pdf',
}

/**
 * A file name safe to show and store: the last path segment only (no `../`), without control or
 * invisible formatting characters, trimmed, at most 200 characters with its extension kept.
 */
export function sanitizeFileName(raw: string | undefined): string {
  const lastSegment = (raw ?? '').split(/[/\\]/).pop() ?? ''
  // eslint-disable-next-line no-control-regex
  let name = lastSegment.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '').replace(/\s+/g, ' ').trim()
  name = name.replace(/^\.+/, '').trim()
  if (name.length > 200) {
    const dot = name.lastIndexOf('.')
    const extension = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : ''
    name = name.slice(0, 200 - extension.length) + extension
  }
  return name || 'file'
}

export interface ReceiveOptions {
  blobs: BlobStore
  userId: string
  limitBytes: number
  /** The kinds this route takes; others answer `refuse()`. */
  accept: readonly FileKind[]
  refuse: () => Error
  /** Multipart field names that carry the file. */
  fileFields: readonly string[]
}

/** Streams the request's file into the blob store and returns what was stored; throws an AppError otherwise. */
export async function receiveUpload(request: FastifyRequest, options: ReceiveOptions): Promise<ReceivedUpload> {
  if (!request.isMultipart()) throw filesErrors.notMultipart()
  const fields: Record<string, string> = {}
  let received: ReceivedUpload | null = null
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      if (typeof part.value === 'string') fields[part.fieldname] = part.value
      continue
    }
    if (received || !options.fileFields.includes(part.fieldname)) {
      part.file.resume()
      continue
    }
    received = await storeFile(part.file, part.filename, part.mimetype, options)
  }
  if (!received) throw filesErrors.noFile()
  return { ...received, fields }
}

async function storeFile(stream: Readable, filename: string, mimetype: string, options: ReceiveOptions): Promise<ReceivedUpload> {
  const name = sanitizeFileName(filename)
  const kind = fileKindOfName(name) ?? fileKindOfMime(mimetype)
  if (!kind || !options.accept.includes(kind)) {
    stream.resume()
    throw options.refuse()
  }
  const id = randomUUID()
  const storagePath = userFileKey(options.userId, name)
  let size = 0
  let head = Buffer.alloc(0)
  let tooLarge = false
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      // Past the limit the rest is drained and dropped: the upload has already failed.
      if (tooLarge) return callback()
      size += chunk.length
      if (size > options.limitBytes) {
        tooLarge = true
        callback(filesErrors.fileTooLarge(options.limitBytes))
        return
      }
      if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)])
      callback(null, chunk)
    },
  })
  const mimeType = fileKindOfMime(mimetype) === kind ? mimetype : DEFAULT_MIME[kind]
  // Bytes flow as soon as they are piped, before the blob store listens: keep an early error for it.
  meter.on('error', () => undefined)
  stream.once('error', (error) => meter.destroy(error))
  try {
    await options.blobs.put(storagePath, stream.pipe(meter), { contentType: mimeType })
  } catch (error) {
    stream.unpipe(meter)
    stream.resume()
    await options.blobs.delete(storagePath).catch(() => undefined)
    if (tooLarge) throw filesErrors.fileTooLarge(options.limitBytes)
    throw error
  }
  const refusal = size === 0 ? filesErrors.emptyFile() : contentRefusal(kind, head)
  if (refusal) {
    await options.blobs.delete(storagePath)
    throw refusal
  }
  return { id, name, size, mimeType, kind, storagePath, fields: {} }
}

/** A file whose bytes say it is something else than its name claims is refused at once. */
function contentRefusal(kind: FileKind, head: Buffer): Error | null {
  const content = contentKindOf(head)
  if (contentMatches(kind, content)) return null
  return filesErrors.typeMismatch(`The file's content does not match its type: it should be ${KIND_DESCRIPTIONS[kind]} but is ${CONTENT_DESCRIPTIONS[content]}.`)
}
