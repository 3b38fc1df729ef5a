import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { readLines, spawnTypeScript } from '../testing/child-process.js'
import { createSqliteDocumentStore } from './sqlite-document-store.js'

const dir = mkdtempSync(join(tmpdir(), 'finsheet-crash-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('sqlite documents survive SIGKILL in the middle of saving sessions', () => {
  it('keeps every acknowledged write and opens cleanly', async () => {
    const path = join(dir, 'users.sqlite')
    const child = spawnTypeScript(new URL('../testing/fixtures/session-writer.ts', import.meta.url), [path])
    let lastAck = -1
    const exited = readLines(child, (line) => {
      const match = /^ack (\d+)$/.exec(line)
      if (!match) return
      lastAck = Number(match[1])
      if (lastAck === 300) child.kill('SIGKILL')
    })
    const { signal, stderr } = await exited
    expect(stderr).toBe('')
    expect(signal).toBe('SIGKILL')
    expect(lastAck).toBeGreaterThanOrEqual(300)

    const raw = new Database(path)
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok')
    raw.close()

    const store = createSqliteDocumentStore({ path })
    const sessions = store.collection<{ id: string; n: number; rows: string[] }>('sessions')
    const history = store.collection<{ id: string; sessionId: string; n: number }>('history', { indexes: [{ fields: ['sessionId'] }] })
    for (let n = 0; n <= lastAck; n++) {
      const session = await sessions.get(`session-${n}`)
      expect(session?.n).toBe(n)
      expect(session?.rows).toHaveLength(30)
      expect((await history.get(`history-${n}`))?.sessionId).toBe(`session-${n}`)
    }
    // Writes made in one transaction are there together or not at all, even for the unacknowledged tail.
    for (const session of await sessions.find({ n: { $gt: lastAck } })) {
      if (session.n % 3 === 0) expect(await history.get(`history-${session.n}`)).not.toBeNull()
    }
    await sessions.put({ id: 'after-restart', n: -1, rows: [] })
    expect(await sessions.get('after-restart')).not.toBeNull()
    await store.close()
  })
})
