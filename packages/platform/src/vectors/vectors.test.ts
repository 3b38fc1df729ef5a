import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, it } from 'vitest'
import { startQdrant } from '../testing/containers.js'
import { dockerAvailable, NO_DOCKER_REASON } from '../testing/docker.js'
import { QdrantVectorStore } from './qdrant-vector-store.js'
import { SqliteVectorStore } from './sqlite-vector-store.js'
import { vectorStoreContract } from './vectors.contract.js'

vectorStoreContract('in-process exact cosine, persisted in SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'finsheet-vectors-'))
  const path = join(dir, 'vectors.sqlite')
  let store = new SqliteVectorStore(path)
  return {
    store,
    reopen: async () => {
      await store.close()
      store = new SqliteVectorStore(path)
      return store
    },
    close: async () => {
      await store.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
})

if (await dockerAvailable()) {
  let qdrant: Awaited<ReturnType<typeof startQdrant>> | null = null
  afterAll(async () => {
    await qdrant?.stop()
  })
  vectorStoreContract('qdrant (Testcontainers)', async () => {
    qdrant = await startQdrant()
    return { store: new QdrantVectorStore({ url: qdrant.url }), close: async () => {} }
  })
} else {
  console.log(`vectors port: qdrant ${NO_DOCKER_REASON}`)
  describe.skip(`vectors port: qdrant (${NO_DOCKER_REASON})`, () => {
    it('keeps the vectors contract', () => {})
  })
}
