/**
 * The import path against Excel's own files: every oracle workbook is read as the files worker reads
 * it (its layout first, then its cells as they are parsed), sent in the streamed form the worker sends (plain formulas as legacy, Ctrl+Shift+Enter arrays
 * over their range, dynamic arrays spilling, every formula with the value Excel cached) to the
 * spreadsheet service's bulk import, which recalculates and reports the formulas whose value differs
 * from Excel's. Each such difference must be one the engine's own file loader (read-xlsx) has too:
 * the import loses nothing of how Excel calculates the file.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSqliteDocumentStore, ensureSigningKeys, FsBlobStore, LocalTokenIssuer, LocalTokenVerifier, type ServiceApp } from '@finsheet/platform'
import { IMPORT_STREAM_CONTENT_TYPE, type ImportWorkbookResponse } from '@finsheet/contracts'
import { buildSpreadsheetApp } from '@finsheet/spreadsheet-service'
import { compareWithCachedValues, loadXlsxIntoEngine, openXlsxImport } from '@finsheet/workbook'
import { prepareImport } from '@finsheet/files-service'

const oracleRoot = fileURLToPath(new URL('../../../shared/oracle/ironcalc/', import.meta.url))
/** The oracle workbooks of our own (circular models, linked and rich text, ...). */
const ownRoot = fileURLToPath(new URL('../oracle/workbooks/', import.meta.url))

function workbooks(): string[] {
  if (!existsSync(oracleRoot)) return []
  const found: string[] = []
  for (const folder of readdirSync(oracleRoot).sort()) {
    const path = join(oracleRoot, folder)
    if (!statSync(path).isDirectory()) continue
    for (const file of readdirSync(path).sort()) if (file.endsWith('.xlsx')) found.push(join(oracleRoot, folder, file))
  }
  return found
}

function ownWorkbooks(): string[] {
  return readdirSync(ownRoot)
    .filter((file) => file.endsWith('.xlsx'))
    .sort()
    .map((file) => join(ownRoot, file))
}

const tokenOptions = { issuer: 'finsheet-users', audience: 'finsheet', sessionTtlSeconds: 3600 }
let dir: string
let app: ServiceApp
let close: () => Promise<void>
let token: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'finsheet-oracle-'))
  const store = createSqliteDocumentStore({ path: join(dir, 'spreadsheet.sqlite') })
  const blobs = new FsBlobStore({ root: join(dir, 'blobs'), downloadBaseUrl: '/download' })
  token = await new LocalTokenIssuer(await ensureSigningKeys(dir), tokenOptions).issueSessionToken({ uid: 'oracle', email: 'oracle@example.com', name: 'Oracle', anonymous: false })
  app = await buildSpreadsheetApp({ verifier: new LocalTokenVerifier({ dataDir: dir }, tokenOptions), store, blobs, autosaveQuietMs: 0, logger: false })
  await app.ready()
  close = async () => {
    await app.close()
    await store.close()
    await blobs.close()
  }
})
afterAll(async () => {
  await close?.()
  rmSync(dir, { recursive: true, force: true })
})

describe('oracle workbooks through the import', () => {
  it('agree with Excel wherever the file loader does, legacy and array formulas included', { timeout: 600_000 }, async () => {
    const shared = workbooks()
    expect(shared.length, `the oracle workbooks are missing from ${oracleRoot}`).toBeGreaterThan(100)
    const files = [...shared, ...ownWorkbooks()]
    const worse: string[] = []
    let checked = 0
    for (const path of files) {
      const file = path.startsWith(oracleRoot) ? path.slice(oracleRoot.length) : `own/${path.slice(ownRoot.length)}`
      const source = await openXlsxImport(path)
      const lines: string[] = []
      try {
        for await (const line of prepareImport(source.workbook, file).streamLines((index) => source.cells(index), { importId: file })) lines.push(line)
      } finally {
        source.close()
      }
      const formulas = source.workbook.formulaCount
      const response = await app.inject({
        method: 'POST',
        url: '/workbooks/import',
        headers: { authorization: `Bearer ${token}`, 'content-type': IMPORT_STREAM_CONTENT_TYPE },
        payload: lines.join(''),
      })
      expect(response.statusCode, `${file}: ${response.body.slice(0, 300)}`).toBe(201)
      const { recalculation } = response.json() as ImportWorkbookResponse
      checked += recalculation.checked
      expect(recalculation.checked).toBeLessThanOrEqual(formulas)
      expect(recalculation.mismatches.length).toBe(Math.min(recalculation.mismatchCount, 1000))
      if (recalculation.mismatchCount === 0) continue
      const loader = compareWithCachedValues(await loadXlsxIntoEngine(path))
      const loaderFails = new Set(loader.mismatches.map((mismatch) => `${mismatch.sheet}!${mismatch.address}`))
      for (const mismatch of recalculation.mismatches) {
        if (loaderFails.has(`${mismatch.sheet}!${mismatch.address}`)) continue
        worse.push(`${file} ${mismatch.sheet}!${mismatch.address} ${mismatch.formula}: ours ${String(mismatch.ours)}, Excel ${String(mismatch.cached)}`)
      }
    }
    console.log(`${files.length} oracle workbooks imported; ${checked} formulas checked against Excel's cached values`)
    expect(worse).toEqual([])
  })
})
