/** The spreadsheet app on throwaway embedded adapters, with tokens for made-up users, for tests. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  createSqliteDocumentStore,
  ensureSigningKeys,
  FsBlobStore,
  LocalTokenIssuer,
  LocalTokenVerifier,
  type DocumentStore,
  type ServiceApp,
} from '@finsheet/platform'
import { buildSpreadsheetApp, type SpreadsheetAppDependencies } from '../app.js'

const tokenOptions = { issuer: 'finsheet-users', audience: 'finsheet', sessionTtlSeconds: 3600 }

export interface TestApp {
  app: ServiceApp
  /** Where its data lives. */
  dir: string
  store: DocumentStore
  /** A bearer token for a user with this uid. */
  tokenFor(uid: string, name?: string): Promise<string>
  close(): Promise<void>
}

export interface TestAppOptions extends Partial<Pick<SpreadsheetAppDependencies, 'autosaveQuietMs' | 'engineCache' | 'bodyLimit' | 'importLimit' | 'store'>> {
  /** Share another test app's data folder (its SQLite file, blobs and signing keys), as a second replica does. */
  replicaOf?: TestApp
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dir = options.replicaOf?.dir ?? mkdtempSync(join(tmpdir(), 'finsheet-spreadsheet-'))
  const issuer = new LocalTokenIssuer(await ensureSigningKeys(dir), tokenOptions)
  const store = options.store ?? createSqliteDocumentStore({ path: join(dir, 'spreadsheet.sqlite') })
  const blobs = new FsBlobStore({ root: join(dir, 'blobs'), downloadBaseUrl: '/download' })
  const app = await buildSpreadsheetApp({
    verifier: new LocalTokenVerifier({ dataDir: dir }, tokenOptions),
    store,
    blobs,
    autosaveQuietMs: options.autosaveQuietMs ?? 0,
    engineCache: options.engineCache,
    bodyLimit: options.bodyLimit,
    importLimit: options.importLimit,
  })
  await app.ready()
  return {
    app,
    dir,
    store,
    tokenFor: (uid, name) => issuer.issueSessionToken({ uid, email: `${uid}@example.com`, name: name ?? uid, anonymous: false }),
    async close() {
      await app.close()
      await store.close()
      await blobs.close()
      if (!options.replicaOf) rmSync(dir, { recursive: true, force: true })
    },
  }
}
