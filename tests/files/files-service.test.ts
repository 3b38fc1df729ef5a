/**
 * The files service on the embedded adapters (SQLite documents and jobs, blobs on disk), its worker
 * running in the same process: every route, and every bad file of the import issue failing with a
 * clear error, nothing half-made left behind and the process still serving.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createSqliteDocumentStore,
  createTokenVerifier,
  FsBlobStore,
  SqliteJobQueues,
  type ServiceApp,
} from '@finsheet/platform'
import { INVALID_FILE_TYPE_MESSAGE, type FileRecord } from '@finsheet/contracts'
import { buildFilesApp, createFilesService, loadFilesConfig } from '@finsheet/files-service'
import { client, testUsers, type TestUsers } from './support/files-harness.js'
import { manyCellsXlsx, multipart, ole2File, pdfBuffer, pngBytes, sampleWorkbook, xlsxBuffer, zipBomb } from './support/make-files.js'
import { readFile } from 'node:fs/promises'

let users: TestUsers
let app: ServiceApp
let alice: ReturnType<typeof client>
let bob: ReturnType<typeof client>

beforeAll(async () => {
  users = await testUsers()
  // No spreadsheet service answers here: these tests stop before a workbook would be stored.
  app = await createFilesService(loadFilesConfig({ DATA_DIR: users.dataDir, SPREADSHEET_URL: 'http://127.0.0.1:9', LOG_LEVEL: 'silent' }))
  alice = client(app, await users.tokenFor('alice'))
  bob = client(app, await users.tokenFor('bob'))
})
afterAll(async () => {
  await app?.close()
  users?.cleanup()
})


async function uploadOk(who: ReturnType<typeof client>, name: string, bytes: Buffer, type?: string) {
  const response = await who.upload('/upload', { name, bytes, type })
  expect(response.statusCode, response.body).toBe(201)
  return response.json() as { success: true; file: FileRecord; jobId: string }
}

describe('upload', () => {
  it('stores the file under users/{uid}/files/{timestamp}-{name} and answers the record and the job at once', async () => {
    const bytes = await pdfBuffer({ lines: ['Total revenue 1,234.5'] })
    const before = Date.now()
    const { file, jobId } = await uploadOk(alice, 'Annual report.pdf', bytes, 'application/pdf')
    expect(file).toMatchObject({
      name: 'Annual report.pdf',
      size: bytes.length,
      mimeType: 'application/pdf',
      kind: 'pdf',
      isPdf: true,
      isExcel: false,
      isBackendProcessed: true,
      processed: false,
      processedData: null,
      workbookId: null,
    })
    expect(file.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(Date.parse(file.createdAt)).toBeGreaterThanOrEqual(before - 1000)
    expect(file.storagePath).toMatch(/^users\/alice\/files\/\d{13}-Annual report\.pdf$/)
    expect(jobId).toBe(`process-${file.id}`)
    const stored = await readFile(join(users.dataDir, 'blobs', 'objects', ...file.storagePath.split('/')))
    expect(stored.equals(bytes)).toBe(true)
  })

  it('accepts by MIME type when the name has no known extension', async () => {
    const { file } = await uploadOk(alice, 'statement', await pdfBuffer({ lines: ['Net income 10'] }), 'application/pdf')
    expect(file.kind).toBe('pdf')
  })

  it('makes names with ../ and control characters safe', async () => {
    const { file } = await uploadOk(alice, '../../etc/\u0000pass\u202ewd\u0007.pdf', await pdfBuffer({ lines: ['Cash 5'] }), 'application/pdf')
    expect(file.name).toBe('passwd.pdf')
    expect(file.storagePath).toMatch(/^users\/alice\/files\/\d+-passwd\.pdf$/)
    const dotted = await uploadOk(alice, '..\\..\\..pdf.pdf', await pdfBuffer({ lines: ['Cash 5'] }), 'application/pdf')
    expect(dotted.file.name).toBe('pdf.pdf')
  })

  it("refuses other types with the file manager's message and stores nothing", async () => {
    const listBefore = (await alice.get('/list')).json().total
    const response = await alice.upload('/upload', { name: 'notes.txt', bytes: Buffer.from('hello'), type: 'text/plain' })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error: { code: 'INVALID_FILE_TYPE', message: INVALID_FILE_TYPE_MESSAGE } })
    expect(INVALID_FILE_TYPE_MESSAGE).toBe('Invalid file type. Please upload an Excel file (.xlsx, .xls, .csv) or a PDF document (.pdf)')
    expect((await alice.get('/list')).json().total).toBe(listBefore)
  })

  it('refuses a file whose content lies about its extension', async () => {
    const cases: Array<[string, Buffer, string]> = [
      ['model.xlsx', await pdfBuffer({ lines: ['x 1'] }), "The file's content does not match its type: it should be an Excel workbook (.xlsx) but is a PDF document."],
      ['scan.pdf', pngBytes(), "The file's content does not match its type: it should be a PDF document (.pdf) but is a binary file."],
      ['data.csv', await sampleWorkbook(), "The file's content does not match its type: it should be a CSV file (.csv) but is a zip archive."],
    ]
    for (const [name, bytes, message] of cases) {
      const response = await alice.upload('/upload', { name, bytes })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ error: { code: 'TYPE_MISMATCH', message } })
    }
    const names = (await alice.get('/list')).json().files.map((file: FileRecord) => file.name)
    expect(names).not.toContain('model.xlsx')
    expect(names).not.toContain('scan.pdf')
  })

  it('answers a missing file, an empty file, a non-multipart body and a missing token', async () => {
    const fieldsOnly = await multipart({ note: 'no file' })
    const none = await app.inject({ method: 'POST', url: '/upload', headers: { authorization: `Bearer ${await users.tokenFor('alice')}`, ...fieldsOnly.headers }, payload: fieldsOnly.payload })
    expect(none.statusCode).toBe(400)
    expect(none.json().error).toEqual({ code: 'NO_FILE', message: 'Please select a file to upload' })
    const empty = await alice.upload('/upload', { name: 'empty.csv', bytes: Buffer.alloc(0) })
    expect(empty.json().error).toEqual({ code: 'EMPTY_FILE', message: 'The file is empty' })
    const json = await alice.post('/upload', { file: 'x' })
    expect(json.statusCode).toBe(415)
    const anonymous = await app.inject({ method: 'POST', url: '/upload' })
    expect(anonymous.statusCode).toBe(401)
  })
})

describe('size limit', () => {
  let limited: ServiceApp
  let blobs: FsBlobStore
  beforeAll(async () => {
    const dir = join(users.dataDir, 'limited')
    blobs = new FsBlobStore({ root: join(dir, 'blobs'), downloadBaseUrl: '/download' })
    limited = await buildFilesApp({
      verifier: createTokenVerifier(loadFilesConfig({ DATA_DIR: users.dataDir })),
      store: await createSqliteDocumentStore({ path: join(dir, 'files.sqlite') }),
      blobs,
      jobs: new SqliteJobQueues({ path: join(dir, 'jobs.sqlite') }),
      uploadLimitBytes: 10_000,
    })
  })
  afterAll(async () => limited?.close())

  it('answers 413 past the limit, keeps exactly the limit, and leaves no blob behind', async () => {
    const who = client(limited, await users.tokenFor('carol'))
    const tooBig = await who.upload('/upload', { name: 'big.csv', bytes: Buffer.alloc(10_001, 0x31) })
    expect(tooBig.statusCode).toBe(413)
    expect(tooBig.json().error).toEqual({ code: 'FILE_TOO_LARGE', message: 'The file is larger than the 10000 bytes upload limit' })
    expect(await blobs.list('users/carol/')).toEqual([])
    const exact = await who.upload('/upload', { name: 'exact.csv', bytes: Buffer.alloc(10_000, 0x31) })
    expect(exact.statusCode).toBe(201)
  })
})

describe('list, get, download and delete', () => {
  it("lists the user's files newest first, with the tabs, and never another user's", async () => {
    const pdf = await uploadOk(bob, 'b1.pdf', await pdfBuffer({ lines: ['Revenue 1'] }))
    await new Promise((resolve) => setTimeout(resolve, 5))
    const csv = await uploadOk(bob, 'b2.csv', Buffer.from('a,b\n1,2\n'))
    const all = (await bob.get('/list')).json()
    expect(all.files.map((file: FileRecord) => file.id)).toEqual([csv.file.id, pdf.file.id])
    expect((await bob.get('/list?type=excel')).json().files.map((file: FileRecord) => file.name)).toEqual(['b2.csv'])
    expect((await bob.get('/list?type=pdf')).json().files.map((file: FileRecord) => file.name)).toEqual(['b1.pdf'])
    expect((await bob.get('/list?type=other')).json().files).toEqual([])
    expect((await alice.get('/list')).json().files.map((file: FileRecord) => file.id)).not.toContain(pdf.file.id)
    expect((await bob.get('/list?type=spreadsheets')).statusCode).toBe(400)
  })

  it('gets a file with a short-lived download link that serves its bytes', async () => {
    const bytes = await pdfBuffer({ lines: ['Assets 99'] })
    const { file } = await uploadOk(alice, 'assets.pdf', bytes)
    const got = await alice.get(`/file/${file.id}`)
    expect(got.statusCode).toBe(200)
    const record = got.json().file as FileRecord
    expect(record.downloadUrl).toMatch(/^\/api\/files\/download\?key=/)
    const link = new URL(record.downloadUrl as string, 'http://localhost')
    const download = await app.inject({ method: 'GET', url: `/download${link.search}` })
    expect(download.statusCode).toBe(200)
    expect(download.rawPayload.equals(bytes)).toBe(true)
    expect(download.headers['content-disposition']).toBe("attachment; filename*=UTF-8''assets.pdf")
    link.searchParams.set('signature', '0'.repeat(64))
    expect((await app.inject({ method: 'GET', url: `/download${link.search}` })).statusCode).toBe(403)
    expect((await bob.get(`/file/${file.id}`)).statusCode).toBe(404)
    expect((await alice.get('/file/no-such-file')).json().error.code).toBe('FILE_NOT_FOUND')
  })

  it('deletes the blob and the record; a second delete is 404; another user cannot', async () => {
    const { file } = await uploadOk(alice, 'gone.pdf', await pdfBuffer({ lines: ['Debt 3'] }))
    expect((await bob.delete(`/delete/${file.id}`)).statusCode).toBe(404)
    const deleted = await alice.delete(`/delete/${file.id}`)
    expect(deleted.statusCode).toBe(200)
    expect(deleted.json()).toEqual({ success: true, id: file.id })
    expect((await alice.get(`/file/${file.id}`)).statusCode).toBe(404)
    expect((await alice.get('/list')).json().files.map((f: FileRecord) => f.id)).not.toContain(file.id)
    await expect(readFile(join(users.dataDir, 'blobs', 'objects', ...file.storagePath.split('/')))).rejects.toThrow()
    const again = await alice.delete(`/delete/${file.id}`)
    expect(again.statusCode).toBe(404)
    expect(again.json().error.code).toBe('FILE_NOT_FOUND')
  })
})

describe('concurrent deletion', () => {
  it('answers 409 CONCURRENT_DELETION while a delete of the same file is pending', async () => {
    const dir = join(users.dataDir, 'gated')
    const real = new FsBlobStore({ root: join(dir, 'blobs'), downloadBaseUrl: '/download' })
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    // The same store, its delete held until the test lets it go.
    const gated = Object.create(real) as FsBlobStore
    gated.delete = async (key: string) => {
      await gate
      return real.delete(key)
    }
    const gatedApp = await buildFilesApp({
      verifier: createTokenVerifier(loadFilesConfig({ DATA_DIR: users.dataDir })),
      store: await createSqliteDocumentStore({ path: join(dir, 'files.sqlite') }),
      blobs: gated,
      jobs: new SqliteJobQueues({ path: join(dir, 'jobs.sqlite') }),
    })
    try {
      const who = client(gatedApp, await users.tokenFor('dave'))
      const upload = await who.upload('/upload', { name: 'twice.csv', bytes: Buffer.from('a\n1\n') })
      const id = upload.json().file.id
      const first = who.delete(`/delete/${id}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
      const second = await who.delete(`/delete/${id}`)
      expect(second.statusCode).toBe(409)
      expect(second.json().error).toEqual({ code: 'CONCURRENT_DELETION', message: 'The file is already being deleted' })
      open()
      expect((await first).statusCode).toBe(200)
      expect((await who.delete(`/delete/${id}`)).statusCode).toBe(404)
    } finally {
      open()
      await gatedApp.close()
    }
  })
})

describe('processing PDFs', () => {
  it('extracts label, value and notes entries, with the job reaching 100%', async () => {
    const { file, jobId } = await uploadOk(alice, 'income.pdf', await pdfBuffer({ lines: ['Income statement', 'Total revenue 1,234.5', 'Net income (12.5)'] }))
    const job = await alice.job(jobId)
    expect(job).toMatchObject({ state: 'completed', progress: 100, fileId: file.id, error: null })
    expect(job.result?.data).toEqual([
      { label: 'Total revenue', value: 1234.5, notes: 'page 1' },
      { label: 'Net income', value: -12.5, notes: 'page 1' },
    ])
    const record = (await alice.get(`/file/${file.id}`)).json().file as FileRecord
    expect(record).toMatchObject({ status: 'processed', processed: true, workbookId: null })
    expect(record.processedData?.data).toHaveLength(2)
    expect((await bob.get(`/jobs/${jobId}`)).statusCode).toBe(404)
  })

  it("fails an image-only PDF with 'No data extracted from document' and a password-protected one clearly", async () => {
    const image = await uploadOk(alice, 'scan.pdf', await pdfBuffer({ imageOnly: true }))
    const locked = await uploadOk(alice, 'locked.pdf', await pdfBuffer({ lines: ['Revenue 10'], userPassword: 'secret' }))
    const imageJob = await alice.job(image.jobId)
    expect(imageJob).toMatchObject({ state: 'failed', error: 'No data extracted from document', attemptsMade: 1 })
    expect((await alice.get(`/file/${image.file.id}`)).json().file).toMatchObject({ status: 'failed', error: 'No data extracted from document', processed: false })
    expect(await alice.job(locked.jobId)).toMatchObject({ state: 'failed', error: 'This PDF is password-protected. Remove the password and upload it again.' })
  })

  it('refuses to import a PDF as a workbook', async () => {
    const { file } = await uploadOk(alice, 'figures.pdf', await pdfBuffer({ lines: ['Revenue 10'] }))
    const response = await alice.post('/import', { fileId: file.id })
    expect(response.statusCode).toBe(400)
    expect(response.json().error.code).toBe('NOT_IMPORTABLE')
    expect((await alice.post('/import', { fileId: 'missing' })).statusCode).toBe(404)
  })
})

describe('bad spreadsheets', () => {
  async function failure(name: string, bytes: Buffer) {
    const { file, jobId } = await uploadOk(alice, name, bytes)
    const job = await alice.job(jobId)
    expect(job.state).toBe('failed')
    const record = (await alice.get(`/file/${file.id}`)).json().file as FileRecord
    expect(record).toMatchObject({ status: 'failed', workbookId: null, processedData: null })
    expect(record.error).toBe(job.error)
    return job
  }

  it('a truncated xlsx', async () => {
    const whole = await sampleWorkbook()
    const job = await failure('truncated.xlsx', whole.subarray(0, Math.floor(whole.length * 0.6)))
    expect(job.error).toMatch(/^The file is not a readable xlsx workbook \(it is damaged or truncated/)
    expect(job.attemptsMade).toBe(1)
  })

  it('a corrupt sheet inside a valid zip', async () => {
    const good = await xlsxBuffer((workbook) => workbook.addWorksheet('S').addRow([1, 2, 3]))
    const JSZip = (await import('jszip')).default
    const zip = await JSZip.loadAsync(good)
    zip.file('xl/worksheets/sheet1.xml', '<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></row>')
    const job = await failure('corrupt.xlsx', await zip.generateAsync({ type: 'nodebuffer' }))
    expect(job.error).toMatch(/^The workbook is damaged: its part xl\/worksheets\/sheet1\.xml could not be read/)
  })

  it('a zip bomb, refused from its declared sizes before inflating', async () => {
    const bomb = await zipBomb(64)
    expect(bomb.length).toBeLessThan(1024 * 1024)
    const job = await failure('bomb.xlsx', bomb)
    expect(job.error).toMatch(/^The file's part xl\/worksheets\/sheet1\.xml would inflate \d+ times to 64 MB; it looks like a zip bomb and was not opened\.$/)
  })

  it('an xlsx with 10 million cells, refused before inflating with memory bounded', async () => {
    const path = join(users.dataDir, 'ten-million.xlsx')
    await manyCellsXlsx(path, 1_000_000, 10)
    const bytes = await readFile(path)
    expect(bytes.length).toBeLessThan(50 * 1024 * 1024)
    // The worker process may hold other suites' memory already, so what counts is what this job adds:
    // inflating ten million cells would take gigabytes.
    const rssBefore = process.memoryUsage().rss
    let rssPeak = rssBefore
    const sampler = setInterval(() => { rssPeak = Math.max(rssPeak, process.memoryUsage().rss) }, 20)
    const job = await failure('ten-million.xlsx', bytes).finally(() => clearInterval(sampler))
    expect(job.error).toMatch(/^The workbook inflates to \d+ MB, more than the 256 MB one import takes\. Split it into smaller workbooks\.$/)
    expect(rssPeak - rssBefore).toBeLessThan(512 * 1024 * 1024)
  }, 120_000)

  it('a legacy .xls, and a password-protected xlsx', async () => {
    const xls = await failure('old.xls', ole2File())
    expect(xls.error).toBe('Excel 97–2003 workbooks (.xls) cannot be imported. Open the file in Excel or LibreOffice, save it as an Excel workbook (.xlsx), and upload that.')
    const locked = await failure('locked.xlsx', ole2File({ encrypted: true }))
    expect(locked.error).toBe('This workbook is password-protected. Remove the password in Excel, save it, and upload it again.')
  })

  it('a CSV with ragged rows, and one with a NUL byte (at its start: refused on upload; further in: by the job)', async () => {
    const ragged = await failure('ragged.csv', Buffer.from('a,b,c\n1,2,3\n4,5\n'))
    expect(ragged.error).toBe("The CSV file's rows are ragged: the row on line 3 has 2 fields, unlike the first row. Every row needs the same number of fields.")
    const early = await alice.upload('/upload', { name: 'nul.csv', bytes: Buffer.from('a,b\n1,2\n3,\u00004\n') })
    expect(early.statusCode).toBe(400)
    expect(early.json().error.message).toBe("The file's content does not match its type: it should be a CSV file (.csv) but is a binary file.")
    const rows = Array.from({ length: 2000 }, (_, i) => `${i},${i * 2}`).join('\n')
    const late = await failure('late-nul.csv', Buffer.from(`a,b\n${rows}\n7,\u00008\n`))
    expect(late.error).toBe('The CSV file contains a NUL byte on line 2002; it is not a text file. Export it again as CSV (UTF-8).')
  })

  it('leaves the service up and working after every bad file', async () => {
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200)
    const { jobId } = await uploadOk(alice, 'after.pdf', await pdfBuffer({ lines: ['Equity 7'] }))
    expect((await alice.job(jobId)).state).toBe('completed')
  })
})
