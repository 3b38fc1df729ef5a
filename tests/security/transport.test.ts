/**
 * Transport hardening, replayed against the whole stack on loopback with raw sockets where fetch
 * would hide what happens: oversized bodies (declared, chunked, behind Expect: 100-continue) answer
 * 413 and close the connection; requests with bad tokens are rate-limited like any other; a token
 * without an expiry is refused; every answer carries the security headers.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { importJWK, SignJWT, type JWK } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_BODY_LIMIT_BYTES } from '@finsheet/contracts'
import { call, chunkedBody, printTable, rawExchange, startStack, type Stack } from './support/stack.js'

let stack: Stack
let token: string
const figures: Array<[string, string, string]> = []

beforeAll(async () => {
  stack = await startStack()
  const registered = await call(stack, 'POST', '/api/users/register', { body: { email: 'transport@example.com', password: 'amber-otter-42', fullName: 'Tess Transport' } })
  expect(registered.status).toBe(201)
  token = registered.json.token
}, 120_000)

afterAll(async () => {
  printTable('Transport: what each reproduction answers now', ['reproduction', 'answer', 'connection'], figures)
  await stack?.stop()
})

const limit = DEFAULT_BODY_LIMIT_BYTES
const oversized = limit + 1024 * 1024
const head = (lines: string[]) => `POST /api/ai/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n${lines.map((line) => `${line}\r\n`).join('')}\r\n`

describe('oversized bodies', () => {
  it('refuses a declared oversized body with 413 instead of 100 Continue, so the client never sends it', async () => {
    const exchange = await rawExchange(stack.port, head([`Content-Length: ${oversized}`, 'Expect: 100-continue']), [Buffer.alloc(oversized, 32)], { waitForContinue: true })
    expect(exchange.statuses).toEqual(['HTTP/1.1 413 Payload Too Large'])
    expect(exchange.text).toContain(`"message":"Request body is larger than ${limit} bytes"`)
    expect(exchange.closedAfterMs).not.toBeNull()
    expect(exchange.bytesWritten).toBeLessThan(4096)
    figures.push(['declared 11 MiB body, Expect: 100-continue', `413, no 100 Continue, ${exchange.bytesWritten} bytes sent`, `closed after ${exchange.closedAfterMs} ms`])
  })

  it('cuts a chunked oversized body sent after 100 Continue at the limit: 413 and the connection closed (was 503)', async () => {
    const exchange = await rawExchange(stack.port, head(['Transfer-Encoding: chunked', 'Expect: 100-continue']), chunkedBody(oversized), { waitForContinue: true, timeoutMs: 10_000 })
    expect(exchange.statuses).toEqual(['HTTP/1.1 100 Continue', 'HTTP/1.1 413 Payload Too Large'])
    expect(exchange.closedAfterMs).not.toBeNull()
    figures.push(['chunked 11 MiB body, Expect: 100-continue', exchange.statuses.map((status) => status.slice(9, 12)).join(' then '), `closed after ${exchange.closedAfterMs} ms`])
  })

  it('cuts a chunked oversized body without Expect the same way', async () => {
    const exchange = await rawExchange(stack.port, head(['Transfer-Encoding: chunked']), chunkedBody(oversized), { timeoutMs: 10_000 })
    expect(exchange.statuses).toEqual(['HTTP/1.1 413 Payload Too Large'])
    expect(exchange.closedAfterMs).not.toBeNull()
    figures.push(['chunked 11 MiB body', '413', `closed after ${exchange.closedAfterMs} ms`])
  })

  it('closes the connection after a 413, so a request sent behind the refused body does not hang on it', async () => {
    // Part of the declared body, then what a client would send next on the same connection.
    const next = Buffer.from('GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    const exchange = await rawExchange(stack.port, head([`Content-Length: ${oversized}`]), [Buffer.alloc(64 * 1024, 32), next], { timeoutMs: 5000 })
    expect(exchange.statuses).toEqual(['HTTP/1.1 413 Payload Too Large'])
    expect(exchange.text.toLowerCase()).toContain('connection: close')
    // Before, the connection stayed open reading the rest of the body and the next request hung.
    expect(exchange.closedAfterMs).not.toBeNull()
    expect(exchange.closedAfterMs!).toBeLessThan(5000)
    figures.push(['declared 11 MiB body, 64 KiB sent, then a GET', '413 (the GET is never read as a request)', `closed after ${exchange.closedAfterMs} ms`])
  })

  it('lets a client that sends the whole oversized body read the 413 instead of a broken connection', async () => {
    // The connection lingers after the answer, taking and dropping the rest of the body: closed at
    // once, it would be reset under the writing client, which would report a network error.
    const answer = await fetch(`${stack.url}/api/ai/chat`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: Buffer.alloc(oversized, 32) })
    expect(answer.status).toBe(413)
    expect(answer.headers.get('connection')).toBe('close')
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('PAYLOAD_TOO_LARGE')
    figures.push(['fetch sending a whole 11 MiB body', '413 read by the client', 'closed after the answer'])
  })

  it('still takes a chunked body within the limit', async () => {
    const json = Buffer.from(JSON.stringify({ email: 'transport@example.com', password: 'amber-otter-42' }))
    const exchange = await rawExchange(
      stack.port,
      'POST /api/users/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n',
      [Buffer.from(`${json.length.toString(16)}\r\n`), json, Buffer.from('\r\n0\r\n\r\n')],
    )
    expect(exchange.statuses).toEqual(['HTTP/1.1 200 OK'])
    expect(exchange.text).toContain('"token"')
    // The client asked for the connection to close; the service's keep-alive is not passed on.
    expect(exchange.closedAfterMs).not.toBeNull()
  })
})

describe('tokens', () => {
  it('rate-limits requests with bad tokens by their address: 700 bad tokens answered 401 and then 429', async () => {
    const counts: Record<number, number> = {}
    const started = performance.now()
    for (let i = 0; i < 700; i++) {
      const answer = await call(stack, 'GET', '/api/spreadsheet/workbooks', { token: `guessed.token.${i}`, address: '203.0.113.200' })
      counts[answer.status] = (counts[answer.status] ?? 0) + 1
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    // 600 requests a minute per address, as for any anonymous client.
    expect(counts).toEqual({ 401: 600, 429: 100 })
    const next = await call(stack, 'GET', '/api/spreadsheet/workbooks', { token: 'guessed.token.x', address: '203.0.113.200' })
    expect(next.json.error.code).toBe('RATE_LIMITED')
    expect(Number(next.headers.get('retry-after'))).toBeGreaterThan(0)
    // Another client behind the same proxy keeps its own count.
    expect((await call(stack, 'GET', '/api/spreadsheet/workbooks', { token: 'guessed.token.y', address: '203.0.113.201' })).status).toBe(401)
    figures.push(['700 requests with bad tokens from one address', `${counts[401]}× 401, then ${counts[429]}× 429 (was 700× 401) in ${seconds} s`, 'kept'])
  })

  it('refuses a correctly signed token without an expiry, at the gateway and at the service behind it', async () => {
    const stored = JSON.parse(readFileSync(join(stack.dataDir, 'identity', 'signing-key.json'), 'utf8')) as { kid: string; privateJwk: JWK }
    const key = await importJWK(stored.privateJwk, 'EdDSA')
    const me = (await call(stack, 'GET', '/api/users/me', { token })).json as { uid: string }
    const forever = await new SignJWT({ email: 'transport@example.com' })
      .setProtectedHeader({ alg: 'EdDSA', kid: stored.kid })
      .setIssuer('finsheet-users')
      .setAudience('finsheet')
      .setSubject(me.uid)
      .setIssuedAt()
      .sign(key)
    const atGateway = await call(stack, 'GET', '/api/users/me', { token: forever })
    expect(atGateway.status).toBe(401)
    expect(atGateway.json.error.code).toBe('INVALID_TOKEN')
    const atService = await fetch(`${stack.services.users}/me`, { headers: { authorization: `Bearer ${forever}` } })
    expect(atService.status).toBe(401)
    // The same claims with an expiry pass: it is the missing exp that is refused.
    const expiring = await new SignJWT({ email: 'transport@example.com' }).setProtectedHeader({ alg: 'EdDSA', kid: stored.kid }).setIssuer('finsheet-users').setAudience('finsheet').setSubject(me.uid).setIssuedAt().setExpirationTime('5m').sign(key)
    expect((await call(stack, 'GET', '/api/users/me', { token: expiring })).status).toBe(200)
    figures.push(['signed token without exp', '401 INVALID_TOKEN at the gateway and at the users service (was 200)', 'kept'])
  })
})

describe('security headers', () => {
  it('are on API answers, refusals and the page', async () => {
    const answers = {
      'API answer': await call(stack, 'GET', '/api/users/me', { token }),
      '401': await call(stack, 'GET', '/api/users/me'),
      '404': await call(stack, 'GET', '/api/nowhere'),
      page: await call(stack, 'GET', '/'),
    }
    for (const [name, answer] of Object.entries(answers)) {
      const policy = answer.headers.get('content-security-policy') ?? ''
      expect(policy, name).toContain("script-src 'self'")
      expect(policy, name).not.toContain("'unsafe-inline'")
      expect(policy, name).toContain("frame-ancestors 'none'")
      expect(answer.headers.get('x-content-type-options'), name).toBe('nosniff')
      expect(answer.headers.get('x-frame-options'), name).toBe('DENY')
      expect(answer.headers.get('referrer-policy'), name).toBe('no-referrer')
    }
    figures.push(['security headers', 'CSP (no inline script, frame-ancestors none), nosniff, DENY, no-referrer on every answer (were none)', 'kept'])
  })
})
