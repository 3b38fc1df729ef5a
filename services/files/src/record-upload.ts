import type { BlobStore } from '@finsheet/platform'
import { processJobId, type FileJobs } from './file-jobs.js'
import type { FileRepository, StoredFile } from './repositories/file-repository.js'
import type { ReceivedUpload } from './upload.js'

/**
 * Records a received upload and queues the job that processes it: both or neither. When the record
 * or the job cannot be stored (the document store or the queue out of reach), the record and the
 * stored bytes are removed again and the error stands, so the list never shows a file that nothing
 * will process. A job that reached the queue all the same finds no file and fails without effect.
 */
export async function recordUpload(
  deps: { files: FileRepository; blobs: BlobStore; jobs: FileJobs },
  upload: ReceivedUpload,
  userId: string,
  workbookName?: string,
): Promise<{ file: StoredFile; jobId: string }> {
  let file: StoredFile | null = null
  try {
    file = await deps.files.create({ ...upload, userId, jobId: processJobId(upload.id) })
    return { file, jobId: await deps.jobs.enqueueProcess(file, workbookName) }
  } catch (error) {
    if (file) await deps.files.remove(file.id).catch(() => undefined)
    await deps.blobs.delete(upload.storagePath).catch(() => undefined)
    throw error
  }
}
