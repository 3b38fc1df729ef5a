import { Readable } from 'node:stream'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SERVICE_AREAS, type ServiceArea } from '@finsheet/contracts'
import { ensureSigningKeys, LocalTokenIssuer, LocalTokenVerifier, type ServiceApp } from '@finsheet/platform'
import { startRedisServer } from '@finsheet/platform/testing'
import { buildGatewayApp } from './app.js'
import { loadGatewayConfig } from './config.js'
import { createGatewayService } from './service.js'

const root = mkdtempSync(join(tmpdir(), 'finsheet-gateway-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** A real HTTP upstream that counts what reaches it, to prove what the gateway stops. */
async function countingUpstream(): Promise<{ url: string; seen: IncomingMessage[]; server: Server }> {
  const seen: IncomingMessage[] = []
  const server = createServer((request, response) => {
    seen.push(request)
    request.resume()
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ path: request.url, requestId: request.headers['x-request-id'], forwardedFor: request.headers['x-forwarded-for'] }))
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
      uploadBodyLimitBytes: 8192,
      corsOrigins: ['http://localhost:5173'],
      webRoot,
      trustProxy: ['loopback'],
    })
    await gateway.ready()
  })
  afterAll(async () => {
    await gateway?.close()
    await new Promise((resolve) => upstream?.server.close(resolve))
  })

  it('checks the token before proxying: a refused request never reaches the service', async () => {
    const before = upstream.seen.length
    const refused = await gateway.inject({ method: 'GET', url: '/api/spreadsheet/workbooks', remoteAddress: '198.51.100.1' })
    expect(refused.statusCode).toBe(401)
    expect(upstream.seen.length).toBe(before)
    const passed = await gateway.inject({ method: 'GET', url: '/api/spreadsheet/workbooks?limit=2', headers: { authorization: `Bearer ${otherToken}` } })
    expect(passed.statusCode).toBe(200)
    // The prefix is stripped, and the request id and the client's address travel along.
    expect(passed.json()).toEqual({ path: '/workbooks?limit=2', requestId: passed.headers['x-request-id'], forwardedFor: '127.0.0.1' })
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
    const remoteAddress = '198.51.100.2'
    const home = await gateway.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' }, remoteAddress })
    expect(home.body).toContain('Finsheet app')
    expect((await gateway.inject({ method: 'GET', url: '/assets/app.js', remoteAddress })).body).toBe('console.log("app")')
    const clientRoute = await gateway.inject({ method: 'GET', url: '/version-control', headers: { accept: 'text/html,application/xhtml+xml' }, remoteAddress })
    expect(clientRoute.statusCode).toBe(200)
    expect(clientRoute.body).toContain('Finsheet app')
    const missingAsset = await gateway.inject({ method: 'GET', url: '/assets/missing.js', headers: { accept: '*/*' }, remoteAddress })
    expect(missingAsset.statusCode).toBe(404)
    expect(missingAsset.json().error.code).toBe('ROUTE_NOT_FOUND')
  })

  it('reports a service that is down on /health and through its area, while staying live and ready itself', async () => {
    const remoteAddress = '198.51.100.3'
    const health = await gateway.inject({ method: 'GET', url: '/health', remoteAddress })
    expect(health.statusCode).toBe(503)
    expect(health.json().status).toBe('degraded')
    expect(health.json().services.vectordb).toMatchObject({ status: 'down', error: 'unreachable' })
    // The counting upstream answers /health with something other than a health report.
    expect(health.json().services.users).toMatchObject({ status: 'down', error: 'answered something other than a health report' })
    const live = await gateway.inject({ method: 'GET', url: '/health/live', remoteAddress })
    expect(live.statusCode).toBe(200)
    expect(live.json()).toMatchObject({ status: 'ok', service: 'gateway' })
    const ready = await gateway.inject({ method: 'GET', url: '/health/ready', remoteAddress })
    expect(ready.statusCode).toBe(200)
    expect(ready.json()).toMatchObject({ status: 'ok', service: 'gateway', adapters: [] })
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

describe('gateway transport security', () => {
  let gateway: ServiceApp
  let upstream: Awaited<ReturnType<typeof countingUpstream>>
  let token: string
  const webRoot = join(root, 'web-dist-headers')

  beforeAll(async () => {
    const dataDir = join(root, 'transport')
    token = await new LocalTokenIssuer(await ensureSigningKeys(dataDir), { issuer: 'finsheet-users', audience: 'finsheet', sessionTtlSeconds: 600 }).issueSessionToken({
      uid: 'u9',
      email: null,
      name: null,
      anonymous: false,
    })
    mkdirSync(join(webRoot, 'assets'), { recursive: true })
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>Finsheet app</title><script type="module" src="/assets/app.js"></script>')
    writeFileSync(join(webRoot, 'assets', 'app.js'), 'console.log("app")')
    upstream = await countingUpstream()
    gateway = await buildGatewayApp({
      services: Object.fromEntries(SERVICE_AREAS.map((area) => [area, upstream.url])) as Record<ServiceArea, string>,
      verifier: new LocalTokenVerifier({ dataDir }, { issuer: 'finsheet-users', audience: 'finsheet' }),
      rateLimit: { max: 5, timeWindowMs: 60_000 },
      bodyLimitBytes: 2048,
      webRoot,
      trustProxy: ['loopback'],
    })
    await gateway.ready()
  })
  afterAll(async () => {
    await gateway?.close()
    await new Promise((resolve) => upstream?.server.close(resolve))
  })

  it('sends security headers on pages, assets, API answers and refusals: a CSP without inline script, nosniff, no framing, no referrer', async () => {
    const answers = [
      await gateway.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' }, remoteAddress: '192.0.2.1' }),
      await gateway.inject({ method: 'GET', url: '/assets/app.js', remoteAddress: '192.0.2.1' }),
      await gateway.inject({ method: 'GET', url: '/api/files/list', headers: { authorization: `Bearer ${token}` } }),
      await gateway.inject({ method: 'GET', url: '/api/files/list', remoteAddress: '192.0.2.1' }),
    ]
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 401])
    for (const answer of answers) {
      const policy = String(answer.headers['content-security-policy'])
      expect(policy).toContain("script-src 'self'")
      expect(policy).not.toContain('unsafe-inline')
      expect(policy).not.toContain('unsafe-eval')
      expect(policy).toContain("frame-ancestors 'none'")
      expect(policy).toContain("object-src 'none'")
      expect(answer.headers['x-content-type-options']).toBe('nosniff')
      expect(answer.headers['x-frame-options']).toBe('DENY')
      expect(answer.headers['referrer-policy']).toBe('no-referrer')
    }
  })

  it('counts requests with a bad token against their address, so guessing tokens is rate-limited too', async () => {
    const guess = (address: string) => gateway.inject({ method: 'GET', url: '/api/files/list', headers: { authorization: 'Bearer guessed.token.value', 'x-forwarded-for': address } })
    const statuses: number[] = []
    for (let i = 0; i < 7; i++) statuses.push((await guess('203.0.113.50')).statusCode)
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429])
    const limited = await guess('203.0.113.50')
    expect(limited.json().error.code).toBe('RATE_LIMITED')
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    // Another client behind the same proxy has its own count.
    expect((await guess('203.0.113.51')).statusCode).toBe(401)
  })

  it("passes the client's address to the service, and drops an address chain sent by anyone but the trusted proxy", async () => {
    const viaProxy = await gateway.inject({ method: 'GET', url: '/api/files/list', headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '203.0.113.9' } })
    expect(viaProxy.json().forwardedFor).toBe('203.0.113.9')
    const direct = await gateway.inject({ method: 'GET', url: '/api/files/list', headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '203.0.113.9' }, remoteAddress: '198.51.100.77' })
    expect(direct.json().forwardedFor).toBe('198.51.100.77')
  })

  it('answers 413 with the connection closed for a declared or a chunked body past the limit', async () => {
    const declared = await gateway.inject({ method: 'POST', url: '/api/ai/chat', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: 'x'.repeat(4000) })
    expect(declared.statusCode).toBe(413)
    expect(declared.headers.connection).toBe('close')
    const chunked = await gateway.inject({
      method: 'POST',
      url: '/api/ai/chat',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked', expect: '100-continue' },
      payload: Readable.from([Buffer.alloc(1500, 32), Buffer.alloc(1500, 32)]),
    })
    expect(chunked.statusCode).toBe(413)
    expect(chunked.json().error).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'Request body is larger than 2048 bytes' })
    expect(chunked.headers.connection).toBe('close')
  })
})

