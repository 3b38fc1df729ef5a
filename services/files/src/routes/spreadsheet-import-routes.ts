/**
 * The two routes of the spreadsheet area that take files: the contracts' SPREADSHEET_FILE_ROUTES send
 * /api/spreadsheet/upload-excel and /api/spreadsheet/import-from-file/{fileId} here, since reading and
 * converting files is this service's work; the workbook itself is stored by the spreadsheet service.
 */
import { Type } from 'typebox'
import { ErrorBody, ImportFileResponse, ImportFromFileParams, SPREADSHEET_FILE_ROUTES, StrictObject } from '@finsheet/contracts'
import { currentUser, errorResponses, type BlobStore, type ServiceApp } from '@finsheet/platform'
import { filesErrors } from '../errors.js'
import type { FileJobs } from '../file-jobs.js'
import { recordUpload } from '../record-upload.js'
import type { FileRepository } from '../repositories/file-repository.js'
import { receiveUpload } from '../upload.js'

export interface SpreadsheetImportRoutesDependencies {
  files: FileRepository
  blobs: BlobStore
  jobs: FileJobs
  uploadLimitBytes: number
}

export function spreadsheetImportRoutes(app: ServiceApp, deps: SpreadsheetImportRoutesDependencies) {
  const { files, blobs, jobs } = deps
  const tags = ['spreadsheet import']

  app.post(
    SPREADSHEET_FILE_ROUTES.uploadExcel.servicePath,
    {
      schema: {
        tags,
        summary: 'Upload an xlsx or csv workbook (multipart {file, name, description}) and import it; answers {success, workbookId, cellCount, error}',
        consumes: ['multipart/form-data'],
        response: { 200: ImportFileResponse, 202: ImportFileResponse, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = currentUser(request)
      const upload = await receiveUpload(request, {
        blobs,
        userId: user.uid,
        limitBytes: deps.uploadLimitBytes,
        accept: ['xlsx', 'xls', 'csv'],
        refuse: filesErrors.notASpreadsheet,
        fileFields: ['file'],
      })
      const name = upload.fields.name?.trim().slice(0, 200) || undefined
      const { file, jobId } = await recordUpload(deps, upload, user.uid, name)
      const answer = await jobs.waitForImport(jobId, file.id)
      return reply.status(answer.pending ? 202 : 200).send(answer)
    },
  )

  app.post(
    `${SPREADSHEET_FILE_ROUTES.importFromFile.servicePath}/:fileId`,
    {
      schema: {
        tags,
        summary: 'Create a workbook from an uploaded xlsx or csv file',
        params: ImportFromFileParams,
        body: Type.Optional(StrictObject({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) })),
        response: { 200: ImportFileResponse, 202: ImportFileResponse, 422: ErrorBody, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = currentUser(request)
      const file = await files.get(user.uid, request.params.fileId)
      if (!file || file.deletingSince !== null) throw filesErrors.fileNotFound()
      if (file.kind !== 'xlsx' && file.kind !== 'csv') throw filesErrors.notImportable(file.kind)
      const jobId = await jobs.enqueueImport(file, request.body?.name)
      const answer = await jobs.waitForImport(jobId, file.id)
      return reply.status(answer.pending ? 202 : 200).send(answer)
    },
  )
}
