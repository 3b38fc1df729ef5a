import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ServiceApp } from '@finsheet/platform'
import { loadUsersConfig } from '../config.js'
import { createUsersService } from '../service.js'

const dir = mkdtempSync(join(tmpdir(), 'finsheet-support-'))
let app: ServiceApp

beforeAll(async () => {
  app = await createUsersService(loadUsersConfig({ DATA_DIR: dir, SUPPORT_ADMIN_EMAILS: ' Helpdesk@Example.com , other@example.com' }))
})
afterAll(async () => {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
})

const call = (method: 'GET' | 'POST', url: string, token: string, payload?: unknown) =>
  app.inject({ method, url, payload: payload as object, headers: { authorization: `Bearer ${token}` } })

async function tokenOf(email: string): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/register', payload: { email, password: 'amber-otter-42', fullName: 'Someone' } })
  expect(response.statusCode).toBe(201)
  return response.json().token
}

const request = { name: 'Ada Lovelace', email: 'ada@example.com', category: 'Technical Issue', description: 'The grid froze after I pasted 10,000 rows.' }

describe('Help & Support requests', () => {
  it('stores a request from a signed-in user and lists it, newest first, for a support admin only', async () => {
    const ada = await tokenOf('ada.support@example.com')
    const admin = await tokenOf('helpdesk@example.com')
    const first = await call('POST', '/support-requests', ada, request)
    expect(first.statusCode).toBe(201)
    expect(first.json().request).toMatchObject({ ...request, id: expect.any(String), uid: expect.any(String), createdAt: expect.any(String) })
    const second = await call('POST', '/support-requests', ada, { ...request, category: 'Billing Query', description: '  Invoice missing  ' })
    expect(second.json().request.description).toBe('Invoice missing')

    const listed = await call('GET', '/support-requests', admin)
    expect(listed.statusCode).toBe(200)
    expect(listed.json().requests.map((r: { category: string }) => r.category).slice(0, 2)).toEqual(['Billing Query', 'Technical Issue'])

    const refused = await call('GET', '/support-requests', ada)
    expect(refused.statusCode).toBe(403)
    expect(refused.json().error.code).toBe('NOT_SUPPORT_ADMIN')
  })

  it('refuses a bad request with 400 naming the field, and stores nothing', async () => {
    const bob = await tokenOf('bob.support@example.com')
    const admin = await tokenOf('other@example.com')
    const before = (await call('GET', '/support-requests', admin)).json().requests.length
    const cases: [Record<string, unknown>, string][] = [
      [{ ...request, email: 'not-an-email' }, 'email'],
      [{ ...request, category: 'Complaint' }, 'category'],
      [{ ...request, description: '   ' }, 'description'],
      [{ ...request, name: '' }, 'name'],
      [{ name: 'Bob', email: 'bob@example.com', category: 'Other' }, 'description'],
    ]
    for (const [body, field] of cases) {
      const answer = await call('POST', '/support-requests', bob, body)
      expect(answer.statusCode, field).toBe(400)
      expect(answer.json().error.message, field).toContain(field)
    }
    expect((await call('GET', '/support-requests', admin)).json().requests.length).toBe(before)
  })

  it('needs a signed-in user', async () => {
    expect((await app.inject({ method: 'POST', url: '/support-requests', payload: request })).statusCode).toBe(401)
  })
})
