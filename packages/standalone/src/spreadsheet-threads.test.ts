/**
 * The spreadsheet service as `npm start` runs it: replicas in worker threads behind its port. A
 * request that runs its thread out of memory fails alone with a 503 saying so; the thread is
 * replaced, and that workbook, another user's and new ones keep working with what was stored.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAllInOne, type AllInOne } from './all-in-one.js'

const root = mkdtempSync(join(tmpdir(), 'finsheet-threads-'))
let stack: AllInOne

beforeAll(async () => {
  stack = await startAllInOne({
    port: 0,
    dataDir: root,
    logger: false,
    webRoot: join(root, 'no-web-build'),
    env: { SPREADSHEET_THREADS: '2', SPREADSHEET_THREAD_MEMORY_MB: '256', RATE_LIMIT_MAX: '100000' },
  })
}, 180_000)
afterAll(async () => {
  await stack?.close()
  rmSync(root, { recursive: true, force: true })
})

async function call(method: string, path: string, body?: unknown, token?: string) {
  const response = await fetch(stack.url + path, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  })
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, json: (await response.json()) as any }
}

async function anonymousUser(): Promise<string> {
  const created = await call('POST', '/api/users/create-anonymous-user', {})
  return (await call('POST', '/api/users/token', { customToken: created.json.customToken })).json.token
}

describe('spreadsheet threads', () => {
  it('answer a workbook through any thread, and replace a thread a request ran out of memory', async () => {
    const [owner, other] = [await anonymousUser(), await anonymousUser()]
    const workbookId = (await call('POST', '/api/spreadsheet/workbooks', { name: 'Threads' }, owner)).json.workbookId
    const otherId = (await call('POST', '/api/spreadsheet/workbooks', { name: 'Other' }, other)).json.workbookId
    const edit = await call('POST', '/api/spreadsheet/update-cells', { workbookId, updates: [{ cellAddress: 'A1', value: 2 }, { cellAddress: 'B1', formula: '=A1*21' }] }, owner)
    expect(edit.status).toBe(200)
    expect((await call('POST', '/api/spreadsheet/update-cell', { workbookId: otherId, cellAddress: 'A1', value: 7 }, other)).status).toBe(200)

    // 8,000 texts of 32,000 characters: about 512 MB of values, past the thread's 256 MB heap.
    const updates = Array.from({ length: 8000 }, (_, i) => ({ cellAddress: `C${i + 1}`, formula: '=UPPER(REPT("x",32000)&ROW())' }))
    const exhausting = await call('POST', '/api/spreadsheet/update-cells', { workbookId, updates }, owner)
    expect(exhausting.status).toBe(503)
    expect(exhausting.json.error.message).toContain('The spreadsheet thread answering this request stopped (it needed more memory than a request may take)')

    // Requests wait for the replacement when they need it; what was stored is intact.
    const after = await call('POST', '/api/spreadsheet/update-cell', { workbookId, cellAddress: 'A1', value: 3 }, owner)
    expect(after.status).toBe(200)
    expect(after.json.changedCells).toEqual(expect.arrayContaining([expect.objectContaining({ address: 'B1', value: 63 })]))
    const cells = (await call('GET', `/api/spreadsheet/workbook/${workbookId}/cells`, undefined, owner)).json.workbook.sheets[0].cells
    expect(cells.C1).toBeUndefined()
    expect((await call('GET', `/api/spreadsheet/workbook/${otherId}/cells`, undefined, other)).json.workbook.sheets[0].cells.A1.value).toBe(7)
    expect((await call('POST', '/api/spreadsheet/workbooks', { name: 'After' }, other)).status).toBe(201)
    const listed = (await call('GET', '/api/spreadsheet/workbooks', undefined, owner)).json
    expect(JSON.stringify(listed)).toContain(workbookId)
  }, 180_000)
})
