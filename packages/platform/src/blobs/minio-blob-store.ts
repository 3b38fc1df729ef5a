import { Client, type S3Error } from 'minio'
import { Readable } from 'node:stream'
import { DependencyUnavailableError, isNetworkFailure } from '../errors/dependency-unavailable.js'
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

export interface MinioBlobStoreOptions {
  /** Such as http://minio:9000 */
  endpoint: string
  /**
   * Where browsers reach the same MinIO (http://localhost:9000 in docker compose), when that differs
   * from `endpoint`: download links are signed for this host, since a signature covers the host.
   */
  publicEndpoint?: string
  accessKey: string
  secretKey: string
  bucket: string
  region?: string
}

/** Multipart uploads buffer one part at a time; the smallest S3 allows keeps memory low. */
const PART_SIZE = 5 * 1024 * 1024

function clientFor(endpoint: string, options: MinioBlobStoreOptions): Client {
  const url = new URL(endpoint)
  const useSSL = url.protocol === 'https:'
  return new Client({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: options.accessKey,
    secretKey: options.secretKey,
    // A set region also keeps presigning offline: the client would otherwise ask the server for it.
    region: options.region ?? 'us-east-1',
    pathStyle: true,
    partSize: PART_SIZE,
  })
}

export async function createMinioBlobStore(options: MinioBlobStoreOptions): Promise<MinioBlobStore> {
  const client = clientFor(options.endpoint, options)
  const signer = options.publicEndpoint ? clientFor(options.publicEndpoint, options) : client
  if (!(await client.bucketExists(options.bucket))) {
    await client.makeBucket(options.bucket, options.region ?? 'us-east-1').catch((error: unknown) => {
      const code = (error as { code?: string }).code
      if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw error
    })
  }
  return new MinioBlobStore(client, options.bucket, signer)
}

/** Runs a call to the server; one that cannot reach it is DependencyUnavailableError, so the request answers 503 and a job is retried. */
async function reaching<R>(call: () => Promise<R>): Promise<R> {
  try {
    return await call()
  } catch (error) {
    if (isNetworkFailure(error)) throw new DependencyUnavailableError('blobs', { cause: error })
    throw error
  }
}

const isNotFound = (error: unknown) => {
  const code = (error as S3Error).code
  return code === 'NoSuchKey' || code === 'NotFound' || code === 'NoSuchObject'
}

export class MinioBlobStore implements BlobStore {
  readonly adapter = 'minio' as const

  constructor(
    private readonly client: Client,
    private readonly bucket: string,
    /** Signs download links for the host browsers use (the same client unless a public endpoint is set). */
    private readonly signer: Client = client,
  ) {}

  async put(key: string, body: BlobBody, options: { contentType?: string } = {}): Promise<BlobInfo> {
    assertBlobKey(key)
    const contentType = options.contentType ?? 'application/octet-stream'
    return reaching(async () => {
      if (body instanceof Readable) await this.putStream(key, body, contentType)
      else {
        const buffer = typeof body === 'string' ? Buffer.from(body) : Buffer.isBuffer(body) ? body : Buffer.from(body)
        await this.client.putObject(this.bucket, key, buffer, buffer.length, { 'Content-Type': contentType })
      }
      const info = await this.stat(key)
      if (!info) throw new Error(`Blob ${key} vanished right after it was written`)
      return info
    })
  }

  /**
   * Streams of unknown length go up in parts of PART_SIZE, so at most one part is in memory. A
   * stream shorter than one part is a single PUT.
   */
  private async putStream(key: string, stream: Readable, contentType: string): Promise<void> {
    let uploadId: string | null = null
    const etags: Array<{ part: number; etag: string }> = []
    let pending: Buffer[] = []
    let pendingSize = 0
    const flushPart = async () => {
      const part = Buffer.concat(pending, pendingSize)
      pending = []
      pendingSize = 0
      uploadId ??= await this.client.initiateNewMultipartUpload(this.bucket, key, { 'Content-Type': contentType })
      const partNumber = etags.length + 1
      const uploaded = await this.client.uploadPart({ bucketName: this.bucket, objectName: key, uploadID: uploadId, partNumber, headers: {} }, part)
      etags.push({ part: partNumber, etag: uploaded.etag })
    }
    try {
      for await (const chunk of stream) {
        const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array)
        pending.push(buffer)
        pendingSize += buffer.length
        if (pendingSize >= PART_SIZE) await flushPart()
      }
      if (uploadId === null) {
        const whole = Buffer.concat(pending, pendingSize)
        await this.client.putObject(this.bucket, key, whole, whole.length, { 'Content-Type': contentType })
        return
      }
      if (pendingSize > 0) await flushPart()
      await this.client.completeMultipartUpload(this.bucket, key, uploadId, etags)
    } catch (error) {
      if (uploadId !== null) await this.client.abortMultipartUpload(this.bucket, key, uploadId).catch(() => undefined)
      throw error
    }
  }

  async get(key: string): Promise<Readable> {
    assertBlobKey(key)
    try {
      return await reaching(() => this.client.getObject(this.bucket, key))
    } catch (error) {
      if (isNotFound(error)) throw new BlobNotFoundError(key)
      throw error
    }
  }

  async stat(key: string): Promise<BlobInfo | null> {
    assertBlobKey(key)
    try {
      const info = await reaching(() => this.client.statObject(this.bucket, key))
      const metaData = info.metaData as Record<string, string>
      return {
        key,
        size: info.size,
        contentType: metaData['content-type'] ?? 'application/octet-stream',
        lastModified: info.lastModified,
      }
    } catch (error) {
      if (isNotFound(error)) return null
      throw error
    }
  }

  async delete(key: string): Promise<void> {
    assertBlobKey(key)
    await reaching(() => this.client.removeObject(this.bucket, key))
  }

  async list(prefix: string): Promise<BlobListing[]> {
    const found: BlobListing[] = []
    await reaching(async () => {
      const stream = this.client.listObjectsV2(this.bucket, prefix, true)
      for await (const item of stream as AsyncIterable<{ name?: string; size: number; lastModified: Date }>) {
        if (item.name) found.push({ key: item.name, size: item.size, lastModified: item.lastModified })
      }
    })
    return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  }

  async downloadUrl(key: string, options: DownloadUrlOptions = {}): Promise<string> {
    assertBlobKey(key)
    const headers: Record<string, string> = options.fileName ? { 'response-content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(options.fileName)}` } : {}
    return this.signer.presignedGetObject(this.bucket, key, options.expiresInSeconds ?? DEFAULT_DOWNLOAD_URL_SECONDS, headers)
  }

  async ping(): Promise<void> {
    await reaching(() => this.client.bucketExists(this.bucket))
  }

  async close(): Promise<void> {}
}
