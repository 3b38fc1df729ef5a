import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BLANK_SHEET_COLUMNS } from '@finsheet/contracts'
import { LocalTokenVerifier, type ServiceApp } from '@finsheet/platform'
import { loadUsersConfig } from './config.js'
import { createUsersService } from './service.js'

const dir = mkdtempSync(join(tmpdir(), 'finsheet-users-'))
let app: ServiceApp

beforeAll(async () => {
  app = await createUsersService(loadUsersConfig({ DATA_DIR: dir }))
})
afterAll(async () => {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
})

const post = (url: string, payload: unknown, token?: string) =>
  app.inject({ method: 'POST', url, payload: payload as object, headers: token ? { authorization: `Bearer ${token}` } : {} })
const get = (url: string, token?: string) => app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} })

async function register(email: string, fullName = 'Ada Lovelace') {
  const response = await post('/register', { email, password: 'amber-otter-42', fullName })
  expect(response.statusCode).toBe(201)
  return response.json() as { token: string; user: { uid: string; email: string; name: string; anonymous: boolean } }
}

describe('register and login', () => {
  it('registers, answers a session token that works at once, and keeps the full name', async () => {
    const { token, user } = await register('Ada@Example.com')
    expect(user).toEqual({ uid: expect.any(String), email: 'ada@example.com', name: 'Ada Lovelace', anonymous: false })
    const me = await get('/me', token)
    expect(me.statusCode).toBe(200)
    expect(me.json()).toMatchObject({ uid: user.uid, email: 'ada@example.com', fullName: 'Ada Lovelace', anonymous: false, preferences: {} })
  })

  it('answers 409 for an email already registered, whatever its case', async () => {
    await register('grace@example.com')
    const again = await post('/register', { email: 'GRACE@example.com', password: 'violet-heron-7', fullName: 'Other' })
    expect(again.statusCode).toBe(409)
    expect(again.json()).toEqual({ error: { code: 'EMAIL_IN_USE', message: 'An account with this email already exists' } })
  })

  it('refuses short passwords, missing fields and bad emails with the spec texts', async () => {
    const short = await post('/register', { email: 'x@example.com', password: '12345', fullName: 'X' })
    expect(short.statusCode).toBe(400)
    expect(short.json().error.message).toBe('Password must be at least 6 characters')
    for (const body of [{ email: 'x@example.com', password: 'amber-otter-42' }, { email: '  ', password: 'amber-otter-42', fullName: 'X' }, {}]) {
      const missing = await post('/register', body)
      expect(missing.statusCode).toBe(400)
      expect(missing.json().error.message).toBe('Please fill all required fields')
    }
    expect((await post('/register', { email: 'not-an-email', password: 'amber-otter-42', fullName: 'X' })).json().error.code).toBe('INVALID_EMAIL')
    expect((await post('/register', { email: 'x@example.com', password: 123456, fullName: 'X' })).statusCode).toBe(400)
    expect((await post('/login', { email: 'x@example.com', password: 'amber-otter-42' })).statusCode).toBe(401)
  })

  it('logs in with the password and refuses a wrong one or an unknown email alike', async () => {
    const { user } = await register('linus@example.com', 'Linus')
    const login = await post('/login', { email: ' LINUS@example.com ', password: 'amber-otter-42' })
    expect(login.statusCode).toBe(200)
    expect(login.json().user).toEqual({ uid: user.uid, email: 'linus@example.com', name: 'Linus', anonymous: false })
    expect((await get('/me', login.json().token)).json().uid).toBe(user.uid)
    const wrong = await post('/login', { email: 'linus@example.com', password: 'secret2' })
    const unknown = await post('/login', { email: 'nobody@example.com', password: 'amber-otter-42' })
    expect(wrong.statusCode).toBe(401)
    expect(unknown.json()).toEqual(wrong.json())
    expect(wrong.json()).toEqual({ error: { code: 'INVALID_CREDENTIALS', message: 'Invalid email or password' } })
  })

  it('refuses a common or quickly guessed password, saying why, and stores no account', async () => {
    for (const password of ['123456', 'password1', 'qwerty123', 'secret1', 'abcdefgh']) {
      const weak = await post('/register', { email: 'weak@example.com', password, fullName: 'Wes Weak' })
      expect(weak.statusCode, password).toBe(400)
      expect(weak.json().error.code).toBe('PASSWORD_TOO_WEAK')
      expect(weak.json().error.message).toMatch(/^This password is too easy to guess\. \S/)
    }
    // A password made of the user's own name is as easy to guess.
    const own = await post('/register', { email: 'wes.weak@example.com', password: 'WesWeak1', fullName: 'Wes Weak' })
    expect(own.json().error.code).toBe('PASSWORD_TOO_WEAK')
    expect((await post('/login', { email: 'weak@example.com', password: '123456' })).statusCode).toBe(401)
    expect((await post('/register', { email: 'weak@example.com', password: 'amber-otter-42', fullName: 'Wes Weak' })).statusCode).toBe(201)
  })

  it('locks an account out after 5 wrong passwords, refusing even the right one, with a notice and Retry-After', async () => {
    await register('locked@example.com', 'Lou Locked')
    const from = (address: string, password: string) =>
      app.inject({ method: 'POST', url: '/login', payload: { email: 'locked@example.com', password }, headers: { 'x-forwarded-for': address } })
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) statuses.push((await from(`203.0.113.${i}`, `wrong-guess-${i}`)).statusCode)
    expect(statuses).toEqual([401, 401, 401, 401, 429])
    const right = await from('198.51.100.20', 'amber-otter-42')
    expect(right.statusCode).toBe(429)
    expect(right.json()).toEqual({ error: { code: 'SIGN_IN_LOCKED', message: 'Too many failed sign-in attempts. Try again in 30 seconds.' } })
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(25)
    expect(Number(right.headers['retry-after'])).toBeLessThanOrEqual(30)
  })

  it("locks out an address that guesses across accounts, keyed on the gateway's X-Forwarded-For", async () => {
    await register('spray@example.com', 'Sam Spray')
    const statuses: number[] = []
    for (let i = 0; i < 21; i++) {
      const response = await app.inject({ method: 'POST', url: '/login', payload: { email: `victim${i}@example.com`, password: 'guess-123' }, headers: { 'x-forwarded-for': '192.0.2.66' } })
      statuses.push(response.statusCode)
    }
    expect(statuses.slice(0, 19).every((status) => status === 401)).toBe(true)
    expect(statuses.slice(19)).toEqual([429, 429])
    const fromSprayer = await app.inject({ method: 'POST', url: '/login', payload: { email: 'spray@example.com', password: 'amber-otter-42' }, headers: { 'x-forwarded-for': '192.0.2.66' } })
    expect(fromSprayer.json().error.code).toBe('SIGN_IN_LOCKED')
    const elsewhere = await app.inject({ method: 'POST', url: '/login', payload: { email: 'spray@example.com', password: 'amber-otter-42' }, headers: { 'x-forwarded-for': '192.0.2.67' } })
    expect(elsewhere.statusCode).toBe(200)
  })

  it('answers malformed JSON with 400 and a message', async () => {
    const response = await app.inject({ method: 'POST', url: '/login', headers: { 'content-type': 'application/json' }, payload: '{"email":' })
    expect(response.statusCode).toBe(400)
    expect(response.json().error.code).toBe('MALFORMED_JSON')
  })
})

