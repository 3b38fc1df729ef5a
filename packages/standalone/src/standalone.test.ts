import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateKeyPair, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { request as httpRequest } from 'node:http'
import { INTERNAL_USER_TOKEN_PATH, SERVICE_AREAS } from '@finsheet/contracts'
import { PLACEHOLDER_PAGE } from '@finsheet/gateway-service'
import { ensureSigningKeys, loadServiceSecret, LocalTokenIssuer, signServiceToken, USER_TOKEN_AUDIENCE } from '@finsheet/platform'
import { startAllInOne, type AllInOne } from './all-in-one.js'

const root = mkdtempSync(join(tmpdir(), 'finsheet-standalone-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')

describe('the whole stack behind the gateway', () => {
  let stack: AllInOne
  beforeAll(async () => {
    stack = await startAllInOne({ port: 0, dataDir: join(root, 'stack'), logger: false, webRoot: join(root, 'no-web-build'), env: {} })
  })
  afterAll(async () => {
    await stack?.close()
  })

  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const response = await fetch(stack.url + path, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    })
    const text = await response.text()
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: response.status, headers: response.headers, text, json: (): any => JSON.parse(text) }
  }

  it('registers, logs in, loads or creates a session, saves it and reads it back', async () => {
    const registered = await call('POST', '/api/users/register', { email: 'flow@example.com', password: 'amber-otter-42', fullName: 'Flo W' })
    expect(registered.status).toBe(201)
    const login = await call('POST', '/api/users/login', { email: 'flow@example.com', password: 'amber-otter-42' })
    expect(login.status).toBe(200)
    const token = login.json().token
    const session = (await call('POST', '/api/users/spreadsheet-session/load-or-create', { uid: login.json().user.uid }, token)).json().session
    expect(session).toMatchObject({ role: 'admin', activeWorkbook: 'defaultWorkbook' })
    session.workbooks.defaultWorkbook.sheets.Sheet1.state.formulaBarValue = '=SUM(A1:A3)'
    expect((await call('POST', '/api/users/spreadsheet-session', { session }, token)).status).toBe(200)
    const read = await call('GET', '/api/users/spreadsheet-session/current', undefined, token)
    expect(read.json().session.workbooks.defaultWorkbook.sheets.Sheet1.state.formulaBarValue).toBe('=SUM(A1:A3)')
    expect(read.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('lets the anonymous sign-up and token exchange through without a token', async () => {
    const created = await call('POST', '/api/users/create-anonymous-user', { preferences: {} })
    expect(created.status).toBe(201)
    const exchanged = await call('POST', '/api/users/token', { customToken: created.json().customToken })
    expect(exchanged.json().user.anonymous).toBe(true)
    expect((await call('GET', '/api/users/me', undefined, exchanged.json().token)).status).toBe(200)
  })

  it('answers 401 JSON for missing, malformed, expired, wrongly signed and alg:none tokens', async () => {
    const { uid } = (await call('POST', '/api/users/register', { email: 'tok@example.com', password: 'amber-otter-42', fullName: 'T' })).json().user as { uid: string }
    const expired = await new LocalTokenIssuer(await ensureSigningKeys(stack.dataDir), {
      issuer: 'finsheet-users',
      audience: 'finsheet',
      sessionTtlSeconds: -120,
    }).issueSessionToken({ uid, email: 'tok@example.com', name: 'T', anonymous: false })
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' })
    const forged = await new SignJWT({}).setProtectedHeader({ alg: 'EdDSA' }).setSubject(uid).setIssuer('finsheet-users').setAudience('finsheet').setExpirationTime('1h').sign(privateKey)
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: uid, iss: 'finsheet-users', aud: 'finsheet', exp: Math.floor(Date.now() / 1000) + 3600 })}.`
    const cases: Array<[string | undefined, string]> = [
      [undefined, 'UNAUTHENTICATED'],
      ['Token abc', 'UNAUTHENTICATED'],
      ['Bearer not.a.jwt', 'INVALID_TOKEN'],
      [`Bearer ${expired}`, 'TOKEN_EXPIRED'],
      [`Bearer ${forged}`, 'INVALID_TOKEN'],
      [`Bearer ${none}`, 'INVALID_TOKEN'],
    ]
    for (const [authorization, code] of cases) {
      const response = await fetch(`${stack.url}/api/users/spreadsheet-session/current`, { headers: authorization ? { authorization } : {} })
      expect(response.status).toBe(401)
      expect(response.headers.get('content-type')).toMatch(/application\/json/)
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code)
    }
  })

  it('never forwards the services\' internal routes, however the path is written, even with a valid service token', async () => {
    const registered = (await call('POST', '/api/users/register', { email: 'inside@example.com', password: 'amber-otter-42', fullName: 'In Side' })).json()
    const uid = registered.user.uid as string
    const serviceToken = await signServiceToken(await loadServiceSecret({ DATA_DIR: stack.dataDir }), { service: 'files-worker', audience: USER_TOKEN_AUDIENCE, userId: uid })
    const body = JSON.stringify({ userId: uid })
    // Sent as raw request lines, so that no client resolves the dot segments or escapes first.
    const raw = (port: number, path: string, authorization: string) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', path, headers: { authorization, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
          let text = ''
          response.on('data', (chunk) => (text += chunk))
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }))
        })
        request.on('error', reject)
        request.end(body)
      })
    // The route works for a service that calls the users service directly...
    const usersPort = Number(new URL(stack.services.users).port)
    const direct = await raw(usersPort, INTERNAL_USER_TOKEN_PATH, `Bearer ${serviceToken}`)
    expect(direct.status).toBe(200)
    // ...and through the gateway it does not exist, whichever token comes along.
    for (const path of [
      `/api/users${INTERNAL_USER_TOKEN_PATH}`,
      '/api/users/INTERNAL/user-token',
      '/api/users/%69nternal/user-token',
      '/api/users/%2569nternal/user-token',
      '/api/users//internal/user-token',
      '/api/users/x/../internal/user-token',
      '/api/users/%2e%2e/users/internal/user-token',
      '/api/files/internal/anything',
    ]) {
      for (const authorization of [`Bearer ${serviceToken}`, `Bearer ${registered.token}`]) {
        const answer = await raw(stack.port, path, authorization)
        expect(answer.status, path).toBe(404)
        expect(answer.text).not.toMatch(/"token"/)
      }
    }
  })


  it('keeps health, status and docs of every area open', async () => {
    for (const area of SERVICE_AREAS) {
      expect((await call('GET', `/api/${area}/health`)).json()).toMatchObject({ status: 'ok', service: area })
      expect((await call('GET', `/api/${area}/status`)).json()).toMatchObject({ service: area, status: 'ok' })
      const docs = await call('GET', `/api/${area}/docs/json`)
      expect(docs.status).toBe(200)
      expect(docs.json().servers).toEqual([{ url: `/api/${area}` }])
    }
    expect((await call('GET', '/api/spreadsheet/workbooks')).status).toBe(401)
  })

  it('reports every service on GET /health', async () => {
    const health = await call('GET', '/health')
    expect(health.status).toBe(200)
    expect(health.json()).toMatchObject({ status: 'ok', service: 'gateway' })
    expect(Object.keys(health.json().services).sort()).toEqual([...SERVICE_AREAS].sort())
    for (const area of SERVICE_AREAS) expect(health.json().services[area].status).toBe('ok')
  })

  it('answers unknown routes with 404 JSON, under /api and elsewhere', async () => {
    const unknownArea = await call('GET', '/api/nope/things')
    expect(unknownArea.status).toBe(404)
    expect(unknownArea.json().error.code).toBe('ROUTE_NOT_FOUND')
    const { token } = (await call('POST', '/api/users/register', { email: 'nf@example.com', password: 'amber-otter-42', fullName: 'N' })).json() as { token: string }
    const unknownRoute = await call('GET', '/api/users/nothing-here', undefined, token)
    expect(unknownRoute.status).toBe(404)
    expect(unknownRoute.json()).toEqual({ error: { code: 'ROUTE_NOT_FOUND', message: 'Route GET /nothing-here not found' } })
    expect((await call('GET', '/favicon-nope.png')).json().error.code).toBe('ROUTE_NOT_FOUND')
  })

  it('answers malformed JSON through the gateway with 400', async () => {
    const response = await fetch(`${stack.url}/api/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email": ' })
    expect(response.status).toBe(400)
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('MALFORMED_JSON')
  })

  it('serves a placeholder page while there is no web build', async () => {
    const page = await fetch(`${stack.url}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/text\/html/)
    expect(await page.text()).toBe(PLACEHOLDER_PAGE)
  })
})
