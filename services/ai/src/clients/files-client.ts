import { FileResponse, type FileRecord } from '@finsheet/contracts'
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
  }
}

export type FilesClient = ReturnType<typeof createFilesClient>
