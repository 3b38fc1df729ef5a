import PDFDocument from 'pdfkit'
import { describe, expect, it } from 'vitest'
import { entryFromLine, extractPdfEntries, NO_DATA_EXTRACTED } from './extract-pdf.js'

/** A PDF made with pdfkit: text lines, an image only, or encrypted with a user password. */
export function makePdf(options: { lines?: string[]; imageOnly?: boolean; userPassword?: string }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ userPassword: options.userPassword, pdfVersion: options.userPassword ? '1.7' : undefined })
    const chunks: Buffer[] = []
    doc.on('data', (chunk: Buffer) => chunks.push(chunk))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
    if (options.imageOnly) doc.rect(50, 50, 200, 100).fill('#336699')
    for (const line of options.lines ?? []) doc.text(line)
    doc.end()
  })
}

describe('entryFromLine', () => {
  it('reads statement lines into label, value and notes', () => {
    expect(entryFromLine('Total revenue 1,234.5')).toEqual({ label: 'Total revenue', value: 1234.5, notes: '' })
    expect(entryFromLine('Net loss (3,200) 1,100')).toEqual({ label: 'Net loss', value: -3200, notes: '1,100' })
    expect(entryFromLine('Gross margin: 42.5%')).toEqual({ label: 'Gross margin', value: 0.425, notes: '' })
    expect(entryFromLine('Cash and equivalents ........ $ 812')).toEqual({ label: 'Cash and equivalents', value: 812, notes: '' })
    expect(entryFromLine('Consolidated statement of income')).toBeUndefined()
    expect(entryFromLine('2023 2024')).toBeUndefined()
  })
})

describe('extractPdfEntries', () => {
  it('extracts entries from each page of a text PDF', async () => {
    const pdf = await makePdf({ lines: ['Income statement', 'Total revenue 1,234.5', 'Operating expenses (800)', 'EBITDA 434.5 in thousands'] })
    const result = await extractPdfEntries(pdf)
    expect(result.data).toEqual([
      { label: 'Total revenue', value: 1234.5, notes: 'page 1' },
      { label: 'Operating expenses', value: -800, notes: 'page 1' },
      { label: 'EBITDA', value: 434.5, notes: 'in thousands; page 1' },
    ])
    expect(result.pages).toBe(1)
  })

  it("answers 'No data extracted from document' for an image-only PDF", async () => {
    await expect(extractPdfEntries(await makePdf({ imageOnly: true }))).rejects.toMatchObject({ code: 'NO_DATA', message: NO_DATA_EXTRACTED })
  })

  it('refuses a password-protected PDF and a damaged one', async () => {
    const locked = await makePdf({ lines: ['Total revenue 10'], userPassword: 'secret' })
    await expect(extractPdfEntries(locked)).rejects.toMatchObject({
      code: 'PASSWORD_PROTECTED',
      message: 'This PDF is password-protected. Remove the password and upload it again.',
    })
    const whole = await makePdf({ lines: ['Total revenue 10'] })
    await expect(extractPdfEntries(whole.subarray(0, 300))).rejects.toMatchObject({ code: expect.stringMatching(/CORRUPT_FILE|NO_DATA/) })
    await expect(extractPdfEntries(Buffer.from('PK\u0003\u0004 not a pdf'))).rejects.toMatchObject({ code: 'TYPE_MISMATCH' })
  })
})
