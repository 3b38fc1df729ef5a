import { createServer } from 'node:http'
import type { AddressInfo, Server } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ApiClient, ApiError, fileNameOf, HtmlResponseError, isUnreachable, RetriesExhaustedError, retryDelay } from './api-client'

interface Scripted {
  status: number
  body?: string
  contentType?: string
  retryAfter?: string
}

let server: Server
let baseUrl = ''
let script: Scripted[] = []
let received: { method: string; url: string; authorization?: string; contentType?: string; body: string }[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body,
      })
      const next = script.shift() ?? { status: 200, body: '{}' }
      if (next.status === 0) {
        req.socket.destroy()
        return
      }
      res.writeHead(next.status, { 'content-type': next.contentType ?? 'application/json', ...(next.retryAfter ? { 'retry-after': next.retryAfter } : {}) })
      res.end(next.body ?? '')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

beforeEach(() => {
  script = []
  received = []
})

function client(extra: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}) {
  const waits: number[] = []
  const api = new ApiClient({ baseUrl, getToken: () => 'tok-1', sleep: async (ms) => void waits.push(ms), ...extra })
  return { api, waits }
}

describe('retry policy', () => {
  it('waits 2 s then 4 s on 429, and 1 s, 2 s, 4 s on 5xx', () => {
    expect([1, 2].map((a) => retryDelay(429, a, 3))).toEqual([2000, 4000])
    expect([1, 2, 3].map((a) => retryDelay(503, a, 4))).toEqual([1000, 2000, 4000])
    expect(retryDelay(404, 1)).toBeNull()
    expect(retryDelay(500, 3, 3)).toBeNull()
  })

  it('gives up at once on a 429 whose Retry-After is longer than the next wait', () => {
    expect(retryDelay(429, 1, 3, 2)).toBe(2000)
    expect(retryDelay(429, 2, 3, 4)).toBe(4000)
    expect(retryDelay(429, 1, 3, 30)).toBeNull()
    expect(retryDelay(503, 1, 3, 30)).toBe(1000)
  })
})

