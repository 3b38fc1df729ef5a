/**
 * The files service scaled out: blobs in an S3-compatible store (s3rver, through the MinIO adapter),
 * jobs on BullMQ with a local redis-server, and the worker as a separate consumer of the queue, as
 * docker compose runs files and files-worker; workbooks go to a running spreadsheet service, stored
 * with a token the worker gets from a running users service.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUserTokenSource, createSqliteDocumentStore, createTokenVerifier, type BlobStore, type DocumentStore, type JobWorker, type ServiceApp } from '@finsheet/platform'
import { BullmqJobQueues, createMinioBlobStore } from '@finsheet/platform/external'
import { startRedisServer, startS3rver, type RunningServer } from '@finsheet/platform/testing'
import type { FileRecord, ImportFileResponse } from '@finsheet/contracts'
import { buildFilesApp, loadFilesConfig, startFileWorker } from '@finsheet/files-service'
import { createSpreadsheetService, loadSpreadsheetConfig } from '@finsheet/spreadsheet-service'
import { createUsersService, loadUsersConfig } from '@finsheet/users-service'
import type { AddressInfo } from 'node:net'
import { DEFAULT_IMPORT_LIMITS } from '@finsheet/workbook'
import { client, testUsers, type TestUsers } from './support/files-harness.js'
import { pdfBuffer, sampleWorkbook, zipBomb } from './support/make-files.js'

let users: TestUsers
let redis: RunningServer
let s3: RunningServer & { accessKey: string; secretKey: string }
let app: ServiceApp
let worker: JobWorker
let blobs: BlobStore
let store: DocumentStore
let serviceJobs: BullmqJobQueues
let workerJobs: BullmqJobQueues
let erin: ReturnType<typeof client>
let spreadsheet: ServiceApp
let spreadsheetUrl: string
let usersService: ServiceApp
let erinToken: string
let erinUid: string

beforeAll(async () => {
  users = await testUsers('finsheet-files-scaled-')
  ;[redis, s3] = await Promise.all([startRedisServer(), startS3rver('finsheet-files')])
  blobs = await createMinioBlobStore({ endpoint: s3.url, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: 'finsheet-files' })
  store = await createSqliteDocumentStore({ path: join(users.dataDir, 'files.sqlite') })
  serviceJobs = new BullmqJobQueues({ url: redis.url })
  workerJobs = new BullmqJobQueues({ url: redis.url })
  spreadsheet = await createSpreadsheetService(loadSpreadsheetConfig({ DATA_DIR: users.dataDir, LOG_LEVEL: 'silent' }))
  await spreadsheet.listen({ port: 0, host: '127.0.0.1' })
  spreadsheetUrl = `http://127.0.0.1:${(spreadsheet.server.address() as AddressInfo).port}`
  usersService = await createUsersService(loadUsersConfig({ DATA_DIR: users.dataDir, LOG_LEVEL: 'silent' }))
  await usersService.listen({ port: 0, host: '127.0.0.1' })
  const usersUrl = `http://127.0.0.1:${(usersService.server.address() as AddressInfo).port}`
  const registered = (await usersService.inject({ method: 'POST', url: '/register', payload: { email: 'erin@example.com', password: 'amber-otter-42', fullName: 'Erin' } })).json()
  ;({ token: erinToken, user: { uid: erinUid } } = registered)
  app = await buildFilesApp({ verifier: createTokenVerifier(loadFilesConfig({ DATA_DIR: users.dataDir })), store, blobs, jobs: serviceJobs })
  // The worker has its own queue connection, as the files-worker container does.
  worker = startFileWorker({
    store,
    blobs,
    jobs: workerJobs,
    spreadsheet: spreadsheetUrl,
    userTokens: await createUserTokenSource({ DATA_DIR: users.dataDir, USERS_URL: usersUrl }, 'files-worker'),
    limits: DEFAULT_IMPORT_LIMITS,
  })
  erin = client(app, erinToken)
})
afterAll(async () => {
  await worker?.close()
  await app?.close()
  await spreadsheet?.close()
  await usersService?.close()
  await serviceJobs?.close()
  await workerJobs?.close()
  await blobs?.close()
  await store?.close()
  await Promise.all([redis?.stop(), s3?.stop()])
  users?.cleanup()
})

describe('files on MinIO and BullMQ', () => {
  it('uploads to the bucket, processes a PDF on the BullMQ worker, and serves a presigned download', async () => {
    const bytes = await pdfBuffer({ lines: ['Total revenue 2,500', 'Net income 300'] })
    const upload = await erin.upload('/upload', { name: 'q1.pdf', bytes })
    expect(upload.statusCode, upload.body).toBe(201)
    const { file, jobId } = upload.json() as { file: FileRecord; jobId: string }
    const stat = await blobs.stat(file.storagePath)
    expect(stat?.size).toBe(bytes.length)

    const job = await erin.job(jobId)
    expect(job).toMatchObject({ state: 'completed', progress: 100 })
    expect(job.result?.data).toEqual([
      { label: 'Total revenue', value: 2500, notes: 'page 1' },
      { label: 'Net income', value: 300, notes: 'page 1' },
    ])

    const record = (await erin.get(`/file/${file.id}`)).json().file as FileRecord
    expect(record.status).toBe('processed')
    expect(record.downloadUrl).toMatch(new RegExp(`^${s3.url}/finsheet-files/users/${erinUid}/files/`))
    const download = await fetch(record.downloadUrl as string)
    expect(download.status).toBe(200)
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true)
  })

  it('fails a zip bomb once on the worker with the reason, and deletes the object with the record', async () => {
    const upload = await erin.upload('/upload', { name: 'bomb.xlsx', bytes: await zipBomb(64) })
    const { file, jobId } = upload.json() as { file: FileRecord; jobId: string }
    const job = await erin.job(jobId)
    expect(job).toMatchObject({ state: 'failed', attemptsMade: 1 })
    expect(job.error).toMatch(/looks like a zip bomb and was not opened\.$/)

    const good = await erin.upload('/upload', { name: 'model.xlsx', bytes: await sampleWorkbook() })
    const goodFile = good.json().file as FileRecord
    expect((await erin.delete(`/delete/${goodFile.id}`)).statusCode).toBe(200)
    expect(await blobs.stat(goodFile.storagePath)).toBeNull()
    expect((await erin.delete(`/delete/${file.id}`)).statusCode).toBe(200)
    expect(await blobs.stat(file.storagePath)).toBeNull()
    expect((await erin.get('/list')).json().files.map((f: FileRecord) => f.id)).not.toContain(goodFile.id)
  })

  it('imports an xlsx through the worker into the spreadsheet service, and serves every import route', async () => {
    const upload = await erin.upload('/upload', { name: 'plan.xlsx', bytes: await sampleWorkbook() })
    expect(upload.statusCode).toBe(201)
    const { file, jobId } = upload.json() as { file: FileRecord; jobId: string }
    const job = await erin.job(jobId)
    expect(job, job.error ?? '').toMatchObject({ state: 'completed', progress: 100, result: { cellCount: 6, formulaCount: 2 } })
    const cells = await fetch(`${spreadsheetUrl}/workbook/${job.result?.workbookId}/cells`, { headers: { authorization: `Bearer ${erinToken}` } })
    const inputs = (await cells.json()).workbook.sheets[0]
    expect(inputs.cells.B3).toMatchObject({ formula: '=B1*(1+B2)', value: 1320 })

    const imported = await erin.post('/import', { fileId: file.id })
    expect(imported.statusCode).toBe(200)
    const fromFile = await erin.post(`/import-from-file/${file.id}`)
    expect(fromFile.statusCode).toBe(200)
    const uploaded = await erin.upload('/upload-excel', { name: 'plan.csv', bytes: Buffer.from('a,b\n1,2\n') }, { name: 'From CSV' })
    expect(uploaded.statusCode).toBe(200)
    const ids = [imported, fromFile, uploaded].map((response) => (response.json() as ImportFileResponse).workbookId)
    expect(new Set([job.result?.workbookId, ...ids]).size).toBe(4)
    expect((await erin.get('/list?type=excel')).json().files.map((f: FileRecord) => f.name)).toEqual(['plan.csv', 'plan.xlsx'])
  })
})
