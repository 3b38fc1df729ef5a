import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Type } from 'typebox'
import { SignJWT, generateKeyPair } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { StrictObject } from '@finsheet/contracts'
import { ensureSigningKeys } from '../auth/local-keys.js'
import { LocalTokenIssuer, LocalTokenVerifier } from '../auth/local-tokens.js'
import { currentUser } from '../auth/auth-plugin.js'
import { AppError } from '../errors/app-error.js'
import { createServiceApp, type ServiceApp } from './create-service-app.js'

const dir = mkdtempSync(join(tmpdir(), 'finsheet-kit-'))
const tokenOptions = { issuer: 'finsheet-users', audience: 'finsheet', sessionTtlSeconds: 3600 }
let app: ServiceApp
let issuer: LocalTokenIssuer
let stored: unknown[] = []
const alice = { uid: 'alice', email: 'alice@example.com', name: 'Alice', anonymous: false }

beforeAll(async () => {
  issuer = new LocalTokenIssuer(await ensureSigningKeys(dir), tokenOptions)
  app = await createServiceApp({
    name: 'kit-test',
    verifier: new LocalTokenVerifier({ dataDir: dir }, tokenOptions),
    bodyLimit: 1024,
    probes: [
      { port: 'documents', adapter: 'sqlite', check: async () => {} },
      { port: 'jobs', adapter: 'bullmq', check: async () => Promise.reject(new Error('connection refused')) },
    ],
  })
  app.post(
    '/items',
    { schema: { body: StrictObject({ name: Type.String({ minLength: 1 }), qty: Type.Integer() }) } },
    async (request) => {
      stored.push(request.body)
      return { owner: currentUser(request).uid, item: request.body }
    },
  )
  app.get('/items/:id', { schema: { params: Type.Object({ id: Type.Integer() }) } }, async (request) => {
    throw new AppError('ITEM_NOT_FOUND', 404, `Item ${request.params.id} not found`)
  })
  app.get('/boom', async () => {
    throw new Error('secret database password in stack')
  })
  app.get('/open', { config: { public: true } }, async (request) => ({ user: request.user }))
  await app.ready()
})
afterAll(async () => {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
})

const auth = async () => ({ authorization: `Bearer ${await issuer.issueSessionToken(alice)}` })

