/**
 * Imports end to end through the gateway of the all-in-one stack: upload → files.process job →
 * the spreadsheet service's bulk import → the stored, recalculated workbook read back through the
 * spreadsheet API. Also the spreadsheet area's file routes (routed by the gateway to the files
 * service), the import report, and the export → import round trip.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import ExcelJS from 'exceljs'
import { startAllInOne, type AllInOne } from '@finsheet/standalone'
import { createSqliteDocumentStore, createUserTokenSource, FsBlobStore, type ActiveJob } from '@finsheet/platform'
import { createFileProcessor, createFileRepository, createSpreadsheetClient, type FileJobData } from '@finsheet/files-service'
import { DEFAULT_IMPORT_LIMITS } from '@finsheet/workbook'
import type { FileJobResponse, FileRecord, ImportFileResponse, InputsResponse, SheetCells } from '@finsheet/contracts'
import { sampleWorkbook, xlsxBuffer } from './support/make-files.js'
import { makeExternalLinkWorkbook } from '../../packages/workbook/src/xlsx/test-workbook.js'

let stack: AllInOne
let dataDir: string

interface User {
  token: string
  uid: string
  get(path: string): Promise<Response>
  post(path: string, body?: unknown): Promise<Response>
  upload(path: string, name: string, bytes: Buffer, fields?: Record<string, string>): Promise<Response>
  job(id: string): Promise<FileJobResponse>
  sheets(workbookId: string): Promise<SheetCells[]>
}

async function signUp(email: string): Promise<User> {
  const response = await fetch(`${stack.url}/api/users/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'secret-pass', fullName: email.split('@')[0] }),
  })
  expect(response.status).toBe(201)
  const { token, user: account } = (await response.json()) as { token: string; user: { uid: string } }
  const auth = { authorization: `Bearer ${token}` }
  const user: User = {
    token,
    uid: account.uid,
    get: (path) => fetch(`${stack.url}${path}`, { headers: auth }),
    post: (path, body) =>
      fetch(`${stack.url}${path}`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) }),
    upload: (path, name, bytes, fields = {}) => {
      const form = new FormData()
      for (const [key, value] of Object.entries(fields)) form.append(key, value)
      form.append('file', new Blob([new Uint8Array(bytes)]), name)
      return fetch(`${stack.url}${path}`, { method: 'POST', headers: auth, body: form })
    },
    async job(id) {
      for (const deadline = Date.now() + 60_000; ; ) {
        const job = (await (await user.get(`/api/files/jobs/${id}`)).json()) as FileJobResponse
        if (job.state === 'completed' || job.state === 'failed') return job
        if (Date.now() > deadline) throw new Error(`job ${id} still ${job.state}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    },
    async sheets(workbookId) {
      const response = await user.get(`/api/spreadsheet/workbook/${workbookId}/cells`)
      expect(response.status).toBe(200)
      return ((await response.json()) as { workbook: { sheets: SheetCells[] } }).workbook.sheets
    },
  }
  return user
}

async function uploadAndWait(user: User, name: string, bytes: Buffer) {
  const upload = await user.upload('/api/files/upload', name, bytes)
  expect(upload.status, await upload.clone().text()).toBe(201)
  const { file, jobId } = (await upload.json()) as { file: FileRecord; jobId: string }
  return { file, job: await user.job(jobId) }
}

let ana: User
let ben: User

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'finsheet-import-e2e-'))
  stack = await startAllInOne({ port: 0, dataDir, logger: false, env: { ...process.env, LOG_LEVEL: 'silent' } })
  ana = await signUp('ana@example.com')
  ben = await signUp('ben@example.com')
})
afterAll(async () => {
  await stack?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

describe('xlsx import', () => {
  it('stores every sheet, value, formula, format, style, merge, width and defined name, recalculated', async () => {
    const { file, job } = await uploadAndWait(ana, 'Model.xlsx', await sampleWorkbook())
    expect(job.state, job.error ?? '').toBe('completed')
    const workbookId = job.result?.workbookId as string
    expect(job.result).toMatchObject({ cellCount: 6, formulaCount: 2 })
    expect(job.result?.report).toMatchObject({ formulas: 2, matched: 2, mismatchCount: 0, mismatches: [] })
    const [inputs, summary] = await ana.sheets(workbookId)
    expect(inputs.name).toBe('Inputs')
    expect(inputs.cells.A1).toMatchObject({ value: 'Revenue', style: { bold: true, color: '#1F4E79', fill: '#DDEBF7' } })
    expect(inputs.cells.B1).toMatchObject({ value: 1200, format: '#,##0', display: '1,200' })
    expect(inputs.cells.B2).toMatchObject({ value: 0.1, format: '0%' })
    expect(inputs.cells.B3).toMatchObject({ formula: '=B1*(1+B2)', value: 1320, style: { align: 'right' } })
    expect(inputs.merges).toEqual(['C1:D1'])
    expect(inputs.columnWidths['0']).toBe(145)
    expect(summary.cells.A1).toMatchObject({ formula: '=Inputs!B3+Growth', value: 1320.1 })
    const record = (await (await ana.get(`/api/files/file/${file.id}`)).json()).file as FileRecord
    expect(record).toMatchObject({ status: 'processed', processed: true, workbookId, cellsProcessed: 6, formulasProcessed: 2 })
    expect(record.processedData?.sheets).toEqual(['Inputs', 'Summary'])
  })

  it('has no 100-row or 26-column cap, and expands shared formulas', async () => {
    const bytes = await xlsxBuffer((workbook) => {
      const sheet = workbook.addWorksheet('Wide')
      for (let row = 1; row <= 150; row++) for (let col = 1; col <= 30; col++) sheet.getCell(row, col).value = row * 100 + col
      sheet.getCell('AE1').value = { formula: 'A1+AD1', result: 231 }
      for (let row = 2; row <= 150; row++) sheet.getCell(`AE${row}`).value = { sharedFormula: 'AE1', result: row * 200 + 31 }
    })
    const { job } = await uploadAndWait(ana, 'wide.xlsx', bytes)
    expect(job.state, job.error ?? '').toBe('completed')
    const [wide] = await ana.sheets(job.result?.workbookId as string)
    expect(wide.rowCount).toBe(150)
    expect(wide.columnCount).toBe(31)
    expect(wide.cells.AD150.value).toBe(15030)
    expect(wide.cells.AE150).toMatchObject({ formula: '=A150+AD150', value: 30031 })
    expect(job.result?.report?.mismatchCount).toBe(0)
  })

  it('reports the cells whose recalculated value differs from the cached one', async () => {
    const bytes = await xlsxBuffer((workbook) => {
      const sheet = workbook.addWorksheet('S')
      sheet.getCell('A1').value = 2
      sheet.getCell('A2').value = { formula: 'A1*21', result: 42 }
      sheet.getCell('A3').value = { formula: 'A1+1', result: 999 }
    })
    const { job } = await uploadAndWait(ana, 'stale.xlsx', bytes)
    expect(job.result?.report).toMatchObject({ matched: 1, mismatchCount: 1, mismatches: [{ sheet: 'S', address: 'A3', formula: '=A1+1', ours: 3, cached: 999 }] })
    const [sheet] = await ana.sheets(job.result?.workbookId as string)
    expect(sheet.cells.A3.value).toBe(3)
  })
})

describe('a workbook linked to another workbook', () => {
  const linkedValues = (sheet: SheetCells) => Object.fromEntries(['A1', 'A2', 'A3', 'A4', 'A5', 'B1', 'B2', 'D1'].map((address) => [address, sheet.cells[address]?.value]))
  const expected = { A1: 1250.5, A2: 6, A3: 240, A4: 'North & South', A5: 1251.5, B1: true, B2: '#DIV/0!', D1: '#REF!' }

  it('calculates its external references from the values the file kept, for the browser too, and exports its link again', async () => {
    const { job } = await uploadAndWait(ana, 'Linked.xlsx', await makeExternalLinkWorkbook())
    expect(job.state, job.error ?? '').toBe('completed')
    expect(job.result?.report).toMatchObject({ formulas: 8, matched: 8, mismatchCount: 0 })
    const workbookId = job.result?.workbookId as string
    const [model] = await ana.sheets(workbookId)
    expect(linkedValues(model)).toEqual(expected)
    expect(model.cells.A1.formula).toBe('=[1]Sheet1!$C$8')

    const inputs = (await (await ana.get(`/api/spreadsheet/workbook/${workbookId}/inputs`)).json()) as InputsResponse
    expect(inputs.workbook.externalLinks).toEqual([
      {
        target: 'file:///C:/Models/Budget.xlsx',
        sheets: [
          { name: 'Sheet1', cells: { A1: 1, B1: 'North & South', A2: 2, B2: true, A3: 3, B3: { error: '#DIV/0!' }, C8: 1250.5 } },
          { name: 'Q1 Plan', cells: { B2: 10, B3: 20, B9: 90 } },
        ],
      },
    ])

    const exported = await ana.get(`/api/spreadsheet/workbook/${workbookId}/export?format=xlsx`)
    expect(exported.status).toBe(200)
    const { job: again } = await uploadAndWait(ana, 'Linked again.xlsx', Buffer.from(await exported.arrayBuffer()))
    expect(again.state, again.error ?? '').toBe('completed')
    expect(again.result?.report?.mismatchCount).toBe(0)
    expect(linkedValues((await ana.sheets(again.result?.workbookId as string))[0])).toEqual(expected)
  })
})

describe('csv import', () => {
  it('becomes a one-sheet workbook with numbers, dates and formats recognised', async () => {
    const { job } = await uploadAndWait(ana, 'ledger.csv', Buffer.from('Date;Account;Amount\n2024-01-31;Sales;1.234,50\n2024-02-29;"Rent; office";-800\n'))
    expect(job.state, job.error ?? '').toBe('completed')
    const [sheet] = await ana.sheets(job.result?.workbookId as string)
    expect(sheet.name).toBe('ledger')
    expect(sheet.cells.A2).toMatchObject({ value: 45322, format: 'yyyy-mm-dd', display: '2024-01-31' })
    expect(sheet.cells.B3.value).toBe('Rent; office')
    expect(sheet.cells.C2.value).toBe(1234.5)
    expect(sheet.cells.C3.value).toBe(-800)
  })
})

describe('import routes', () => {
  it('POST /api/files/import and /api/spreadsheet/import-from-file/{fileId} make new workbooks from an upload', async () => {
    const { file, job } = await uploadAndWait(ana, 'again.xlsx', await sampleWorkbook())
    const first = job.result?.workbookId
    const viaFiles = await ana.post('/api/files/import', { fileId: file.id, name: 'Second copy' })
    expect(viaFiles.status).toBe(200)
    const second = (await viaFiles.json()) as ImportFileResponse
    expect(second).toMatchObject({ success: true, cellCount: 6, error: null, pending: false })
    const viaSpreadsheet = await ana.post(`/api/spreadsheet/import-from-file/${file.id}`)
    expect(viaSpreadsheet.status).toBe(200)
    const third = (await viaSpreadsheet.json()) as ImportFileResponse
    expect(new Set([first, second.workbookId, third.workbookId]).size).toBe(3)
    const metadata = await (await ana.get(`/api/spreadsheet/workbooks/${second.workbookId}`)).json()
    expect(JSON.stringify(metadata)).toContain('Second copy')
    expect((await ben.post(`/api/spreadsheet/import-from-file/${file.id}`)).status).toBe(404)
    expect((await ben.get(`/api/files/jobs/${job.id}`)).status).toBe(404)
  })

  it('POST /api/spreadsheet/upload-excel answers {success, workbookId, cellCount, error}', async () => {
    const response = await ana.upload('/api/spreadsheet/upload-excel', 'budget.xlsx', await sampleWorkbook(), { name: 'Budget 2025', description: 'from finance' })
    expect(response.status).toBe(200)
    const body = (await response.json()) as ImportFileResponse
    expect(body).toMatchObject({ success: true, cellCount: 6, error: null })
    const metadata = await (await ana.get(`/api/spreadsheet/workbooks/${body.workbookId}`)).json()
    expect(JSON.stringify(metadata)).toContain('Budget 2025')
    const pdf = await ana.upload('/api/spreadsheet/upload-excel', 'figures.pdf', Buffer.from('%PDF-1.4\n'))
    expect(pdf.status).toBe(400)
    expect((await pdf.json()).error.message).toBe('Please upload an Excel file (.xlsx, .xls, .csv)')
    const broken = await ana.upload('/api/spreadsheet/upload-excel', 'broken.xlsx', (await sampleWorkbook()).subarray(0, 500))
    expect(broken.status).toBe(422)
    expect((await broken.json()).error.message).toMatch(/^The file is not a readable xlsx workbook/)
  })

  it('leaves no workbook behind when an import fails', async () => {
    const before = (await (await ana.get('/api/spreadsheet/workbooks?limit=100')).json()).total
    const whole = await sampleWorkbook()
    const { job } = await uploadAndWait(ana, 'cut.xlsx', whole.subarray(0, Math.floor(whole.length / 2)))
    expect(job.state).toBe('failed')
    const { job: ragged } = await uploadAndWait(ana, 'ragged.csv', Buffer.from('a,b\n1\n'))
    expect(ragged.state).toBe('failed')
    expect((await (await ana.get('/api/spreadsheet/workbooks?limit=100')).json()).total).toBe(before)
  })

  it('fails with the damage it met once the cells were already being sent, and stores nothing', async () => {
    const before = (await (await ana.get('/api/spreadsheet/workbooks?limit=100')).json()).total
    const good = await xlsxBuffer((workbook) => workbook.addWorksheet('S').addRows(Array.from({ length: 3000 }, (_, row) => [row + 1, row * 2])))
    const JSZip = (await import('jszip')).default
    const zip = await JSZip.loadAsync(good)
    const part = 'xl/worksheets/sheet1.xml'
    const xml = (await zip.file(part)?.async('string')) ?? ''
    // The last row's first cell names a shared string the file does not have: met after lines went out.
    zip.file(part, xml.replace(/<c r="A3000"[^>]*>.*?<\/c>/, '<c r="A3000" t="s"><v>999</v></c>'))
    const { job } = await uploadAndWait(ana, 'dangling.xlsx', await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }))
    expect(job.state).toBe('failed')
    expect(job.error).toBe('The workbook is damaged: cell S!A3000 points to a missing shared string.')
    expect(job.attemptsMade).toBe(1)
    expect((await (await ana.get('/api/spreadsheet/workbooks?limit=100')).json()).total).toBe(before)
  })
})

describe('round trip', () => {
  it('a workbook exported as xlsx and imported again has the same inputs, values, formats, styles and merges', async () => {
    const { job } = await uploadAndWait(ana, 'original.xlsx', await sampleWorkbook())
    const originalId = job.result?.workbookId as string
    const exported = await ana.get(`/api/spreadsheet/workbook/${originalId}/export?format=xlsx`)
    expect(exported.status).toBe(200)
    const bytes = Buffer.from(await exported.arrayBuffer())
    const check = new ExcelJS.Workbook()
    await check.xlsx.load(bytes as unknown as ExcelJS.Buffer)
    expect(check.worksheets.map((sheet) => sheet.name)).toEqual(['Inputs', 'Summary'])

    const { job: again } = await uploadAndWait(ana, 'exported.xlsx', bytes)
    expect(again.state, again.error ?? '').toBe('completed')
    expect(again.result?.report?.mismatchCount).toBe(0)
    const original = await ana.sheets(originalId)
    const reimported = await ana.sheets(again.result?.workbookId as string)
    const shape = (sheets: SheetCells[]) =>
      sheets.map((sheet) => ({
        name: sheet.name,
        merges: sheet.merges,
        cells: Object.fromEntries(Object.entries(sheet.cells).map(([address, cell]) => [address, { input: cell.input, value: cell.value, format: cell.format, style: cell.style }])),
      }))
    expect(shape(reimported)).toEqual(shape(original))
  })
})

describe('a retried job', () => {
  it('imports once when the same job runs again after its workbook was stored (a worker that died before reporting)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'finsheet-retry-'))
    const store = await createSqliteDocumentStore({ path: join(dir, 'files.sqlite') })
    const blobs = new FsBlobStore({ root: join(dir, 'blobs'), downloadBaseUrl: '/download' })
    try {
      const files = createFileRepository(store)
      const bytes = await sampleWorkbook()
      const storagePath = `users/${ana.uid}/files/1-retried.xlsx`
      await blobs.put(storagePath, bytes)
      await files.create({ id: 'retried', userId: ana.uid, name: 'retried.xlsx', size: bytes.length, mimeType: 'application/octet-stream', kind: 'xlsx', storagePath, jobId: 'process-retried' })
      const processor = createFileProcessor({
        files,
        blobs,
        spreadsheet: createSpreadsheetClient(stack.services.spreadsheet),
        userTokens: await createUserTokenSource({ DATA_DIR: stack.dataDir, USERS_URL: stack.services.users }, 'files-worker'),
        limits: DEFAULT_IMPORT_LIMITS,
        workDir: dir,
        attempts: 3,
      })
      const progress: number[] = []
      const job: ActiveJob<FileJobData> = {
        id: 'process-retried',
        name: 'process',
        data: { fileId: 'retried', userId: ana.uid, action: 'process' },
        attempt: 1,
        updateProgress: async (value) => void progress.push(value),
      }
      const count = async () => (await (await ana.get('/api/spreadsheet/workbooks?limit=100')).json()).total as number
      const before = await count()
      const first = await processor(job)
      const second = await processor({ ...job, attempt: 2 })
      expect(second.workbookId).toBe(first.workbookId)
      expect(await count()).toBe(before + 1)
      expect(progress.at(-1)).toBe(100)
      // each run reports rising progress up to 100
      const runs = [progress.slice(0, progress.indexOf(100) + 1), progress.slice(progress.indexOf(100) + 1)]
      for (const run of runs) expect(run).toEqual([...run].sort((a, b) => a - b))
      expect(runs[1].at(-1)).toBe(100)
    } finally {
      await store.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
