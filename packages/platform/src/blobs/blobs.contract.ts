import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BlobNotFoundError, InvalidBlobKeyError, userFileKey, type BlobStore } from './port.js'

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer))
  return Buffer.concat(chunks)
}

/** A stream of `size` pseudo-random bytes made as it is read, and the hash it will have. */
function generatedStream(size: number, seed: number): { stream: Readable; sha256: string } {
  const hash = createHash('sha256')
  const chunkSize = 64 * 1024
  const chunks: Buffer[] = []
  let state = seed
  for (let offset = 0; offset < size; offset += chunkSize) {
    const chunk = Buffer.alloc(Math.min(chunkSize, size - offset))
    for (let i = 0; i < chunk.length; i += 4) {
      state = (state * 1103515245 + 12345) >>> 0
      chunk.writeUInt32LE(state, i < chunk.length - 3 ? i : chunk.length - 4)
    }
    hash.update(chunk)
    chunks.push(chunk)
  }
  let index = 0
  const stream = new Readable({
    read() {
      this.push(index < chunks.length ? chunks[index++] : null)
    },
  })
  return { stream, sha256: hash.digest('hex') }
}

export interface BlobContractHarness {
  store: BlobStore
  /** Fetches a download URL the way a browser would and reports the status and bytes. */
  download(url: string): Promise<{ status: number; body: Buffer }>
  /** False for a test server that accepts any well-formed signature (s3rver does not check V4 signatures). */
  checksSignatures: boolean
  close(): Promise<void>
}

export function blobStoreContract(adapterName: string, open: () => Promise<BlobContractHarness>) {
  describe(`blobs port: ${adapterName}`, () => {
    let harness: BlobContractHarness
    let store: BlobStore
    beforeAll(async () => {
      harness = await open()
      store = harness.store
    })
    afterAll(async () => {
      await harness?.close()
    })

    it('puts from a buffer, a string and a stream, and reads back the same bytes', async () => {
      const fromBuffer = await store.put('c1/buffer.bin', Buffer.from([0, 1, 2, 255]), { contentType: 'application/octet-stream' })
      expect(fromBuffer).toMatchObject({ key: 'c1/buffer.bin', size: 4 })
      await store.put('c1/text.csv', 'a,b\n1,2\n', { contentType: 'text/csv' })
      await store.put('c1/stream.txt', Readable.from([Buffer.from('hello '), Buffer.from('world')]), { contentType: 'text/plain' })
      expect([...(await readAll(await store.get('c1/buffer.bin')))]).toEqual([0, 1, 2, 255])
      expect((await readAll(await store.get('c1/text.csv'))).toString()).toBe('a,b\n1,2\n')
      expect((await readAll(await store.get('c1/stream.txt'))).toString()).toBe('hello world')
    })

    it('stats size, content type and modification time', async () => {
      const before = Date.now() - 5_000
      await store.put('c2/book.xlsx', Buffer.alloc(1234, 7), { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' })
      const info = await store.stat('c2/book.xlsx')
      expect(info).toMatchObject({ key: 'c2/book.xlsx', size: 1234, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' })
      expect(info!.lastModified.getTime()).toBeGreaterThan(before)
      expect(await store.stat('c2/missing.xlsx')).toBeNull()
    })

    it('streams a 12 MB upload through and back without changing a byte', async () => {
      const { stream, sha256 } = generatedStream(12 * 1024 * 1024 + 17, 42)
      const info = await store.put('c3/large.bin', stream)
      expect(info.size).toBe(12 * 1024 * 1024 + 17)
      const hash = createHash('sha256')
      for await (const chunk of await store.get('c3/large.bin')) hash.update(chunk as Buffer)
      expect(hash.digest('hex')).toBe(sha256)
    })

    it('overwrites a key with the new content', async () => {
      await store.put('c4/file.txt', 'first version, longer')
      await store.put('c4/file.txt', 'second')
      expect((await readAll(await store.get('c4/file.txt'))).toString()).toBe('second')
      expect((await store.stat('c4/file.txt'))?.size).toBe(6)
    })

    it('get of a missing key throws BlobNotFoundError; delete is idempotent', async () => {
      await expect(store.get('c5/none.txt')).rejects.toBeInstanceOf(BlobNotFoundError)
      await store.put('c5/gone.txt', 'x')
      await store.delete('c5/gone.txt')
      await store.delete('c5/gone.txt')
      expect(await store.stat('c5/gone.txt')).toBeNull()
      await expect(store.get('c5/gone.txt')).rejects.toBeInstanceOf(BlobNotFoundError)
    })

    it('lists by prefix in key order, including partial segments', async () => {
      const keys = [
        userFileKey('u1', 'model.xlsx', 1700000000001),
        userFileKey('u1', 'notes.pdf', 1700000000002),
        userFileKey('u1', 'b.csv', 1600000000000),
        userFileKey('u2', 'model.xlsx', 1700000000003),
        'users/u10/files/1-x.csv',
      ]
      for (const key of keys) await store.put(key, key)
      expect((await store.list('users/u1/')).map((b) => b.key)).toEqual([
        'users/u1/files/1600000000000-b.csv',
        'users/u1/files/1700000000001-model.xlsx',
        'users/u1/files/1700000000002-notes.pdf',
      ])
      expect((await store.list('users/u1/files/17')).map((b) => b.key)).toHaveLength(2)
      const u2 = await store.list('users/u2')
      expect(u2).toHaveLength(1)
      expect(u2[0]).toMatchObject({ key: 'users/u2/files/1700000000003-model.xlsx', size: 'users/u2/files/1700000000003-model.xlsx'.length })
      expect(await store.list('users/nobody/')).toEqual([])
    })

    it('keeps file names with spaces and unicode', async () => {
      const key = userFileKey('u3', 'Prévisions 2025 (v2).xlsx', 1)
      expect(key).toBe('users/u3/files/1-Prévisions 2025 (v2).xlsx')
      await store.put(key, 'ok')
      expect((await store.list('users/u3/')).map((b) => b.key)).toEqual([key])
      expect((await readAll(await store.get(key))).toString()).toBe('ok')
    })

    it('refuses keys that could escape the store', async () => {
      for (const key of ['', '../etc/passwd', 'a/../../b', '/abs', 'a//b', 'a/./b', 'trailing/', 'back\\slash', 'nul\u0000']) {
        await expect(store.put(key, 'x')).rejects.toBeInstanceOf(InvalidBlobKeyError)
      }
      await expect(store.get('../x')).rejects.toBeInstanceOf(InvalidBlobKeyError)
    })

    it('gives a short-lived download URL that works without a token, and refuses a tampered one', async () => {
      await store.put('c6/report.csv', 'x,y\n1,2\n', { contentType: 'text/csv' })
      await store.put('c6/secret.csv', 'secret')
      const url = await store.downloadUrl('c6/report.csv', { expiresInSeconds: 60, fileName: 'report.csv' })
      const ok = await harness.download(url)
      expect(ok.status).toBe(200)
      expect(ok.body.toString()).toBe('x,y\n1,2\n')
      const tampered = url.replace('c6%2Freport.csv', 'c6%2Fsecret.csv').replace('c6/report.csv', 'c6/secret.csv')
      expect(tampered).not.toBe(url)
      if (harness.checksSignatures) expect((await harness.download(tampered)).status).toBeGreaterThanOrEqual(400)
    })
  })
}
