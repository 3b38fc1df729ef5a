import type { FileKind, FileListTab, FileRecord, FileStatus, ProcessedData } from '@finsheet/contracts'
import type { DocumentStore, Filter } from '@finsheet/platform'

/** A file record as stored: the API record plus its owner and the deletion marker. */
export interface StoredFile extends Omit<FileRecord, 'url' | 'downloadUrl' | 'storageUrl'> {
  userId: string
  /** When a delete started (ms); a second delete meanwhile answers 409. */
  deletingSince: number | null
}

/** A delete that started this long ago and never finished (its process died) may start again. */
const STALE_DELETION_MS = 60_000

export interface NewFile {
  id: string
  userId: string
  name: string
  size: number
  mimeType: string
  kind: FileKind
  storagePath: string
  jobId: string
}

export function createFileRepository(store: DocumentStore) {
  const files = () =>
    store.collection<StoredFile>('files', {
      indexes: [{ fields: ['userId', 'createdAt'] }, { fields: ['userId', 'isExcel', 'createdAt'] }, { fields: ['userId', 'isPdf', 'createdAt'] }],
    })

  return {
    async create(input: NewFile): Promise<StoredFile> {
      const now = new Date().toISOString()
      const isExcel = input.kind === 'xlsx' || input.kind === 'xls' || input.kind === 'csv'
      const file: StoredFile = {
        id: input.id,
        userId: input.userId,
        name: input.name,
        size: input.size,
        mimeType: input.mimeType,
        createdAt: now,
        updatedAt: now,
        kind: input.kind,
        status: 'uploaded',
        error: null,
        jobId: input.jobId,
        storagePath: input.storagePath,
        isExcel,
        isPdf: input.kind === 'pdf',
        isAIGenerated: false,
        isUserUploadedWorkbook: isExcel,
        isVectorDBModel: false,
        isBackendProcessed: true,
        processed: false,
        processedData: null,
        workbookId: null,
        processedWorkbookId: null,
        modelType: null,
        companyName: null,
        cellsProcessed: 0,
        formulasProcessed: 0,
        deletingSince: null,
      }
      await files().insert(file)
      return file
    },

    /** The user's file; someone else's is as absent as a missing one. */
    async get(userId: string, id: string): Promise<StoredFile | null> {
      const file = await files().get(id)
      return file && file.userId === userId ? file : null
    },

    /** Newest first, filtered by the file manager's tab. */
    async list(userId: string, tab: FileListTab, page: { limit: number; offset: number }): Promise<{ files: StoredFile[]; total: number }> {
      const filter: Filter = { userId }
      if (tab === 'excel') filter.isExcel = true
      else if (tab === 'pdf') filter.isPdf = true
      else if (tab === 'other') Object.assign(filter, { isExcel: false, isPdf: false })
      const [found, total] = await Promise.all([
        files().find(filter, { sort: [['createdAt', -1]], limit: page.limit, offset: page.offset }),
        files().count(filter),
      ])
      return { files: found, total }
    },

    /**
     * Claims the file for deletion. Answers 'absent' when there is no such file of this user,
     * 'pending' when another delete holds it, else 'claimed'.
     */
    async claimDeletion(userId: string, id: string): Promise<'claimed' | 'pending' | 'absent'> {
      const now = Date.now()
      const file = await this.get(userId, id)
      if (!file) return 'absent'
      const claimed =
        file.deletingSince === null
          ? await files().update({ id, userId, deletingSince: null }, { deletingSince: now })
          : file.deletingSince < now - STALE_DELETION_MS
            ? await files().update({ id, userId, deletingSince: file.deletingSince }, { deletingSince: now })
            : 0
      return claimed === 1 ? 'claimed' : 'pending'
    },

    async releaseDeletion(id: string): Promise<void> {
      await files().update({ id }, { deletingSince: null })
    },

    async remove(id: string): Promise<void> {
      await files().delete(id)
    },

    /** Updates a file's processing state; a file deleted meanwhile stays deleted. */
    async setProcessing(id: string, jobId: string): Promise<void> {
      await files().update({ id }, { status: 'processing', jobId, error: null, updatedAt: new Date().toISOString() })
    },

    async setProcessed(id: string, data: ProcessedData): Promise<void> {
      const status: FileStatus = 'processed'
      await files().update(
        { id },
        {
          status,
          error: null,
          processed: true,
          processedData: data,
          workbookId: data.workbookId,
          processedWorkbookId: data.workbookId,
          cellsProcessed: data.cellsProcessed,
          formulasProcessed: data.formulasProcessed,
          updatedAt: new Date().toISOString(),
        },
      )
    },

    async setFailed(id: string, error: string): Promise<void> {
      await files().update({ id }, { status: 'failed', error, updatedAt: new Date().toISOString() })
    },
  }
}
export type FileRepository = ReturnType<typeof createFileRepository>

/** The record as the API shows it; the download URL only where a route made one. */
export function toFileRecord(file: StoredFile, downloadUrl: string | null = null): FileRecord {
  const { userId: _userId, deletingSince: _deletingSince, ...record } = file
  return { ...record, url: downloadUrl, downloadUrl, storageUrl: downloadUrl }
}
