import { Readable } from 'node:stream'
import { promisify } from 'node:util'
import { createGzip, gunzip, gzip } from 'node:zlib'
import type { BlobStore } from '@finsheet/platform'
import { createHash } from 'node:crypto'
import type { KeptDrawing, StreamedSnapshot, WorkbookSnapshot } from '@finsheet/workbook'

export type { StreamedSnapshot }

/** A snapshot whose cells are made as they are written (a large workbook never becomes one list). */

const inflate = promisify(gunzip)
const deflate = promisify(gzip)

/**
 * Whole-workbook snapshots (versions, and the state a restore replaced) live in the blob store,
 * gzipped JSON, so that a large workbook never has to fit in one document.
 */
export function createSnapshotStore(blobs: BlobStore) {
  return {
    versionKey: (workbookId: string, versionId: string) => `spreadsheet/workbooks/${workbookId}/versions/${versionId}.json.gz`,
    restoreKey: (workbookId: string, revision: number) => `spreadsheet/workbooks/${workbookId}/replaced/${revision}.json.gz`,

    /** Streams the snapshot out cell by cell, so that a large workbook never becomes one string. */
    async put(key: string, snapshot: WorkbookSnapshot | StreamedSnapshot): Promise<void> {
      await blobs.put(key, Readable.from(jsonChunks(snapshot)).pipe(createGzip()), { contentType: 'application/gzip' })
    },

    async get(key: string): Promise<WorkbookSnapshot> {
      const stream = await blobs.get(key)
      const chunks: Buffer[] = []
      for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array))
      // Inflated on the thread pool: a large snapshot never stalls the requests of other workbooks.
      const text = (await inflate(Buffer.concat(chunks))).toString('utf8')
      return JSON.parse(text) as WorkbookSnapshot
    },

    /**
     * Stores the parts of a drawing kept from an imported file, by their content: never changed once
     * written, so that a copy of the workbook or an import of the same file shares them.
     */
    async putKeptDrawing(drawing: KeptDrawing): Promise<string> {
      const text = JSON.stringify(drawing)
      const key = `spreadsheet/kept-drawings/${createHash('sha256').update(text).digest('hex')}.json.gz`
      await blobs.put(key, await deflate(text), { contentType: 'application/gzip' })
      return key
    },

    async getKeptDrawing(key: string): Promise<KeptDrawing> {
      const stream = await blobs.get(key)
      const chunks: Buffer[] = []
      for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array))
      return JSON.parse((await inflate(Buffer.concat(chunks))).toString('utf8')) as KeptDrawing
    },

    /** Removes every snapshot of a deleted workbook. */
    async deleteWorkbook(workbookId: string): Promise<void> {
      const listing = await blobs.list(`spreadsheet/workbooks/${workbookId}/`)
      for (const blob of listing) await blobs.delete(blob.key)
    },
  }
}

export type SnapshotStore = ReturnType<typeof createSnapshotStore>

/** The snapshot's JSON text in pieces of about 64 KB. */
function* jsonChunks(snapshot: WorkbookSnapshot | StreamedSnapshot): Generator<string> {
  const { sheets, ...rest } = snapshot
  yield JSON.stringify(rest).slice(0, -1) + ',"sheets":['
  for (let index = 0; index < sheets.length; index++) {
    const { cells, ...sheet } = sheets[index]
    let text = (index > 0 ? ',' : '') + JSON.stringify(sheet).slice(0, -1) + ',"cells":['
    let first = true
    for (const cell of cells) {
      text += (first ? '' : ',') + JSON.stringify(cell)
      first = false
      if (text.length > 65_536) {
        yield text
        text = ''
      }
    }
    yield text + ']}'
  }
  yield ']}'
}
