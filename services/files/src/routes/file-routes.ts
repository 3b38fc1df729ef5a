import { Type } from 'typebox'
import {
  DeleteFileResponse,
  ErrorBody,
  FileIdParams,
  FileJobResponse,
  FileResponse,
  ImportFileBody,
  ImportFileResponse,
  JobIdParams,
  ListFilesQuery,
  ListFilesResponse,
  UploadFileResponse,
} from '@finsheet/contracts'
import { BlobNotFoundError, currentUser, errorResponses, FsBlobStore, type BlobStore, type ServiceApp } from '@finsheet/platform'
import { filesErrors } from '../errors.js'
import type { FileJobs } from '../file-jobs.js'
import { recordUpload } from '../record-upload.js'
import { toFileRecord, type FileRepository } from '../repositories/file-repository.js'
import { receiveUpload } from '../upload.js'

export interface FileRoutesDependencies {
  files: FileRepository
  blobs: BlobStore
  jobs: FileJobs
  uploadLimitBytes: number
}

const DOWNLOAD_URL_SECONDS = 15 * 60
const ALL_KINDS = ['xlsx', 'xls', 'csv', 'pdf'] as const
const SPREADSHEET_KINDS = ['xlsx', 'csv'] as const

export function fileRoutes(app: ServiceApp, deps: FileRoutesDependencies) {
  const { files, blobs, jobs } = deps
  const tags = ['files']

  app.post(
    '/upload',
    {
      schema: {
        tags,
        summary: 'Upload a file (multipart field "file"): stored at once, then processed on the files.process queue',
        consumes: ['multipart/form-data'],
        response: { 201: UploadFileResponse, 413: ErrorBody, 415: ErrorBody, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = currentUser(request)
      const upload = await receiveUpload(request, {
        blobs,
        userId: user.uid,
        limitBytes: deps.uploadLimitBytes,
        accept: ALL_KINDS,
        refuse: filesErrors.invalidFileType,
        fileFields: ['file', 'document'],
      })
      const { file, jobId } = await recordUpload(deps, upload, user.uid)
      return reply.status(201).send({ success: true, file: toFileRecord(file), jobId })
    },
  )

  app.get(
    '/list',
    {
      schema: {
        tags,
        summary: "The user's files, newest first; type filters by the file manager's tabs",
        querystring: ListFilesQuery,
        response: { 200: ListFilesResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { type = 'all', limit = 100, offset = 0 } = request.query
      const { files: found, total } = await files.list(currentUser(request).uid, type, { limit, offset })
      return { success: true as const, files: found.map((file) => toFileRecord(file)), total }
    },
  )

  app.get(
    '/file/:id',
    {
      schema: {
        tags,
        summary: 'One file, with a download URL valid for 15 minutes',
        params: FileIdParams,
        response: { 200: FileResponse, ...errorResponses },
      },
    },
    async (request) => {
      const file = await files.get(currentUser(request).uid, request.params.id)
      if (!file || file.deletingSince !== null) throw filesErrors.fileNotFound()
      const url = await blobs.downloadUrl(file.storagePath, { expiresInSeconds: DOWNLOAD_URL_SECONDS, fileName: file.name })
      return { success: true as const, file: toFileRecord(file, url) }
    },
  )

  app.delete(
    '/delete/:id',
    {
      schema: {
        tags,
        summary: 'Delete the file and its stored bytes (its workbooks stay); 409 CONCURRENT_DELETION while another delete runs',
        params: FileIdParams,
        response: { 200: DeleteFileResponse, 409: ErrorBody, ...errorResponses },
      },
    },
    async (request) => {
      const { id } = request.params
      const user = currentUser(request)
      const claim = await files.claimDeletion(user.uid, id)
      if (claim === 'absent') throw filesErrors.fileNotFound()
      if (claim === 'pending') throw filesErrors.concurrentDeletion()
      const file = await files.get(user.uid, id)
      try {
        if (file) await blobs.delete(file.storagePath)
        await files.remove(id)
      } catch (error) {
        await files.releaseDeletion(id).catch(() => undefined)
        throw error
      }
      return { success: true as const, id }
    },
  )

  app.post(
    '/import',
    {
      schema: {
        tags,
        summary: 'Create a workbook from an uploaded xlsx or csv file; waits for the job, or answers pending with its id',
        body: ImportFileBody,
        response: { 200: ImportFileResponse, 202: ImportFileResponse, 422: ErrorBody, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = currentUser(request)
      const file = await files.get(user.uid, request.body.fileId)
      if (!file || file.deletingSince !== null) throw filesErrors.fileNotFound()
      if (!(SPREADSHEET_KINDS as readonly string[]).includes(file.kind)) throw filesErrors.notImportable(file.kind)
      const jobId = await jobs.enqueueImport(file, request.body.name)
      const answer = await jobs.waitForImport(jobId, file.id)
      return reply.status(answer.pending ? 202 : 200).send(answer)
    },
  )

  app.get(
    '/jobs/:id',
    {
      schema: {
        tags,
        summary: "A processing job's state and real progress (0–100)",
        params: JobIdParams,
        response: { 200: FileJobResponse, ...errorResponses },
      },
    },
    async (request) => {
      const job = await jobs.get(request.params.id)
      if (!job || job.data.userId !== currentUser(request).uid) throw filesErrors.jobNotFound()
      return {
        id: job.id,
        name: job.name,
        state: job.state,
        progress: job.progress,
        result: job.result ?? null,
        error: job.state === 'failed' ? (job.failedReason ?? 'Processing failed') : null,
        ...(job.failedReason !== undefined ? { failedReason: job.failedReason } : {}),
        attemptsMade: job.attemptsMade,
        fileId: job.data.fileId,
      }
    },
  )

  // Signed download links of the embedded blob store; MinIO's presigned links go to MinIO itself.
  app.get(
    '/download',
    {
      config: { public: true },
      schema: {
        tags,
        security: [],
        summary: 'Download a file through a signed, short-lived link from GET /file/{id}',
        querystring: Type.Object({
          key: Type.String(),
          expires: Type.String(),
          signature: Type.String(),
          name: Type.Optional(Type.String()),
        }),
      },
    },
    async (request, reply) => {
      if (!(blobs instanceof FsBlobStore)) throw filesErrors.fileNotFound()
      const link = await blobs.verifyDownloadUrl(request.query as Record<string, unknown>)
      if (!link) throw filesErrors.downloadLinkInvalid()
      const info = await blobs.stat(link.key)
      if (!info) throw filesErrors.fileNotFound()
      const stream = await blobs.get(link.key).catch((error: unknown) => {
        if (error instanceof BlobNotFoundError) throw filesErrors.fileNotFound()
        throw error
      })
      const fileName = link.fileName ?? link.key.split('/').pop() ?? 'file'
      return reply
        .header('content-type', info.contentType)
        .header('content-length', String(info.size))
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
        .header('cache-control', 'private, no-store')
        .send(stream)
    },
  )
}
