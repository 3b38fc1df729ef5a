/**
 * No job record holds a bearer token. Files are uploaded and imported through the files service on
 * both queue adapters — the SQLite queue and BullMQ on a throwaway redis-server — and the stored job
 * records are then read straight from SQLite and Redis, while waiting and after the worker has run
 * them: the data names the user, and no token (the user's, or the one the worker was given) is there.
 * The worker still stores the workbook as the user's: it asked the users service for a token.
 */
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import Database from 'better-sqlite3'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSqliteDocumentStore, createTokenVerifier, createUserTokenSource, FsBlobStore, SqliteJobQueues, type DocumentStore, type JobQueues, type JobWorker, type ServiceApp, type UserTokenSource } from '@finsheet/platform'
import { BullmqJobQueues } from '@finsheet/platform/external'
import { startRedisServer, type RunningServer } from '@finsheet/platform/testing'
import { buildFilesApp, loadFilesConfig, startFileWorker } from '@finsheet/files-service'
import { createSpreadsheetService, loadSpreadsheetConfig } from '@finsheet/spreadsheet-service'
import { createUsersService, loadUsersConfig } from '@finsheet/users-service'
import { DEFAULT_IMPORT_LIMITS } from '@finsheet/workbook'
import type { FileRecord } from '@finsheet/contracts'
import { client, testUsers, type TestUsers } from './support/files-harness.js'
import { sampleWorkbook } from './support/make-files.js'

/** A JSON Web Token anywhere in a text: three base64url parts, the first a JSON header. */
const JWT = /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/

let dir: TestUsers
let usersService: ServiceApp
let spreadsheet: ServiceApp
let usersUrl: string
let spreadsheetUrl: string

