import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startAllInOne } from '@finsheet/standalone'
const stack = await startAllInOne({ port: 0, dataDir: mkdtempSync(join(tmpdir(), 'zz-')), logger: false, env: { ...process.env, SPREADSHEET_THREADS: '1', SPREADSHEET_THREAD_MEMORY_MB: '256' } })
const call = async (method: string, path: string, body?: unknown, token?: string) => {
  const r = await fetch(stack.url + path, { method, headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body ? JSON.stringify(body) : undefined })
  const text = await r.text(); return { status: r.status, text }
}
const created = JSON.parse((await call('POST', '/api/users/create-anonymous-user', {})).text)
const token = JSON.parse((await call('POST', '/api/users/token', { customToken: created.customToken })).text).token
const wb = JSON.parse((await call('POST', '/api/spreadsheet/workbooks', { name: 'x' }, token)).text)
console.log(wb)
const id = wb.workbookId
let t = performance.now()
const r = await call('POST', '/api/spreadsheet/update-cells', { workbookId: id, updates: Array.from({ length: 8000 }, (_, i) => ({ cellAddress: `A${i + 1}`, formula: `=UPPER(REPT("x",32000)&ROW())` })) }, token)
console.log(r.status, r.text.slice(0, 300), (performance.now() - t).toFixed(0))
await new Promise((res) => setTimeout(res, 2000))
t = performance.now()
const r2 = await call('POST', '/api/spreadsheet/update-cells', { workbookId: id, updates: [{ cellAddress: 'B1', value: 5 }] }, token)
console.log(r2.status, r2.text.slice(0, 300), (performance.now() - t).toFixed(0))
await stack.close()
