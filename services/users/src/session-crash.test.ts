import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { readLines, spawnTypeScript } from '@finsheet/platform/testing'
import { loadUsersConfig } from './config.js'
import { createUsersService } from './service.js'

const dir = mkdtempSync(join(tmpdir(), 'finsheet-users-crash-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('users service killed with SIGKILL while saving sessions', () => {
  it('keeps every acknowledged save and opens its database cleanly after restart', async () => {
    const child = spawnTypeScript(new URL('./fixtures/serve.ts', import.meta.url), [], { DATA_DIR: dir, LOG_LEVEL: 'silent' })
    let port = 0
    let ready!: () => void
    const listening = new Promise<void>((resolve) => (ready = resolve))
    const exited = readLines(child, (line) => {
      const match = /^listening (\d+)$/.exec(line)
      if (match) {
        port = Number(match[1])
        ready()
      }
    })
    await listening
    const base = `http://127.0.0.1:${port}`
    const post = (path: string, body: unknown, token?: string) =>
      fetch(base + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      })

    type Session = { workbooks: { defaultWorkbook: { sheets: { Sheet1: { state: { formulaBarValue?: string } } } } } }
    const users: Array<{ token: string; uid: string; session: Session; lastAcked: number }> = []
    for (let i = 0; i < 8; i++) {
      const { token, user } = (await (await post('/register', { email: `crash${i}@example.com`, password: 'amber-otter-42', fullName: `C${i}` })).json()) as { token: string; user: { uid: string } }
      const { session } = (await (await post('/spreadsheet-session/load-or-create', {}, token)).json()) as { session: Session }
      users.push({ token, uid: user.uid, session, lastAcked: -1 })
    }

    // Each user saves version after version; the process dies while saves are in flight.
    let acknowledged = 0
    const saver = async (user: (typeof users)[number]) => {
      const { session } = user
      for (let version = 0; ; version++) {
        session.workbooks.defaultWorkbook.sheets.Sheet1.state.formulaBarValue = `=v${version}`
        let response: Response
        try {
          response = await post('/spreadsheet-session', { userId: user.uid, session }, user.token)
        } catch {
          return
        }
        if (response.status !== 200) return
        user.lastAcked = version
        if (++acknowledged === 120) child.kill('SIGKILL')
      }
    }
    await Promise.all(users.map(saver))
    const { signal } = await exited
    expect(signal).toBe('SIGKILL')
    expect(acknowledged).toBeGreaterThanOrEqual(120)

    const raw = new Database(join(dir, 'documents', 'users.sqlite'))
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok')
    raw.close()

    const app = await createUsersService(loadUsersConfig({ DATA_DIR: dir }))
    try {
      for (const user of users) {
        const response = await app.inject({ method: 'GET', url: '/spreadsheet-session/current', headers: { authorization: `Bearer ${user.token}` } })
        expect(response.statusCode).toBe(200)
        const stored = (response.json() as { session: { workbooks: { defaultWorkbook: { sheets: { Sheet1: { state: { formulaBarValue: string } } } } } } }).session
        const version = Number(stored.workbooks.defaultWorkbook.sheets.Sheet1.state.formulaBarValue.slice(2))
        // The last acknowledged save is there, or a later one that was written but not yet answered.
        expect(version).toBeGreaterThanOrEqual(user.lastAcked)
        expect(version).toBeLessThanOrEqual(user.lastAcked + 1)
      }
    } finally {
      await app.close()
    }
  })
})
