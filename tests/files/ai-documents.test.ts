/** POST /processDocument and /analyze-document of the ai service, on PDFs the test makes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ServiceApp } from '@finsheet/platform'
import { createAiService, loadAiConfig } from '@finsheet/ai-service'
import { client, testUsers, type TestUsers } from './support/files-harness.js'
import { pdfBuffer, pngBytes } from './support/make-files.js'

let users: TestUsers
let app: ServiceApp
let ada: ReturnType<typeof client>

beforeAll(async () => {
  users = await testUsers('finsheet-ai-docs-')
  app = await createAiService(loadAiConfig({ DATA_DIR: users.dataDir, LOG_LEVEL: 'silent' }))
  ada = client(app, await users.tokenFor('ada'))
})
afterAll(async () => {
  await app?.close()
  users?.cleanup()
})

const statement = ['Income statement FY2024', 'Total revenue 1,000.0 900.0', 'Cost of revenue (400.0)', 'Operating income 250.0', 'Net income 150.0', 'Total equity 600', 'Total debt 300']

describe('processDocument', () => {
  it('answers the PDF extraction result: {label, value, notes} entries', async () => {
    const response = await ada.upload('/processDocument', { field: 'document', name: 'fy2024.pdf', bytes: await pdfBuffer({ lines: statement }), type: 'application/pdf' })
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    expect(body).toMatchObject({ success: true, pages: 1, fileName: 'fy2024.pdf' })
    expect(body.data[0]).toEqual({ label: 'Total revenue', value: 1000, notes: '900.0; page 1' })
    expect(body.data.map((entry: { label: string }) => entry.label)).toEqual([
      'Total revenue',
      'Cost of revenue',
      'Operating income',
      'Net income',
      'Total equity',
      'Total debt',
    ])
  })

  it("answers 422 'No data extracted from document' for an image-only PDF, and refuses other files", async () => {
    const scanned = await ada.upload('/processDocument', { field: 'document', name: 'scan.pdf', bytes: await pdfBuffer({ imageOnly: true }) })
    expect(scanned.statusCode).toBe(422)
    expect(scanned.json().error).toEqual({ code: 'NO_DATA_EXTRACTED', message: 'No data extracted from document' })
    const locked = await ada.upload('/processDocument', { field: 'document', name: 'locked.pdf', bytes: await pdfBuffer({ lines: statement, userPassword: 'x' }) })
    expect(locked.json().error.code).toBe('PASSWORD_PROTECTED')
    const image = await ada.upload('/processDocument', { field: 'document', name: 'photo.png', bytes: pngBytes(), type: 'image/png' })
    expect(image.statusCode).toBe(400)
    const disguised = await ada.upload('/processDocument', { field: 'document', name: 'photo.pdf', bytes: pngBytes() })
    expect(disguised.statusCode).toBe(422)
    expect(disguised.json().error.code).toBe('TYPE_MISMATCH')
    expect((await app.inject({ method: 'POST', url: '/processDocument' })).statusCode).toBe(401)
  })
})

describe('analyze-document', () => {
  it('adds the key statement figures and the ratios they give', async () => {
    const response = await ada.upload('/analyze-document', { field: 'document', name: 'fy2024.pdf', bytes: await pdfBuffer({ lines: statement }) })
    expect(response.statusCode, response.body).toBe(200)
    const { analysis } = response.json()
    expect(analysis.keyFigures).toEqual({ revenue: 1000, costOfRevenue: -400, operatingIncome: 250, netIncome: 150, equity: 600, debt: 300, grossProfit: 600 })
    expect(analysis.ratios.grossMargin).toBeCloseTo(0.6)
    expect(analysis.ratios.operatingMargin).toBeCloseTo(0.25)
    expect(analysis.ratios.netMargin).toBeCloseTo(0.15)
    expect(analysis.ratios.debtToEquity).toBeCloseTo(0.5)
    expect(analysis.ratios.returnOnEquity).toBeCloseTo(0.25)
    expect(analysis.summary).toMatch(/^Extracted 6 entries from 1 page; key figures: revenue 1,000/)
  })
})
