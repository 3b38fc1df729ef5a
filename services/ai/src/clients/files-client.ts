import { FileResponse, ImportFileResponse, ListFilesResponse, type FileRecord } from '@finsheet/contracts'
import { aiErrors } from '../errors.js'
import { callService } from './service-client.js'

/** The files service as the ai service uses it, on behalf of the user whose token it forwards. */
export function createFilesClient(baseUrl: string) {
  return {
    /** The user's file record (a processed PDF carries its extracted figures); 404 for a file not theirs. */
    async file(token: string, fileId: string, signal?: AbortSignal): Promise<FileRecord> {
      const answer = await callService({
        service: 'files',
        baseUrl,
        method: 'GET',
        path: `/file/${encodeURIComponent(fileId)}`,
        token,
        answer: FileResponse,
        notFound: aiErrors.fileNotFound,
        signal,
      })
      return answer.file
    },
    /** The user's newest uploaded spreadsheet (xlsx, xls or csv), or null when they have none. */
    async latestSpreadsheet(token: string, signal?: AbortSignal): Promise<FileRecord | null> {
      const answer = await callService({
        service: 'files',
        baseUrl,
        method: 'GET',
        path: '/list?type=excel&limit=1',
        token,
        answer: ListFilesResponse,
        notFound: aiErrors.fileNotFound,
        signal,
      })
      return answer.files[0] ?? null
    },
    /** A new workbook of the user's made from an uploaded spreadsheet; pending when its job outlasted the wait. */
    importFile(token: string, fileId: string, signal?: AbortSignal): Promise<ImportFileResponse> {
      return callService({
        service: 'files',
        baseUrl,
        method: 'POST',
        path: '/import',
        token,
        body: { fileId },
        answer: ImportFileResponse,
        notFound: aiErrors.fileNotFound,
        signal,
      })
    },
  }
}

export type FilesClient = ReturnType<typeof createFilesClient>