describe('service kit', () => {
  it('validates a body, drops unknown fields and passes the verified user', async () => {
    stored = []
    const response = await app.inject({ method: 'POST', url: '/items', headers: await auth(), payload: { name: 'pen', qty: 2, isAdmin: true } })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ owner: 'alice', item: { name: 'pen', qty: 2 } })
    expect(stored).toEqual([{ name: 'pen', qty: 2 }])
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('answers 400 with a message for malformed JSON and for invalid bodies, storing nothing', async () => {
    stored = []
    const malformed = await app.inject({ method: 'POST', url: '/items', headers: { ...(await auth()), 'content-type': 'application/json' }, payload: '{"name": "pen",' })
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json().error.code).toBe('MALFORMED_JSON')
    expect(malformed.json().error.message).toMatch(/^Malformed JSON in request body/)
    const invalid = await app.inject({ method: 'POST', url: '/items', headers: await auth(), payload: { name: 'pen', qty: '2' } })
    expect(invalid.statusCode).toBe(400)
    expect(invalid.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message: 'body/qty must be integer' } })
    expect(stored).toEqual([])
  })

  it('answers 413 past the body limit, and closes the connection the rest of the body may still arrive on', async () => {
    const response = await app.inject({ method: 'POST', url: '/items', headers: await auth(), payload: { name: 'x'.repeat(2000), qty: 1 } })
    expect(response.statusCode).toBe(413)
    expect(response.json().error.code).toBe('PAYLOAD_TOO_LARGE')
    expect(response.headers.connection).toBe('close')
    const fits = await app.inject({ method: 'POST', url: '/items', headers: await auth(), payload: { name: 'x', qty: 1 } })
    expect(fits.headers.connection).not.toBe('close')
  })

  it('shows AppError codes and messages, and hides 5xx details', async () => {
    const notFound = await app.inject({ method: 'GET', url: '/items/7', headers: await auth() })
    expect(notFound.statusCode).toBe(404)
    expect(notFound.json()).toEqual({ error: { code: 'ITEM_NOT_FOUND', message: 'Item 7 not found' } })
    const boom = await app.inject({ method: 'GET', url: '/boom', headers: await auth() })
    expect(boom.statusCode).toBe(500)
    expect(boom.json()).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } })
  })

  it('answers unknown routes with 404 JSON', async () => {
    const response = await app.inject({ method: 'GET', url: '/nope?x=1' })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ error: { code: 'ROUTE_NOT_FOUND', message: 'Route GET /nope not found' } })
  })

  it('rejects missing, malformed, expired, forged and alg:none tokens with 401, and ignores identity headers', async () => {
    const call = (headers: Record<string, string>) => app.inject({ method: 'POST', url: '/items', headers, payload: { name: 'a', qty: 1 } })
    const missing = await call({ 'x-user-id': 'alice' })
    expect(missing.statusCode).toBe(401)
    expect(missing.json().error).toEqual({ code: 'UNAUTHENTICATED', message: 'Missing bearer token' })
    expect((await call({ authorization: 'Basic abc' })).statusCode).toBe(401)
    expect((await call({ authorization: 'Bearer not-a-jwt' })).json().error.code).toBe('INVALID_TOKEN')

    const expiredIssuer = new LocalTokenIssuer(await ensureSigningKeys(dir), { ...tokenOptions, sessionTtlSeconds: -60 })
    const expired = await call({ authorization: `Bearer ${await expiredIssuer.issueSessionToken(alice)}` })
    expect(expired.json().error).toEqual({ code: 'TOKEN_EXPIRED', message: 'Token expired' })

    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' })
    const forged = await new SignJWT({}).setProtectedHeader({ alg: 'EdDSA' }).setSubject('alice').setIssuer('finsheet-users').setAudience('finsheet').setExpirationTime('1h').sign(privateKey)
    expect((await call({ authorization: `Bearer ${forged}` })).json().error.code).toBe('INVALID_TOKEN')

    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: 'alice', iss: 'finsheet-users', aud: 'finsheet', exp: Math.floor(Date.now() / 1000) + 3600 })}.`
    expect((await call({ authorization: `Bearer ${none}` })).statusCode).toBe(401)

    const custom = await issuer.issueCustomToken(alice)
    expect((await call({ authorization: `Bearer ${custom}` })).statusCode).toBe(401)
  })

  it('serves /health, /status with adapter probes, and /docs/json without a token', async () => {
    expect((await app.inject({ method: 'GET', url: '/health' })).json()).toMatchObject({ status: 'ok', service: 'kit-test' })
    const status = await app.inject({ method: 'GET', url: '/status' })
    expect(status.statusCode).toBe(503)
    expect(status.json().adapters).toEqual([
      { port: 'documents', adapter: 'sqlite', ok: true },
      { port: 'jobs', adapter: 'bullmq', ok: false, detail: 'connection refused' },
    ])
    const docs = await app.inject({ method: 'GET', url: '/docs/json' })
    expect(docs.statusCode).toBe(200)
    expect(docs.json().openapi).toBe('3.0.3')
    expect(Object.keys(docs.json().paths)).toContain('/items')
    expect((await app.inject({ method: 'GET', url: '/open' })).json()).toEqual({ user: null })
  })

  it('answers liveness whatever its adapters do, and readiness only when they all answer', async () => {
    const live = await app.inject({ method: 'GET', url: '/health/live' })
    expect(live.statusCode).toBe(200)
    expect(live.json()).toMatchObject({ status: 'ok', service: 'kit-test' })
    const ready = await app.inject({ method: 'GET', url: '/health/ready' })
    expect(ready.statusCode).toBe(503)
    expect(ready.json()).toMatchObject({ status: 'degraded', adapters: [{ port: 'documents', ok: true }, { port: 'jobs', ok: false }] })
  })

  it("takes the client's address from X-Forwarded-For only from a trusted proxy", async () => {
    const build = async (trustProxy?: string[]) => {
      const service = await createServiceApp({ name: 'address-test', verifier: new LocalTokenVerifier({ dataDir: dir }, tokenOptions), trustProxy })
      service.get('/address', { config: { public: true } }, async (request) => ({ ip: request.ip }))
      return service
    }
    const headers = { 'x-forwarded-for': '203.0.113.7' }
    const trusting = await build(['loopback'])
    const untrusting = await build()
    try {
      expect((await trusting.inject({ method: 'GET', url: '/address', headers, remoteAddress: '127.0.0.1' })).json()).toEqual({ ip: '203.0.113.7' })
      expect((await trusting.inject({ method: 'GET', url: '/address', headers, remoteAddress: '198.51.100.1' })).json()).toEqual({ ip: '198.51.100.1' })
      expect((await untrusting.inject({ method: 'GET', url: '/address', headers, remoteAddress: '127.0.0.1' })).json()).toEqual({ ip: '127.0.0.1' })
    } finally {
      await trusting.close()
      await untrusting.close()
    }
  })
})