describe('paths of one area answered by another service', () => {
  it('sends agent mode and model generation under /api/spreadsheet to the ai service, and the rest of the area to the spreadsheet service', async () => {
    const spreadsheet = await countingUpstream()
    const ai = await countingUpstream()
    const dataDir = join(root, 'rerouted')
    const issuer = new LocalTokenIssuer(await ensureSigningKeys(dataDir), { issuer: 'finsheet-users', audience: 'finsheet', sessionTtlSeconds: 600 })
    const token = await issuer.issueSessionToken({ uid: 'r1', email: null, name: null, anonymous: false })
    const services = Object.fromEntries(SERVICE_AREAS.map((area) => [area, 'http://127.0.0.1:1'])) as Record<ServiceArea, string>
    services.spreadsheet = spreadsheet.url
    services.ai = ai.url
    const gateway = await buildGatewayApp({ services, verifier: new LocalTokenVerifier({ dataDir }, { issuer: 'finsheet-users', audience: 'finsheet' }) })
    try {
      const post = async (url: string) => {
        const response = await gateway.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, payload: {} })
        return { status: response.statusCode, path: response.json().path as string }
      }
      expect(await post('/api/spreadsheet/process-action')).toEqual({ status: 200, path: '/process-action' })
      expect(await post('/api/spreadsheet/generate-financial-model')).toEqual({ status: 200, path: '/generate-financial-model' })
      expect(ai.seen.map((request) => request.headers.authorization)).toEqual([`Bearer ${token}`, `Bearer ${token}`])
      expect(await post('/api/spreadsheet/process-actions')).toEqual({ status: 200, path: '/process-actions' })
      expect(await post('/api/spreadsheet/workbooks')).toEqual({ status: 200, path: '/workbooks' })
      expect(spreadsheet.seen.map((request) => request.url)).toEqual(['/process-actions', '/workbooks'])
      expect(ai.seen).toHaveLength(2)
      // The token is checked before the request is sent on, as for every area.
      expect((await gateway.inject({ method: 'POST', url: '/api/spreadsheet/process-action', payload: {} })).statusCode).toBe(401)
      expect(ai.seen).toHaveLength(2)
    } finally {
      await gateway.close()
      await Promise.all([spreadsheet, ai].map((upstream) => new Promise((resolve) => upstream.server.close(resolve))))
    }
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
