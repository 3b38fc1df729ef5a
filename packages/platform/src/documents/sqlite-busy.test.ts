import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { DependencyUnavailableError } from '../errors/dependency-unavailable.js'
import { toAppError } from '../errors/error-handler.js'
import { createSqliteDocumentStore } from './sqlite-document-store.js'

const dir = mkdtempSync(join(tmpdir(), 'finsheet-busy-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The longest gap between ticks of a 10 ms interval while `work` runs: how long the event loop was held. */
async function longestStall<R>(work: () => Promise<R>): Promise<{ result: PromiseSettledResult<R>; stallMs: number; ms: number }> {
  let last = performance.now()
  let stallMs = 0
  const ticker = setInterval(() => {
    const now = performance.now()
    stallMs = Math.max(stallMs, now - last)
    last = now
  }, 10)
  const started = performance.now()
  const [result] = await Promise.allSettled([work()])
  const ms = performance.now() - started
  clearInterval(ticker)
  return { result, stallMs, ms }
}

describe('sqlite documents while another process holds the write lock', () => {
  const path = join(dir, 'locked.sqlite')
  const store = createSqliteDocumentStore({ path, busyTimeoutMs: 400 })
  const docs = store.collection<{ id: string; n: number }>('docs')

  it('waits for the lock without holding the event loop, then answers DependencyUnavailableError (503)', async () => {
    await docs.put({ id: 'a', n: 1 })
    const other = new Database(path)
    other.exec('BEGIN EXCLUSIVE')
    try {
      const { result, stallMs, ms } = await longestStall(() => store.transaction(async (tx) => tx.collection<{ id: string; n: number }>('docs').put({ id: 'a', n: 2 })))
      expect(result.status).toBe('rejected')
      const error = (result as PromiseRejectedResult).reason
      expect(error).toBeInstanceOf(DependencyUnavailableError)
      expect(ms).toBeGreaterThanOrEqual(390)
      // SQLite's own busy wait would have held the loop for the whole 400 ms.
      expect(stallMs).toBeLessThan(200)
      const answer = toAppError(error)
      expect(answer).toMatchObject({ statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: 'The document store is busy. Nothing was changed; try again in a moment.' })
      expect(answer.headers['retry-after']).toBe('5')
      // Readers are not locked out, and nothing of the refused write is there.
      expect(await docs.get('a')).toEqual({ id: 'a', n: 1 })
    } finally {
      other.exec('ROLLBACK')
      other.close()
    }
    await store.transaction(async (tx) => tx.collection<{ id: string; n: number }>('docs').put({ id: 'a', n: 3 }))
    expect(await docs.get('a')).toEqual({ id: 'a', n: 3 })
  })

  it('commits once the lock is released within the wait, and keeps concurrent transactions apart', async () => {
    const other = new Database(path)
    other.exec('BEGIN EXCLUSIVE')
    setTimeout(() => {
      other.exec('COMMIT')
      other.close()
    }, 150)
    const writes = Array.from({ length: 5 }, (_, i) =>
      store.transaction(async (tx) => {
        const current = (await tx.collection<{ id: string; n: number }>('docs').get('counter'))?.n ?? 0
        await new Promise((resolve) => setTimeout(resolve, 5))
        await tx.collection<{ id: string; n: number }>('docs').put({ id: 'counter', n: current + 1 })
        return i
      }),
    )
    expect(await Promise.all(writes)).toEqual([0, 1, 2, 3, 4])
    expect(await docs.get('counter')).toEqual({ id: 'counter', n: 5 })
  })

  it('answers a single write outside a transaction with DependencyUnavailableError past the wait, the loop free meanwhile', async () => {
    const other = new Database(path)
    other.exec('BEGIN EXCLUSIVE')
    try {
      const { result, stallMs } = await longestStall(() => docs.put({ id: 'b', n: 1 }))
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(DependencyUnavailableError)
      expect(stallMs).toBeLessThan(200)
    } finally {
      other.exec('ROLLBACK')
      other.close()
    }
    await docs.put({ id: 'b', n: 1 })
    expect(await docs.get('b')).toEqual({ id: 'b', n: 1 })
  })
})