beforeAll(async () => {
  dir = await testUsers('finsheet-job-credentials-')
  usersService = await createUsersService(loadUsersConfig({ DATA_DIR: dir.dataDir, LOG_LEVEL: 'silent' }))
  await usersService.listen({ port: 0, host: '127.0.0.1' })
  usersUrl = `http://127.0.0.1:${(usersService.server.address() as AddressInfo).port}`
  spreadsheet = await createSpreadsheetService(loadSpreadsheetConfig({ DATA_DIR: dir.dataDir, LOG_LEVEL: 'silent' }))
  await spreadsheet.listen({ port: 0, host: '127.0.0.1' })
  spreadsheetUrl = `http://127.0.0.1:${(spreadsheet.server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await spreadsheet?.close()
  await usersService?.close()
  dir?.cleanup()
})

/** Every string Redis holds, whatever the key's type. */
async function everythingInRedis(url: string): Promise<string> {
  const redis = new Redis(url)
  try {
    const texts: string[] = []
    for (const key of await redis.keys('*')) {
      const type = await redis.type(key)
      texts.push(key)
      if (type === 'string') texts.push((await redis.get(key)) ?? '')
      else if (type === 'hash') texts.push(...Object.entries(await redis.hgetall(key)).flat())
      else if (type === 'list') texts.push(...(await redis.lrange(key, 0, -1)))
      else if (type === 'set') texts.push(...(await redis.smembers(key)))
      else if (type === 'zset') texts.push(...(await redis.zrange(key, 0, -1)))
      else if (type === 'stream') texts.push(...(await redis.xrange(key, '-', '+')).flat(3).map(String))
    }
    return texts.join('\n')
  } finally {
    redis.disconnect()
  }
}

/** Every row of the SQLite queue, every column as text. */
function everythingInSqlite(path: string): { text: string; data: unknown[] } {
  const db = new Database(path, { readonly: true })
  try {
    const rows = db.prepare('SELECT * FROM jobs').all() as Array<Record<string, unknown>>
    return { text: rows.map((row) => Object.values(row).map(String).join('\t')).join('\n'), data: rows.map((row) => JSON.parse(String(row.data))) }
  } finally {
    db.close()
  }
}

interface Adapter {
  name: string
  open(): Promise<{ service: JobQueues; worker: JobQueues; storedText(): Promise<string>; storedData(): Promise<unknown[]>; close(): Promise<void> }>
}

const adapters: Adapter[] = [
  {
    name: 'the SQLite job queue',
    async open() {
      const path = join(dir.dataDir, `jobs-${Date.now()}.sqlite`)
      const service = new SqliteJobQueues({ path, pollIntervalMs: 50 })
      const worker = new SqliteJobQueues({ path, pollIntervalMs: 50 })
      return {
        service,
        worker,
        storedText: async () => everythingInSqlite(path).text,
        storedData: async () => everythingInSqlite(path).data,
        close: async () => {
          await worker.close()
          await service.close()
        },
      }
    },
  },
  {
    name: 'BullMQ on a throwaway redis-server',
    async open() {
      const redis: RunningServer = await startRedisServer()
      const service = new BullmqJobQueues({ url: redis.url })
      const worker = new BullmqJobQueues({ url: redis.url })
      const stored = () => everythingInRedis(redis.url)
      return {
        service,
        worker,
        storedText: stored,
        async storedData() {
          const client = new Redis(redis.url)
          try {
            const keys = (await client.keys('finsheet:files.process:*')).filter((key) => /^finsheet:files\.process:[^:]+$/.test(key))
            const jobKeys = (await Promise.all(keys.map(async (key) => ((await client.type(key)) === 'hash' ? key : null)))).filter((key) => key !== null)
            const hashes = await Promise.all(jobKeys.map((key) => client.hgetall(key)))
            return hashes.filter((hash) => hash.data).map((hash) => JSON.parse(hash.data))
          } finally {
            client.disconnect()
          }
        },
        close: async () => {
          await worker.close()
          await service.close()
          await redis.stop()
        },
      }
    },
  },
]

describe.each(adapters)('job records on $name', (adapter) => {
  let queues: Awaited<ReturnType<Adapter['open']>>
  let app: ServiceApp
  let worker: JobWorker | null = null
  let userTokens: UserTokenSource
  let session: { token: string; user: { uid: string } }
  let store: DocumentStore
  let blobs: FsBlobStore
  const startWorker = () =>
    startFileWorker({ store, blobs, jobs: queues.worker, spreadsheet: spreadsheetUrl, userTokens, limits: DEFAULT_IMPORT_LIMITS, workDir: join(dir.dataDir, 'work') })

  beforeAll(async () => {
    queues = await adapter.open()
    store = await createSqliteDocumentStore({ path: join(dir.dataDir, `files-${adapter.name.length}-${Date.now()}.sqlite`) })
    blobs = new FsBlobStore({ root: join(dir.dataDir, 'blobs'), downloadBaseUrl: '/download' })
    // No wait in the import routes: they answer 202 at once, leaving the job stored and waiting.
    app = await buildFilesApp({ verifier: createTokenVerifier(loadFilesConfig({ DATA_DIR: dir.dataDir })), store, blobs, jobs: queues.service, importWaitMs: 0 })
    userTokens = await createUserTokenSource({ DATA_DIR: dir.dataDir, USERS_URL: usersUrl }, 'files-worker')
    const email = `owner-${adapter.name.length}-${Date.now()}@example.com`
    session = (await usersService.inject({ method: 'POST', url: '/register', payload: { email, password: 'amber-otter-42', fullName: 'Owner' } })).json()
  })
  afterAll(async () => {
    await worker?.close()
    await app?.close()
    await queues?.close()
    await store?.close()
    await blobs?.close()
  })

  it('stores the user id and no token, while waiting and after the worker ran the job with a token it asked for', async () => {
    const owner = client(app, session.token)
    const upload = await owner.upload('/upload', { name: 'plan.xlsx', bytes: await sampleWorkbook() })
    expect(upload.statusCode, upload.body).toBe(201)
    const { file, jobId } = upload.json() as { file: FileRecord; jobId: string }
    const imported = await owner.post('/import', { fileId: file.id })
    expect(imported.statusCode, imported.body).toBe(202)
    const viaSpreadsheetArea = await owner.upload('/upload-excel', { name: 'second.csv', bytes: Buffer.from('a,b\n1,2\n') }, { name: 'Second' })
    expect(viaSpreadsheetArea.statusCode, viaSpreadsheetArea.body).toBe(202)

    const waiting = await queues.storedData()
    expect(waiting.length).toBe(3)
    for (const data of waiting) {
      expect(data).toMatchObject({ userId: session.user.uid })
      expect(Object.keys(data as object)).not.toContain('token')
    }
    const storedWhileWaiting = await queues.storedText()
    expect(storedWhileWaiting).toContain(session.user.uid)
    expect(storedWhileWaiting).not.toContain(session.token)
    expect(storedWhileWaiting).not.toMatch(JWT)

    const workerToken = await userTokens.tokenFor(session.user.uid)
    // Only now does a worker start, with its own queue connection, as files-worker does.
    worker = startWorker()
    const done = await owner.job(jobId)
    expect(done.state, done.failedReason).toBe('completed')
    expect(done.result?.workbookId).toEqual(expect.any(String))
    // The workbook is the owner's: the worker stored it with a token for the owner.
    const cells = await fetch(`${spreadsheetUrl}/workbook/${done.result?.workbookId}/cells`, { headers: { authorization: `Bearer ${session.token}` } })
    expect(cells.status).toBe(200)

    const storedAfterRun = await queues.storedText()
    expect(storedAfterRun).not.toContain(session.token)
    expect(storedAfterRun).not.toContain(workerToken)
    expect(storedAfterRun).not.toMatch(JWT)
  })
})