describe('ApiClient against an HTTP server', () => {
  it('sends JSON with the bearer token to /api/<area> and parses the answer', async () => {
    script = [{ status: 200, body: '{"token":"abc"}' }]
    const { api } = client()
    await expect(api.post('/users/login', { email: 'a@b.c' })).resolves.toEqual({ token: 'abc' })
    expect(received[0]).toMatchObject({
      method: 'POST',
      url: '/api/users/login',
      authorization: 'Bearer tok-1',
      contentType: 'application/json',
      body: '{"email":"a@b.c"}',
    })
  })

  it('leaves the token off anonymous calls and encodes query strings', async () => {
    const { api } = client()
    await api.get('/spreadsheet/health', { anonymous: true, query: { limit: 10, sheet: 'My Sheet', skip: undefined } })
    expect(received[0].authorization).toBeUndefined()
    expect(received[0].url).toBe('/api/spreadsheet/health?limit=10&sheet=My+Sheet')
  })

  it('answers null for 204', async () => {
    script = [{ status: 204 }]
    await expect(client().api.delete('/files/delete/1')).resolves.toBeNull()
  })

  it('retries 5xx and succeeds on a later attempt', async () => {
    script = [{ status: 503, body: '{}' }, { status: 502, body: '{}' }, { status: 200, body: '{"ok":true}' }]
    const { api, waits } = client()
    await expect(api.get('/files/list')).resolves.toEqual({ ok: true })
    expect(waits).toEqual([1000, 2000])
    expect(received).toHaveLength(3)
  })

  it('retries 429 with 2 s then 4 s and then gives up with the final message', async () => {
    script = [{ status: 429 }, { status: 429 }, { status: 429, body: '{"error":{"code":"RATE_LIMITED","message":"Too many requests"}}' }]
    const { api, waits } = client()
    const error = await api.get('/files/list').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RetriesExhaustedError)
    expect((error as RetriesExhaustedError).message).toBe('Request failed after retries')
    expect((error as RetriesExhaustedError).status).toBe(429)
    expect((error as RetriesExhaustedError).lastError.message).toBe('API Error 429: Too many requests')
    expect(waits).toEqual([2000, 4000])
  })

  it('does not retry a sign-in lockout: its Retry-After is longer than any wait, and the error keeps it', async () => {
    script = [{ status: 429, retryAfter: '30', body: '{"error":{"code":"SIGN_IN_LOCKED","message":"Too many failed sign-in attempts. Try again in 30 seconds."}}' }]
    const { api, waits } = client()
    const error = (await api.post('/users/login', { email: 'a@b.c', password: 'x' }, { anonymous: true }).catch((e: unknown) => e)) as ApiError
    expect(error).toBeInstanceOf(ApiError)
    expect(error.code).toBe('SIGN_IN_LOCKED')
    expect(error.retryAfterSeconds).toBe(30)
    expect(waits).toEqual([])
    expect(received).toHaveLength(1)
  })

  it('throws other 4xx at once with the service message', async () => {
    script = [{ status: 404, body: '{"error":{"code":"WORKBOOK_NOT_FOUND","message":"Workbook not found"}}' }]
    const error = (await client().api.get('/spreadsheet/workbook/x').catch((e: unknown) => e)) as ApiError
    expect(error).toBeInstanceOf(ApiError)
    expect(error.message).toBe('API Error 404: Workbook not found')
    expect(error.code).toBe('WORKBOOK_NOT_FOUND')
    expect(received).toHaveLength(1)
  })

  it('uses the status text when the body has no service error', async () => {
    script = [{ status: 400, body: 'bad', contentType: 'text/plain' }]
    const error = (await client().api.get('/x').catch((e: unknown) => e)) as ApiError
    expect(error.message).toBe('API Error 400: Bad Request')
  })

  it('treats a dropped connection as a retryable 500 network error', async () => {
    script = [{ status: 0 }, { status: 0 }, { status: 0 }]
    const { api, waits } = client()
    const error = (await api.upload('/files/upload', new FormData()).catch((e: unknown) => e)) as RetriesExhaustedError
    expect(error.message).toBe('Upload failed after retries')
    expect(error.lastError.message).toBe('API Error 500: Network error')
    expect(waits).toEqual([1000, 2000])
    expect(isUnreachable(error)).toBe(true)
  })

  it('tells a server that answered with an error from one that could not be reached', async () => {
    script = [{ status: 503 }, { status: 503 }, { status: 503 }]
    const error = await client().api.get('/x').catch((e: unknown) => e)
    expect(isUnreachable(error)).toBe(false)
    expect(isUnreachable(new Error('anything'))).toBe(false)
  })

  it('rejects an HTML page served as a success', async () => {
    script = [{ status: 200, body: '<html>oops</html>', contentType: 'text/html' }]
    await expect(client().api.get('/x')).rejects.toBeInstanceOf(HtmlResponseError)
  })

  it('reports a 401 on an authenticated call so the app can sign out', async () => {
    script = [{ status: 401, body: '{"error":{"code":"UNAUTHORIZED","message":"Unauthorized"}}' }]
    let signedOut = 0
    const { api } = client({ onUnauthorized: () => signedOut++ })
    await expect(api.get('/users/spreadsheet-session')).rejects.toThrow('API Error 401: Unauthorized')
    expect(signedOut).toBe(1)
  })
})

describe('downloads', () => {
  it('reads a file answer as a blob with its name', async () => {
    script = [{ status: 200, body: 'a,b\r\n1,2\r\n', contentType: 'text/csv' }]
    const { api } = client()
    const file = await api.download('/spreadsheet/workbook/w1/export', { query: { format: 'csv' } })
    expect(await file.blob.text()).toBe('a,b\r\n1,2\r\n')
    expect(received[0].url).toBe('/api/spreadsheet/workbook/w1/export?format=csv')
  })

  it('reads both forms of the Content-Disposition file name', () => {
    expect(fileNameOf('attachment; filename="Model.xlsx"; filename*=UTF-8\'\'Mod%C3%A8le.xlsx')).toBe('Modèle.xlsx')
    expect(fileNameOf('attachment; filename="Model.xlsx"')).toBe('Model.xlsx')
    expect(fileNameOf(null)).toBeNull()
  })
})
