/**
 * The spreadsheet service itself, in this process on throwaway embedded storage, for the web app's
 * tests of what it exchanges with the service: an ApiClient whose calls reach the real routes (as the
 * gateway forwards /api/spreadsheet), with a made-up user's token. `hold` keeps the answers of a route
 * back until released, as a slow network or a busy service would.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureSigningKeys, LocalTokenIssuer } from '@finsheet/platform'
import { createSpreadsheetService, loadSpreadsheetConfig } from '@finsheet/spreadsheet-service'
import { ApiClient } from '../api/api-client'

const PREFIX = '/api/spreadsheet'

export interface TestSpreadsheetService {
  api: ApiClient
  /** Holds back the answers of requests whose method and path match, until the returned release is called. */
  hold(method: string, path: RegExp): () => void
  /** Requests whose method and path match get no answer (as with no network), until the returned restore is called. */
  cut(method: string, path: RegExp): () => void
  /** The requests that reached the service, as 'METHOD /path'. */
  calls: string[]
  close(): Promise<void>
}

export async function startSpreadsheetService(): Promise<TestSpreadsheetService> {
  const dir = mkdtempSync(join(tmpdir(), 'finsheet-web-sync-'))
  const keys = await ensureSigningKeys(dir)
  const issuer = new LocalTokenIssuer(keys, { issuer: 'finsheet-users', audience: 'finsheet', sessionTtlSeconds: 3600 })
  const app = await createSpreadsheetService(loadSpreadsheetConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }), { logger: false })
  await app.ready()
  const token = await issuer.issueSessionToken({ uid: 'ada', email: 'ada@example.com', name: 'Ada', anonymous: false })
  const holds: { method: string; path: RegExp; gate: Promise<void> }[] = []
  const cuts: { method: string; path: RegExp }[] = []
  const calls: string[] = []

  const fetchThroughService: typeof fetch = async (input, init) => {
    const url = new URL(String(input), 'http://finsheet.test')
    const method = init?.method ?? 'GET'
    const path = url.pathname.startsWith(PREFIX) ? url.pathname.slice(PREFIX.length) : url.pathname
    if (cuts.some((cut) => cut.method === method && cut.path.test(path))) throw new TypeError('Failed to fetch')
    calls.push(`${method} ${path}`)
    const answer = await app.inject({
      method: method as 'GET',
      url: path + url.search,
      headers: Object.fromEntries(Object.entries((init?.headers as Record<string, string> | undefined) ?? {})),
      ...(typeof init?.body === 'string' ? { payload: init.body } : {}),
    })
    for (const hold of holds) if (hold.method === method && hold.path.test(path)) await hold.gate
    return new Response(answer.statusCode === 204 ? null : answer.body, {
      status: answer.statusCode,
      headers: { 'content-type': String(answer.headers['content-type'] ?? 'application/json') },
    })
  }

  return {
    api: new ApiClient({ getToken: () => token, fetch: fetchThroughService, sleep: () => Promise.resolve() }),
    hold(method, path) {
      let release = () => undefined as void
      const gate = new Promise<void>((resolve) => (release = resolve))
      const hold = { method, path, gate }
      holds.push(hold)
      return () => {
        holds.splice(holds.indexOf(hold), 1)
        release()
      }
    },
    cut(method, path) {
      const cut = { method, path }
      cuts.push(cut)
      return () => void cuts.splice(cuts.indexOf(cut), 1)
    },
    calls,
    async close() {
      await app.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
