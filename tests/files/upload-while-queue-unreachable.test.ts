/**
 * An upload made while Redis (the BullMQ queue) cannot be reached used to wait in the client's
 * offline queue until Redis came back — a request hanging for as long as the outage — and a failure
 * there left a file record that nothing would ever process. Now it answers 503 at once and keeps
 * nothing, and uploads succeed again by themselves once Redis is back.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FsBlobStore, type ServiceApp } from '@finsheet/platform'
import { createFilesService, loadFilesConfig } from '@finsheet/files-service'
import { startRedis, type Dependency } from '../faults/support/dependencies.js'
import { client, testUsers, type TestUsers } from './support/files-harness.js'
import { sampleWorkbook } from './support/make-files.js'

let users: TestUsers
let redis: Dependency
let app: ServiceApp
let erin: ReturnType<typeof client>

beforeAll(async () => {
  users = await testUsers('finsheet-files-queue-')
  redis = await startRedis(join(users.dataDir, 'redis'))
  // No worker: the jobs stay queued, which is all this needs.
  app = await createFilesService(loadFilesConfig({ DATA_DIR: users.dataDir, REDIS_URL: `redis://127.0.0.1:${redis.port}`, RUN_WORKER: 'false', LOG_LEVEL: 'silent' }))
  erin = client(app, await users.tokenFor('erin'))
}, 60_000)

afterAll(async () => {
  await app?.close()
  await redis?.stop()
  users?.cleanup()
})

const storedBlobs = () => new FsBlobStore({ root: join(users.dataDir, 'blobs'), downloadBaseUrl: '/download' }).list('users/erin/')

describe('uploads while the job queue cannot be reached', () => {
  it('answers 503 at once, keeps no record and no bytes, and takes uploads again once Redis is back', async () => {
    const bytes = await sampleWorkbook()
    const first = await erin.upload('/upload', { name: 'kept.xlsx', bytes })
    expect(first.statusCode).toBe(201)

    await redis.kill()
    const started = performance.now()
    const refused = await erin.upload('/upload', { name: 'refused.xlsx', bytes })
    expect(performance.now() - started).toBeLessThan(3000)
    expect(refused.statusCode).toBe(503)
    expect(refused.headers['retry-after']).toBe('5')
    expect(refused.json().error).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'The job queue cannot be reached. Nothing was stored; try again in a moment.' })
    expect((await erin.get('/list')).json().files.map((file: { name: string }) => file.name)).toEqual(['kept.xlsx'])
    expect(await storedBlobs()).toHaveLength(1)
    const status = await erin.get(`/jobs/${first.json().jobId}`)
    expect(status.statusCode).toBe(503)

    await redis.start()
    let again = await erin.upload('/upload', { name: 'later.xlsx', bytes })
    for (const deadline = Date.now() + 15_000; again.statusCode === 503 && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      again = await erin.upload('/upload', { name: 'later.xlsx', bytes })
    }
    expect(again.statusCode).toBe(201)
    // The job queued before the outage is still there: Redis keeps its queue on disk.
    expect((await erin.get(`/jobs/${first.json().jobId}`)).json()).toMatchObject({ state: 'waiting' })
  }, 60_000)
})
