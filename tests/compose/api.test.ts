/**
 * The API of a deployed stack, reached as a browser reaches it: `FINSHEET_API_URL` names its front
 * door (nginx in compose). `npm run test:compose` starts docker-compose.yml with two replicas of every
 * stateless service and runs this suite against it; without FINSHEET_API_URL it is skipped. Every
 * check holds whichever replica answers, so requests that land on different replicas must agree.
 */
import { describe, expect, it } from 'vitest'

const base = process.env.FINSHEET_API_URL?.replace(/\/$/, '')
const password = 'amber-otter-42'

interface Session {
  token: string
  call(method: string, path: string, body?: unknown): Promise<{ status: number; headers: Headers; json: any }> // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function signUp(name: string): Promise<Session> {
  const email = `${name}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`
  const registered = await fetch(`${base}/api/users/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password, fullName: name }) })
  expect(registered.status).toBe(201)
  const login = await fetch(`${base}/api/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) })
  expect(login.status).toBe(200)
  const { token } = (await login.json()) as { token: string }
  return {
    token,
    async call(method, path, body) {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await response.text()
      return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : null }
    },
  }
}

describe.skipIf(!base)('the deployed API (FINSHEET_API_URL)', () => {
  it('reports every service healthy, and the gateway live and ready', async () => {
    const health = await fetch(`${base}/health`)
    const body = (await health.json()) as { status: string; services: Record<string, { status: string }> }
    expect(health.status, JSON.stringify(body)).toBe(200)
    expect(Object.values(body.services).every((service) => service.status === 'ok')).toBe(true)
    expect((await fetch(`${base}/health/live`)).status).toBe(200)
    expect((await fetch(`${base}/health/ready`)).status).toBe(200)
    for (const area of ['users', 'spreadsheet', 'files', 'ai', 'vectordb']) expect((await fetch(`${base}/api/${area}/health/ready`)).status, area).toBe(200)
  })

  it('accepts a session token on every replica', async () => {
    const ada = await signUp('ada')
    const statuses = await Promise.all(Array.from({ length: 20 }, () => ada.call('GET', '/api/users/me').then((answer) => answer.status)))
    expect(statuses).toEqual(Array(20).fill(200))
  })

  it('keeps one workbook consistent whichever replica takes each edit', async () => {
    const ben = await signUp('ben')
    const created = await ben.call('POST', '/api/spreadsheet/workbooks', { name: 'Replicas' })
    expect(created.status).toBe(201)
    const id = created.json.workbookId as string
    let revision = 0
    for (let row = 1; row <= 20; row++) {
      const edit = await ben.call('POST', '/api/spreadsheet/update-cell', { workbookId: id, sheetName: 'Sheet1', cellAddress: `A${row}`, value: row })
      expect(edit.status, JSON.stringify(edit.json)).toBe(200)
      expect(edit.json.revision).toBeGreaterThan(revision)
      revision = edit.json.revision
    }
    const total = await ben.call('POST', '/api/spreadsheet/update-cell', { workbookId: id, sheetName: 'Sheet1', cellAddress: 'B1', formula: '=SUM(A1:A20)' })
    expect(total.json.changedCells.find((cell: { address: string }) => cell.address === 'B1').value).toBe(210)
    const reads = await Promise.all(Array.from({ length: 10 }, () => ben.call('GET', `/api/spreadsheet/workbook/${id}/cells?sheet=Sheet1`)))
    for (const read of reads) expect(read.json.workbook.sheets[0].cells.B1.value).toBe(210)
  })

  it('imports an uploaded csv through the queue and a files worker', async () => {
    const cy = await signUp('cy')
    const form = new FormData()
    form.append('name', 'Queued import')
    form.append('file', new Blob(['item,amount\nrent,1200\nfood,300\n']), 'budget.csv')
    const upload = await fetch(`${base}/api/spreadsheet/upload-excel`, { method: 'POST', headers: { authorization: `Bearer ${cy.token}` }, body: form })
    const answer = (await upload.json()) as { success: boolean; workbookId: string; cellCount: number }
    expect(upload.status, JSON.stringify(answer)).toBe(200)
    expect(answer).toMatchObject({ success: true, cellCount: 6 })
    const cells = await cy.call('GET', `/api/spreadsheet/workbook/${answer.workbookId}/cells`)
    expect(cells.json.workbook.sheets[0].cells.B2.value).toBe(1200)
    const files = await cy.call('GET', '/api/files/list')
    expect(JSON.stringify(files.json)).toContain('budget.csv')
  })

  it('answers 413 for an oversized body behind the proxy, and sends the security headers', async () => {
    const dee = await signUp('dee')
    const tooLarge = await fetch(`${base}/api/ai/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${dee.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'x'.repeat(11 * 1024 * 1024) }),
    })
    expect(tooLarge.status).toBe(413)
    for (const path of ['/', '/api/users/health']) {
      const answer = await fetch(`${base}${path}`)
      expect(answer.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'")
      expect(answer.headers.get('x-content-type-options'), path).toBe('nosniff')
    }
  })
})
