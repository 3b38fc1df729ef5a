import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, it } from 'vitest'
import { startMongoReplicaSet } from '../testing/containers.js'
import { dockerAvailable, NO_DOCKER_REASON } from '../testing/docker.js'
import { documentStoreContract } from './documents.contract.js'
import { createMongoDocumentStore } from './mongo-document-store.js'
import { createSqliteDocumentStore } from './sqlite-document-store.js'

const dir = mkdtempSync(join(tmpdir(), 'finsheet-documents-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

documentStoreContract('sqlite (file, WAL)', async () => createSqliteDocumentStore({ path: join(dir, 'contract.sqlite') }))
documentStoreContract('sqlite (memory)', async () => createSqliteDocumentStore({ path: ':memory:' }))

if (await dockerAvailable()) {
  let mongo: Awaited<ReturnType<typeof startMongoReplicaSet>> | null = null
  afterAll(async () => {
    await mongo?.stop()
  })
  documentStoreContract('mongodb (Testcontainers)', async () => {
    mongo = await startMongoReplicaSet()
    return createMongoDocumentStore({ url: mongo.url, database: 'finsheet_contract' })
  })
} else {
  console.log(`documents port: mongodb ${NO_DOCKER_REASON}`)
  describe.skip(`documents port: mongodb (${NO_DOCKER_REASON})`, () => {
    it('keeps the documents contract', () => {})
  })
}
