import { gunzipSync, gzipSync } from 'node:zlib'
import type { BlobStore } from '@finsheet/platform'
import type { WorkbookSnapshot } from '@finsheet/workbook'

/**
 * Whole-workbook snapshots (versions, and the state a restore replaced) live in the blob store,
 * gzipped JSON, so that a large workbook never has to fit in one document.
 */
export function createSnapshotStore(blobs: BlobStore) {
  return {
    versionKey: (workbookId: string, versionId: string) => `spreadsheet/workbooks/${workbookId}/versions/${versionId}.json.gz`,
    restoreKey: (workbookId: string, revision: number) => `spreadsheet/workbooks/${workbookId}/replaced/${revision}.json.gz`,

    async put(key: string, snapshot: WorkbookSnapshot): Promise<void> {
      await blobs.put(key, gzipSync(JSON.stringify(snapshot)), { contentType: 'application/gzip' })
    },

    async get(key: string): Promise<WorkbookSnapshot> {
      const stream = await blobs.get(key)
      const chunks: Buffer[] = []
      for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array))
      return JSON.parse(gunzipSync(Buffer.concat(chunks)).toString('utf8')) as WorkbookSnapshot
    },

    /** Removes every snapshot of a deleted workbook. */
    async deleteWorkbook(workbookId: string): Promise<void> {
      const listing = await blobs.list(`spreadsheet/workbooks/${workbookId}/`)
      for (const blob of listing) await blobs.delete(blob.key)
    },
  }
}

export type SnapshotStore = ReturnType<typeof createSnapshotStore>
