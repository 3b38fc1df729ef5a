/**
 * The spreadsheet area's API as the agent harness calls it: one function for a path under
 * /api/spreadsheet, answered either by the spreadsheet service built in this process (app.inject,
 * no port: the planner's phrasing suite) or by a running stack through its gateway (the evaluation
 * harness). Both carry a real user's token.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSqliteDocumentStore, ensureSigningKeys, FsBlobStore, LocalTokenIssuer, LocalTokenVerifier, type ServiceApp } from '@finsheet/platform'
import { buildSpreadsheetApp } from '@finsheet/spreadsheet-service'

export interface ApiAnswer {
  status: number
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any
  /** The body as bytes (exports). */
  raw: Buffer
}

/** A call of the spreadsheet area: method, a path under /api/spreadsheet, a JSON body. */
export type SpreadsheetApi = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) => Promise<ApiAnswer>

/** The spreadsheet area of a stack, through its gateway at `baseUrl`. */
export function gatewayApi(baseUrl: string, token: string): SpreadsheetApi {
  return async (method, path, body) => {
    const response = await fetch(`${baseUrl}/api/spreadsheet${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const raw = Buffer.from(await response.arrayBuffer())
    const type = response.headers.get('content-type') ?? ''
    return { status: response.status, json: type.includes('json') && raw.length > 0 ? JSON.parse(raw.toString('utf8')) : undefined, raw }
  }
}

export interface InProcessSpreadsheet {
  api: SpreadsheetApi
  app: ServiceApp
  close(): Promise<void>
}

const tokenOptions = { issuer: 'finsheet-users', audience: 'finsheet', sessionTtlSeconds: 3600 }

/** The spreadsheet service on throwaway embedded storage, with one signed-in user. */
export async function startInProcessSpreadsheet(): Promise<InProcessSpreadsheet> {
  const dir = mkdtempSync(join(tmpdir(), 'finsheet-agent-'))
  const issuer = new LocalTokenIssuer(await ensureSigningKeys(dir), tokenOptions)
  const store = createSqliteDocumentStore({ path: join(dir, 'spreadsheet.sqlite') })
  const blobs = new FsBlobStore({ root: join(dir, 'blobs'), downloadBaseUrl: '/download' })
  const app = await buildSpreadsheetApp({ verifier: new LocalTokenVerifier({ dataDir: dir }, tokenOptions), store, blobs, autosaveQuietMs: 0, logger: false })
  await app.ready()
  const token = await issuer.issueSessionToken({ uid: 'analyst', email: 'analyst@example.com', name: 'Analyst', anonymous: false })
  const api: SpreadsheetApi = async (method, path, body) => {
    const response = await app.inject({ method, url: path, headers: { authorization: `Bearer ${token}` }, ...(body !== undefined ? { payload: body as object } : {}) })
    const type = String(response.headers['content-type'] ?? '')
    return { status: response.statusCode, json: type.includes('json') && response.body !== '' ? response.json() : undefined, raw: response.rawPayload }
  }
  return {
    api,
    app,
    async close() {
      await app.close()
      await store.close()
      await blobs.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