describe('anonymous users and the token exchange', () => {
  it('creates an anonymous user whose custom token is exchanged once at /token for a session token', async () => {
    const created = await post('/create-anonymous-user', { preferences: { theme: 'dark', currency: 'USD' } })
    expect(created.statusCode).toBe(201)
    const { uid, customToken } = created.json()
    // The custom token is not a bearer token.
    expect((await get('/me', customToken)).statusCode).toBe(401)
    const exchanged = await post('/token', { customToken })
    expect(exchanged.statusCode).toBe(200)
    expect(exchanged.json().user).toEqual({ uid, email: null, name: null, anonymous: true })
    const me = await get('/me', exchanged.json().token)
    expect(me.json()).toMatchObject({ uid, anonymous: true, preferences: { theme: 'dark', currency: 'USD' } })
  })

  it('accepts an empty body, and refuses a forged or session token at /token', async () => {
    expect((await app.inject({ method: 'POST', url: '/create-anonymous-user' })).statusCode).toBe(201)
    const { token } = await register('eve@example.com')
    expect((await post('/token', { customToken: token })).json().error.code).toBe('INVALID_CUSTOM_TOKEN')
    expect((await post('/token', { customToken: 'abc.def.ghi' })).statusCode).toBe(401)
    expect((await post('/token', {})).statusCode).toBe(400)
  })

  it('publishes the public signing key, which a service without DATA_DIR verifies tokens with', async () => {
    const response = await get('/.well-known/jwks.json')
    expect(response.json().keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' })
    expect(response.json().keys[0].d).toBeUndefined()
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const remote = new LocalTokenVerifier({ jwksUrl: `${address}/.well-known/jwks.json` }, { issuer: 'finsheet-users', audience: 'finsheet' })
    const { token, user } = await register('remote@example.com', 'Remo Te')
    expect(await remote.verify(token)).toEqual(user)
    await expect(remote.verify(token.slice(0, -4) + 'AAAA')).rejects.toMatchObject({ statusCode: 401 })
  })
})

describe('spreadsheet sessions', () => {
  it('creates a new session as admin with defaultWorkbook and a blank 30 × 23 Sheet1, then loads the same one', async () => {
    const { token, user } = await register('sessions@example.com', 'Sam')
    expect((await get('/spreadsheet-session/current', token)).statusCode).toBe(404)
    const created = await post('/spreadsheet-session/load-or-create', { uid: user.uid, name: 'Sam', email: 'sessions@example.com' }, token)
    expect(created.statusCode).toBe(200)
    const session = created.json().session
    expect(session).toMatchObject({ id: user.uid, name: 'Sam', email: 'sessions@example.com', role: 'admin', activeWorkbook: 'defaultWorkbook' })
    const workbook = session.workbooks.defaultWorkbook
    expect(workbook).toMatchObject({ activeSheet: 'Sheet1', sheetOrder: ['Sheet1'], recentlyOpened: ['Sheet1'], totalSheets: 1 })
    const sheet = workbook.sheets.Sheet1
    expect(sheet.state.rows).toHaveLength(30)
    expect(Object.keys(sheet.state.rows[0]).filter((key) => key !== 'rowIndex')).toEqual(BLANK_SHEET_COLUMNS)
    expect(BLANK_SHEET_COLUMNS.at(-1)).toBe('W')
    expect(sheet.state.activeView).toBe('spreadsheet')
    expect(typeof sheet.lastModified).toBe('string')
    const again = await post('/spreadsheet-session/load-or-create', {}, token)
    expect(again.json().session).toEqual(session)
    expect((await get('/spreadsheet-session/current', token)).json().session).toEqual(session)
  })

  it('saves a session, drops unknown fields at every level, and reads it back', async () => {
    const { token, user } = await register('saver@example.com')
    const loaded = (await post('/spreadsheet-session/load-or-create', {}, token)).json().session
    loaded.workbooks.defaultWorkbook.sheets.Sheet1.state.cells = { A1: { value: 42, formula: null, sheetName: 'Sheet1', row: 0, column: 'A', injected: 'x' } }
    loaded.workbooks.defaultWorkbook.sheets.Sheet1.state.rows[0].A = 42
    loaded.workbooks.defaultWorkbook.sheets.Sheet1.state.rows[0].notAColumn = 'dropped'
    loaded.workbooks.defaultWorkbook.sheets.Sheet1.state.columnWidths = { '0': 160 }
    loaded.workbooks.defaultWorkbook.sheets.Sheet1.state.merges = ['A1:B1']
    loaded.workbooks.defaultWorkbook.sheets.Sheet2 = { state: { rows: [] }, lastModified: Date.now() }
    loaded.workbooks.defaultWorkbook.sheetOrder = ['Sheet1', 'Sheet2']
    loaded.workbooks.defaultWorkbook.totalSheets = 2
    loaded.workbooks.defaultWorkbook.activeSheet = 'Sheet2'
    loaded.isAdmin = true
    loaded.workbooks.defaultWorkbook.secret = 'dropped'
    const saved = await post('/spreadsheet-session', { session: loaded, extra: 1 }, token)
    expect(saved.statusCode).toBe(200)
    const stored = (await get(`/spreadsheet-session?userId=${user.uid}`, token)).json().session
    expect(stored.isAdmin).toBeUndefined()
    expect(stored.workbooks.defaultWorkbook.secret).toBeUndefined()
    expect(stored.workbooks.defaultWorkbook.activeSheet).toBe('Sheet2')
    expect(stored.workbooks.defaultWorkbook.sheets.Sheet1.state.cells.A1).toEqual({ value: 42, formula: null, sheetName: 'Sheet1', row: 0, column: 'A' })
    expect(stored.workbooks.defaultWorkbook.sheets.Sheet1.state.rows[0].A).toBe(42)
    expect(stored.workbooks.defaultWorkbook.sheets.Sheet1.state.rows[0].notAColumn).toBeUndefined()
    expect(stored.workbooks.defaultWorkbook.sheets.Sheet1.state.columnWidths).toEqual({ '0': 160 })
    expect(stored.workbooks.defaultWorkbook.sheets.Sheet1.state.merges).toEqual(['A1:B1'])
    expect(stored.role).toBe('admin')
  })

  it("answers 400 'Missing user ID' for a session without a user id, and stores nothing", async () => {
    const { token } = await register('nouid@example.com')
    const response = await post('/spreadsheet-session', { session: { role: 'editor', workbooks: {} } }, token)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error: { code: 'MISSING_USER_ID', message: 'Missing user ID' } })
    expect((await get('/spreadsheet-session/current', token)).statusCode).toBe(404)
  })

  it("never lets user A read or write user B's session: 404 as for none", async () => {
    const a = await register('a@example.com')
    const b = await register('b@example.com')
    await post('/spreadsheet-session/load-or-create', {}, b.token)
    expect((await get(`/spreadsheet-session?userId=${b.user.uid}`, a.token)).statusCode).toBe(404)
    expect((await post('/spreadsheet-session/load-or-create', { uid: b.user.uid }, a.token)).statusCode).toBe(404)
    const overwrite = await post('/spreadsheet-session', { session: { id: b.user.uid, role: 'editor', workbooks: {} } }, a.token)
    expect(overwrite.statusCode).toBe(404)
    expect(overwrite.json().error.message).toBe('Session not found')
    expect((await get('/spreadsheet-session/current', b.token)).json().session.role).toBe('admin')
    expect((await get('/spreadsheet-session/current', a.token)).statusCode).toBe(404)
  })

  it('clearing saves an empty session that keeps the role and gets the default workbook back', async () => {
    const { token, user } = await register('clear@example.com')
    await post('/spreadsheet-session/load-or-create', {}, token)
    const cleared = await post('/spreadsheet-session', { userId: user.uid, session: { activeWorkbook: 'gone', workbooks: {} } }, token)
    expect(cleared.json().session).toMatchObject({ id: user.uid, role: 'admin', activeWorkbook: 'defaultWorkbook' })
    expect(Object.keys(cleared.json().session.workbooks)).toEqual(['defaultWorkbook'])
  })

  it('asks for a token on every session route', async () => {
    expect((await get('/spreadsheet-session/current')).statusCode).toBe(401)
    expect((await post('/spreadsheet-session/load-or-create', {})).statusCode).toBe(401)
    expect((await post('/spreadsheet-session', { session: {} })).statusCode).toBe(401)
    expect((await get('/spreadsheet-session')).statusCode).toBe(401)
    expect((await get('/me')).statusCode).toBe(401)
  })
})

describe('service endpoints', () => {
  it('documents every route, the token exchange included, under /api/users', async () => {
    const docs = (await get('/docs/json')).json()
    expect(docs.servers).toEqual([{ url: '/api/users' }])
    for (const path of ['/register', '/login', '/create-anonymous-user', '/token', '/spreadsheet-session/load-or-create', '/spreadsheet-session/current', '/spreadsheet-session']) {
      expect(Object.keys(docs.paths)).toContain(path)
    }
    expect(docs.paths['/token'].post.summary).toMatch(/Exchange a custom token/)
  })

  it('reports its adapters on /status', async () => {
    const status = (await get('/status')).json()
    expect(status.adapters).toEqual([
      { port: 'documents', adapter: 'sqlite', ok: true },
      { port: 'identity', adapter: 'local', ok: true },
    ])
  })
})
