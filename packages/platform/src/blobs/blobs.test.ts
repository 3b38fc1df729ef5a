import { createServer, type Server } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { describe, expect, it } from 'vitest'
import { startS3rver } from '../testing/servers.js'
import { blobStoreContract } from './blobs.contract.js'
import { FsBlobStore } from './fs-blob-store.js'
import { createMinioBlobStore } from './minio-blob-store.js'

async function fetchBytes(url: string) {
  const response = await fetch(url)
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) }
}

/** Serves signed download URLs the way the files service does, so the fs adapter's URLs are fetched for real. */
async function downloadServer(store: () => FsBlobStore): Promise<{ base: string; server: Server }> {
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://x')
    const verified = await store().verifyDownloadUrl(Object.fromEntries(url.searchParams))
    if (!verified) {
      response.writeHead(403).end()
      return
    }
    const info = await store().stat(verified.key)
    if (!info) {
      response.writeHead(404).end()
      return
    }
    response.writeHead(200, { 'content-type': info.contentType, 'content-length': info.size })
    await pipeline(await store().get(verified.key), response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address() as { port: number }
  return { base: `http://127.0.0.1:${address.port}/download`, server }
}

blobStoreContract('files under DATA_DIR', async () => {
  const root = mkdtempSync(join(tmpdir(), 'finsheet-blobs-'))
  const holder: { store?: FsBlobStore } = {}
  const { base, server } = await downloadServer(() => holder.store as FsBlobStore)
  holder.store = new FsBlobStore({ root, downloadBaseUrl: base })
  return {
    store: holder.store,
    download: fetchBytes,
    checksSignatures: true,
    close: async () => {
      await new Promise((resolve) => server.close(resolve))
      rmSync(root, { recursive: true, force: true })
    },
  }
})

blobStoreContract('minio client against s3rver', async () => {
  const s3 = await startS3rver('finsheet-test')
  const store = await createMinioBlobStore({ endpoint: s3.url, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: 'finsheet-test' })
  return { store, download: fetchBytes, checksSignatures: false, close: () => s3.stop() }
})

describe('MinIO download links', () => {
  it('are signed for the public endpoint browsers use, and download from there', async () => {
    const s3 = await startS3rver('finsheet-public')
    try {
      const publicEndpoint = s3.url.replace('127.0.0.1', 'localhost')
      expect(publicEndpoint).not.toBe(s3.url)
      const store = await createMinioBlobStore({ endpoint: s3.url, publicEndpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: 'finsheet-public' })
      await store.put('exports/model.csv', 'a,b\n1,2\n', { contentType: 'text/csv' })
      const url = await store.downloadUrl('exports/model.csv', { fileName: 'model.csv' })
      expect(new URL(url).origin).toBe(new URL(publicEndpoint).origin)
      const fetched = await fetchBytes(url)
      expect(fetched.status).toBe(200)
      expect(fetched.body.toString()).toBe('a,b\n1,2\n')
    } finally {
      await s3.stop()
    }
  })
})

describe('files blob store download URLs', () => {
  it('refuses an expired URL and keeps relative URLs relative', async () => {
    const root = mkdtempSync(join(tmpdir(), 'finsheet-blobs-'))
    try {
      const store = new FsBlobStore({ root, downloadBaseUrl: '/api/files/download' })
      const url = await store.downloadUrl('a/b.txt', { expiresInSeconds: -1 })
      expect(url.startsWith('/api/files/download?key=a%2Fb.txt&expires=')).toBe(true)
      const query = Object.fromEntries(new URL(url, 'http://x').searchParams)
      expect(await store.verifyDownloadUrl(query)).toBeNull()
      const fresh = Object.fromEntries(new URL(await store.downloadUrl('a/b.txt'), 'http://x').searchParams)
      expect(await store.verifyDownloadUrl(fresh)).toEqual({ key: 'a/b.txt', fileName: undefined })
      expect(await store.verifyDownloadUrl({ ...fresh, expires: String(Number(fresh.expires) + 1000) })).toBeNull()
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
