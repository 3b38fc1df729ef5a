import type { Readable } from 'node:stream'

/**
 * The blobs port: uploaded files and exports, streamed in and out, never held whole in memory.
 * Keys look like `users/{uid}/files/{timestamp}-{filename}`.
 */
export interface BlobInfo {
  key: string
  size: number
  contentType: string
  lastModified: Date
}

export interface BlobListing {
  key: string
  size: number
  lastModified: Date
}

export type BlobBody = Readable | Buffer | Uint8Array | string

export interface DownloadUrlOptions {
  expiresInSeconds?: number
  /** Offered to the browser as the saved file's name. */
  fileName?: string
}

export interface BlobStore {
  readonly adapter: 'files' | 'minio'
  put(key: string, body: BlobBody, options?: { contentType?: string }): Promise<BlobInfo>
  /** The blob's bytes as a stream; throws BlobNotFoundError when there is none. */
  get(key: string): Promise<Readable>
  stat(key: string): Promise<BlobInfo | null>
  /** Removes the blob; removing a missing one is not an error. */
  delete(key: string): Promise<void>
  /** Every blob whose key starts with the prefix, in key order. */
  list(prefix: string): Promise<BlobListing[]>
  /** A short-lived URL that downloads the blob without a bearer token. */
  downloadUrl(key: string, options?: DownloadUrlOptions): Promise<string>
  ping(): Promise<void>
  close(): Promise<void>
}

export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No blob at ${key}`)
    this.name = 'BlobNotFoundError'
  }
}

export class InvalidBlobKeyError extends Error {
  constructor(key: string, reason: string) {
    super(`Invalid blob key ${JSON.stringify(key)}: ${reason}`)
    this.name = 'InvalidBlobKeyError'
  }
}

export const DEFAULT_DOWNLOAD_URL_SECONDS = 15 * 60

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f\\]/

/** Keys are relative paths of plain segments: no "..", no empty segment, no control characters. */
export function assertBlobKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidBlobKeyError(String(key), 'empty')
  if (Buffer.byteLength(key) > 1024) throw new InvalidBlobKeyError(key.slice(0, 40), 'longer than 1024 bytes')
  if (CONTROL_CHARACTERS.test(key)) throw new InvalidBlobKeyError(key, 'control characters or backslashes')
  if (key.startsWith('/') || key.endsWith('/')) throw new InvalidBlobKeyError(key, 'starts or ends with /')
  for (const segment of key.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') throw new InvalidBlobKeyError(key, 'empty, "." or ".." segment')
  }
}

/** A key for a user's upload, as the web client's cloud store used: users/{uid}/files/{timestamp}-{filename}. */
export function userFileKey(uid: string, fileName: string, timestamp = Date.now()): string {
  // eslint-disable-next-line no-control-regex
  const safeName = fileName.replace(/[/\\\u0000-\u001f\u007f]/g, '_').replace(/^\.+/, '_') || 'file'
  return `users/${uid}/files/${timestamp}-${safeName}`
}
