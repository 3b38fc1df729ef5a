import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import {
  assertBlobKey,
  BlobNotFoundError,
  DEFAULT_DOWNLOAD_URL_SECONDS,
  type BlobBody,
  type BlobInfo,
  type BlobListing,
  type BlobStore,
  type DownloadUrlOptions,
} from './port.js'

export interface FsBlobStoreOptions {
  /** Folder the blobs live in, usually DATA_DIR/blobs. */
  root: string
  /**
   * Where signed download URLs point, such as http://localhost:8080/api/files/download; the route
   * there checks the signature with `verifyDownloadUrl`.
   */
  downloadBaseUrl: string
  /** HMAC secret for download URLs; by default one is generated into the root on first use. */
  signingSecret?: string
}

interface Meta {
  contentType: string
}

/** Blobs as files under DATA_DIR/blobs: written to a temporary file, then renamed into place. */
export class FsBlobStore implements BlobStore {
  readonly adapter = 'files' as const
  private readonly objects: string
  private readonly meta: string
  private readonly tmp: string
  private secret: Promise<Buffer> | null = null

  constructor(private readonly options: FsBlobStoreOptions) {
    this.objects = join(options.root, 'objects')
    this.meta = join(options.root, 'meta')
    this.tmp = join(options.root, 'tmp')
  }

  private objectPath(key: string) {
    assertBlobKey(key)
    return join(this.objects, ...key.split('/'))
  }

  private metaPath(key: string) {
    return join(this.meta, ...key.split('/')) + '.json'
  }

  async put(key: string, body: BlobBody, options: { contentType?: string } = {}): Promise<BlobInfo> {
    const target = this.objectPath(key)
    await mkdir(this.tmp, { recursive: true })
    const temporary = join(this.tmp, randomUUID())
    let size = 0
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length
        callback(null, chunk)
      },
    })
    const source = body instanceof Readable ? body : Readable.from([typeof body === 'string' ? Buffer.from(body) : Buffer.from(body)])
    try {
      await pipeline(source, counter, createWriteStream(temporary, { flags: 'wx' }))
      const handle = await open(temporary, 'r')
      await handle.sync()
      await handle.close()
      await mkdir(dirname(target), { recursive: true })
      await mkdir(dirname(this.metaPath(key)), { recursive: true })
      const contentType = options.contentType ?? 'application/octet-stream'
      const metaTemporary = `${temporary}.meta`
      await writeFile(metaTemporary, JSON.stringify({ contentType } satisfies Meta))
      await rename(metaTemporary, this.metaPath(key))
      await rename(temporary, target)
      const info = await stat(target)
      return { key, size, contentType, lastModified: info.mtime }
    } catch (error) {
      await rm(temporary, { force: true })
      await rm(`${temporary}.meta`, { force: true })
      throw error
    }
  }

  async get(key: string): Promise<Readable> {
    const path = this.objectPath(key)
    const handle = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'EISDIR' || error.code === 'ENOTDIR') throw new BlobNotFoundError(key)
      throw error
    })
    // Reading through the opened handle: a delete meanwhile cannot cut the stream short.
    return handle.createReadStream({ autoClose: true })
  }

  async stat(key: string): Promise<BlobInfo | null> {
    const path = this.objectPath(key)
    let info
    try {
      info = await stat(path)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT' || code === 'ENOTDIR') return null
      throw error
    }
    if (!info.isFile()) return null
    let contentType = 'application/octet-stream'
    try {
      contentType = (JSON.parse(await readFile(this.metaPath(key), 'utf8')) as Meta).contentType
    } catch {
      // no metadata written: keep the generic type
    }
    return { key, size: info.size, contentType, lastModified: info.mtime }
  }

  async delete(key: string): Promise<void> {
    const path = this.objectPath(key)
    await unlink(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT' && error.code !== 'ENOTDIR') throw error
    })
    await rm(this.metaPath(key), { force: true })
  }

  async list(prefix: string): Promise<BlobListing[]> {
    // Walk only the deepest folder the prefix names.
    const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : ''
    if (folder !== '') assertBlobKey(folder)
    const start = folder === '' ? this.objects : join(this.objects, ...folder.split('/'))
    const found: BlobListing[] = []
    const walk = async (dir: string): Promise<void> => {
      let entries
      try {
        entries = await readdir(dir, { withFileTypes: true })
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return
        throw error
      }
      for (const entry of entries) {
        const full = join(dir, entry.name)
        if (entry.isDirectory()) await walk(full)
        else if (entry.isFile()) {
          const key = relative(this.objects, full).split(sep).join('/')
          if (!key.startsWith(prefix)) continue
          const info = await stat(full).catch(() => null)
          if (info) found.push({ key, size: info.size, lastModified: info.mtime })
        }
      }
    }
    await walk(start)
    return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  }

  async downloadUrl(key: string, options: DownloadUrlOptions = {}): Promise<string> {
    assertBlobKey(key)
    const expires = Math.floor(Date.now() / 1000) + (options.expiresInSeconds ?? DEFAULT_DOWNLOAD_URL_SECONDS)
    const signature = await this.sign(key, expires, options.fileName)
    const url = new URL(this.options.downloadBaseUrl, 'http://placeholder.invalid')
    url.searchParams.set('key', key)
    url.searchParams.set('expires', String(expires))
    if (options.fileName) url.searchParams.set('name', options.fileName)
    url.searchParams.set('signature', signature)
    // A relative base stays relative, so the URL works behind whichever host serves the app.
    return /^https?:\/\//.test(this.options.downloadBaseUrl) ? url.toString() : `${url.pathname}${url.search}`
  }

  /**
   * Checks the query of a download URL made by `downloadUrl`. Returns the key and file name when the
   * signature matches and the URL has not expired, otherwise null.
   */
  async verifyDownloadUrl(query: Record<string, unknown>): Promise<{ key: string; fileName?: string } | null> {
    const { key, expires, signature, name } = query
    if (typeof key !== 'string' || typeof expires !== 'string' || typeof signature !== 'string') return null
    if (name !== undefined && typeof name !== 'string') return null
    const expiresAt = Number(expires)
    if (!Number.isInteger(expiresAt) || expiresAt < Date.now() / 1000) return null
    try {
      assertBlobKey(key)
    } catch {
      return null
    }
    const expected = Buffer.from(await this.sign(key, expiresAt, name as string | undefined), 'hex')
    const given = Buffer.from(signature, 'hex')
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
    return { key, fileName: name as string | undefined }
  }

  private async sign(key: string, expires: number, fileName: string | undefined): Promise<string> {
    return createHmac('sha256', await this.signingSecret())
      .update(`${key}\n${expires}\n${fileName ?? ''}`)
      .digest('hex')
  }

  private signingSecret(): Promise<Buffer> {
    if (this.options.signingSecret) return Promise.resolve(Buffer.from(this.options.signingSecret))
    this.secret ??= (async () => {
      const path = join(this.options.root, 'download-signing-secret')
      await mkdir(this.options.root, { recursive: true })
      try {
        await writeFile(path, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 })
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      }
      for (let attempt = 0; attempt < 50; attempt++) {
        const text = (await readFile(path, 'utf8')).trim()
        if (text.length === 64) return Buffer.from(text, 'hex')
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      throw new Error('Download signing secret is unreadable')
    })()
    return this.secret
  }

  async ping(): Promise<void> {
    await mkdir(this.objects, { recursive: true })
  }

  async close(): Promise<void> {}
}
