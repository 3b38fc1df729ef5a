import { Readable } from 'node:stream'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateKeyPair, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SERVICE_AREAS, type ServiceArea } from '@finsheet/contracts'
import { ensureSigningKeys, LocalTokenIssuer, LocalTokenVerifier, type ServiceApp } from '@finsheet/platform'
import { startRedisServer } from '@finsheet/platform/testing'
import { startAllInOne, type AllInOne } from './all-in-one.js'
import { buildGatewayApp } from './app.js'
import { loadGatewayConfig } from './config.js'
import { createGatewayService } from './service.js'
import { PLACEHOLDER_PAGE } from './web.js'

const root = mkdtempSync(join(tmpdir(), 'finsheet-gateway-'))
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

/** A real HTTP upstream that counts what reaches it, to prove what the gateway stops. */
async function countingUpstream(): Promise<{ url: string; seen: IncomingMessage[]; server: Server }> {
  const seen: IncomingMessage[] = []
  const server = createServer((request, response) => {
    seen.push(request)
    request.resume()
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ path: request.url, requestId: request.headers['x-request-id'] }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen, server }
}

describe('gateway limits and policies', () => {
  let gateway: ServiceApp
  let upstream: Awaited<ReturnType<typeof countingUpstream>>
  let token: string
  let otherToken: string
  /** A third user, for requests that must not use up the others' rate limit. */
  let streamerToken: string
  const webRoot = join(root, 'web-dist')

  beforeAll(async () => {
    const dataDir = join(root, 'policies')
    const issuer = new LocalTokenIssuer(await ensureSigningKeys(dataDir), { issuer: 'finsheet-users', audience: 'finsheet', sessionTtlSeconds: 600 })
    token = await issuer.issueSessionToken({ uid: 'u1', email: null, name: null, anonymous: false })
    otherToken = await issuer.issueSessionToken({ uid: 'u2', email: null, name: null, anonymous: false })
    streamerToken = await issuer.issueSessionToken({ uid: 'u3', email: null, name: null, anonymous: false })
    mkdirSync(join(webRoot, 'assets'), { recursive: true })
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>Finsheet app</title>')
    writeFileSync(join(webRoot, 'assets', 'app.js'), 'console.log("app")')
    upstream = await countingUpstream()
    const services = Object.fromEntries(SERVICE_AREAS.map((area) => [area, upstream.url])) as Record<ServiceArea, string>
    services.vectordb = 'http://127.0.0.1:1'
    gateway = await buildGatewayApp({
      services,
      verifier: new LocalTokenVerifier({ dataDir }, { issuer: 'finsheet-users', audience: 'finsheet' }),
      rateLimit: { max: 5, timeWindowMs: 60_000 },
      bodyLimitBytes: 2048,
      uploadLimitBytes: 8192,
      corsOrigins: ['http://localhost:5173'],
      webRoot,
    })
    await gateway.ready()
  })
  afterAll(async () => {
    await gateway?.close()
    await new Promise((resolve) => upstream?.server.close(resolve))
  })

  it('checks the token before proxying: a refused request never reaches the service', async () => {
    const before = upstream.seen.length
    const refused = await gateway.inject({ method: 'GET', url: '/api/spreadsheet/workbooks' })
    expect(refused.statusCode).toBe(401)
    expect(upstream.seen.length).toBe(before)
    const passed = await gateway.inject({ method: 'GET', url: '/api/spreadsheet/workbooks?limit=2', headers: { authorization: `Bearer ${otherToken}` } })
    expect(passed.statusCode).toBe(200)
    // The prefix is stripped and the request id travels along.
    expect(passed.json()).toEqual({ path: '/workbooks?limit=2', requestId: passed.headers['x-request-id'] })
    expect(upstream.seen.length).toBe(before + 1)
    expect(upstream.seen.at(-1)!.headers.authorization).toBe(`Bearer ${otherToken}`)
  })

  it('limits body sizes with 413, and allows more on upload routes', async () => {
    const before = upstream.seen.length
    const big = await gateway.inject({ method: 'POST', url: '/api/ai/chat', headers: { authorization: `Bearer ${otherToken}`, 'content-type': 'application/json' }, payload: JSON.stringify({ message: 'x'.repeat(3000) }) })
    expect(big.statusCode).toBe(413)
    expect(big.json().error.code).toBe('PAYLOAD_TOO_LARGE')
    expect(upstream.seen.length).toBe(before)
    const upload = await gateway.inject({ method: 'POST', url: '/api/files/upload', headers: { authorization: `Bearer ${otherToken}`, 'content-type': 'application/octet-stream' }, payload: Buffer.alloc(5000) })
    expect(upload.statusCode).toBe(200)
    const tooBigUpload = await gateway.inject({ method: 'POST', url: '/api/files/upload', headers: { authorization: `Bearer ${otherToken}`, 'content-type': 'application/octet-stream' }, payload: Buffer.alloc(9000) })
    expect(tooBigUpload.statusCode).toBe(413)
    // Without Content-Length the body is counted as it streams: the service never sees the excess.
    const streamed = (size: number) =>
      gateway.inject({
        method: 'POST',
        url: '/api/ai/chat',
        headers: { authorization: `Bearer ${streamerToken}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        payload: Readable.from([Buffer.alloc(size / 2, 32), Buffer.alloc(size / 2, 32)]),
      })
    const chunkedTooBig = await streamed(4000)
    expect(chunkedTooBig.statusCode).toBe(413)
    expect(chunkedTooBig.json().error.code).toBe('PAYLOAD_TOO_LARGE')
    expect((await streamed(1000)).statusCode).toBe(200)
  })

  it('rate-limits per user with 429 and Retry-After, without slowing other users', async () => {
    const ask = (bearer: string) => gateway.inject({ method: 'GET', url: '/api/files/list', headers: { authorization: `Bearer ${bearer}` } })
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) statuses.push((await ask(token)).statusCode)
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
    const limited = await ask(token)
    expect(limited.statusCode).toBe(429)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    expect(limited.json().error.code).toBe('RATE_LIMITED')
    expect((await ask(otherToken)).statusCode).toBe(200)
  })

  it('answers CORS preflights for allowed origins only', async () => {
    const allowed = await gateway.inject({ method: 'OPTIONS', url: '/api/users/login', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } })
    expect(allowed.statusCode).toBe(204)
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:5173')
    expect(allowed.headers['access-control-allow-credentials']).toBe('true')
    const other = await gateway.inject({ method: 'OPTIONS', url: '/api/users/login', headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' } })
    expect(other.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('serves the web build with index.html for client routes, and JSON 404 for the rest', async () => {
    const home = await gateway.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } })
    expect(home.body).toContain('Finsheet app')
    expect((await gateway.inject({ method: 'GET', url: '/assets/app.js' })).body).toBe('console.log("app")')
    const clientRoute = await gateway.inject({ method: 'GET', url: '/version-control', headers: { accept: 'text/html,application/xhtml+xml' } })
    expect(clientRoute.statusCode).toBe(200)
    expect(clientRoute.body).toContain('Finsheet app')
    const missingAsset = await gateway.inject({ method: 'GET', url: '/assets/missing.js', headers: { accept: '*/*' } })
    expect(missingAsset.statusCode).toBe(404)
    expect(missingAsset.json().error.code).toBe('ROUTE_NOT_FOUND')
  })

  it('reports a service that is down: /health 503, and 503 JSON through its area', async () => {
    const health = await gateway.inject({ method: 'GET', url: '/health' })
    expect(health.statusCode).toBe(503)
    expect(health.json().status).toBe('degraded')
    expect(health.json().services.vectordb).toMatchObject({ status: 'down', error: 'unreachable' })
    // Over a real socket: the request body is streamed to the upstream that refuses it.
    await gateway.listen({ port: 0, host: '127.0.0.1' })
    const { port } = gateway.server.address() as { port: number }
    const proxied = await fetch(`http://127.0.0.1:${port}/api/vectordb/search/formulas`, {
      method: 'POST',
      headers: { authorization: `Bearer ${otherToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'sum' }),
    })
    expect(proxied.status).toBe(503)
    expect(await proxied.json()).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: 'The vectordb service is unavailable' } })
  })
})

describe('gateway replicas sharing Redis', () => {
  it('count one rate limit across replicas', async () => {
    const redis = await startRedisServer()
    const upstream = await countingUpstream()
    const replicas: ServiceApp[] = []
    try {
      const dataDir = join(root, 'replicas')
      const issuer = new LocalTokenIssuer(await ensureSigningKeys(dataDir), { issuer: 'finsheet-users', audience: 'finsheet', sessionTtlSeconds: 600 })
      const token = await issuer.issueSessionToken({ uid: 'shared', email: null, name: null, anonymous: false })
      const env = {
        DATA_DIR: dataDir,
        REDIS_URL: redis.url,
        RATE_LIMIT_MAX: '4',
        ...Object.fromEntries(SERVICE_AREAS.map((area) => [`${area.toUpperCase()}_URL`, upstream.url])),
      }
      replicas.push(await createGatewayService(loadGatewayConfig(env)), await createGatewayService(loadGatewayConfig(env)))
      const statuses: number[] = []
      for (let i = 0; i < 6; i++) {
        const response = await replicas[i % 2].inject({ method: 'GET', url: '/api/files/list', headers: { authorization: `Bearer ${token}` } })
        statuses.push(response.statusCode)
      }
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429])
    } finally {
      for (const replica of replicas) await replica.close()
      await new Promise((resolve) => upstream.server.close(resolve))
      await redis.stop()
    }
  })
})
