import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import iconv from 'iconv-lite'
import { afterAll, describe, expect, it } from 'vitest'
import { readCsvFile } from './read-csv.js'

const dir = mkdtempSync(join(tmpdir(), 'read-csv-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let n = 0
function csvFile(content: string | Buffer): string {
  const path = join(dir, `file-${++n}.csv`)
  writeFileSync(path, content)
  return path
}

const values = (workbook: Awaited<ReturnType<typeof readCsvFile>>) =>
  Object.fromEntries(workbook.sheets[0].cells.map((cell) => [cell.address, cell.value]))

describe('readCsvFile', () => {
  it('reads RFC 4180 quoting, numbers, percentages, currency, dates and booleans, with their formats', async () => {
    const workbook = await readCsvFile(
      csvFile('Line,Amount,Share,Date,Flag\r\n"Revenue, net","1,234.5",12%,2024-01-31,TRUE\r\n"He said ""hi""",$99.50,(3),3/15/2024,false\r\n=1+1,-7e2,,"multi\nline",N/A\r\n'),
    )
    expect(values(workbook)).toEqual({
      A1: 'Line', B1: 'Amount', C1: 'Share', D1: 'Date', E1: 'Flag',
      A2: 'Revenue, net', B2: 1234.5, C2: 0.12, D2: 45322, E2: true,
      A3: 'He said "hi"', B3: 99.5, C3: -3, D3: 45366, E3: false,
      A4: '=1+1', B4: -700, D4: 'multi\nline', E4: 'N/A',
    })
    const format = (address: string) => workbook.styles[workbook.sheets[0].cells.find((cell) => cell.address === address)!.style!]?.numberFormat
    expect(format('B2')).toBe('#,##0.00')
    expect(format('C2')).toBe('0%')
    expect(format('D2')).toBe('yyyy-mm-dd')
    expect(format('B3')).toBe('$#,##0.00')
    expect(workbook.sheets[0]).toMatchObject({ rowCount: 4, columnCount: 5 })
    expect(workbook.cellCount).toBe(19)
  })

  it('detects semicolons with decimal commas, tabs and pipes', async () => {
    expect(values(await readCsvFile(csvFile('a;b\n1.234,5;2,25\n')))).toEqual({ A1: 'a', B1: 'b', A2: 1234.5, B2: 2.25 })
    expect(values(await readCsvFile(csvFile('a\tb, c\n1\t2\n')))).toEqual({ A1: 'a', B1: 'b, c', A2: 1, B2: 2 })
    expect(values(await readCsvFile(csvFile('a|b\n1|x\n')))).toEqual({ A1: 'a', B1: 'b', A2: 1, B2: 'x' })
  })

  it('detects UTF-16 with a byte order mark and Windows-1252 without one', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode('Name,Price\nCafé,3.5\n', 'utf16le')])
    expect(values(await readCsvFile(csvFile(utf16)))).toEqual({ A1: 'Name', B1: 'Price', A2: 'Café', B2: 3.5 })
    const latin = iconv.encode('Société,Montant\nCrème brûlée à la française,12\nÉté,7\n', 'windows-1252')
    expect(values(await readCsvFile(csvFile(latin)))).toMatchObject({ A1: 'Société', A2: 'Crème brûlée à la française', A3: 'Été', B3: 7 })
  })

  it('refuses ragged rows with the line', async () => {
    await expect(readCsvFile(csvFile('a,b,c\n1,2,3\n4,5\n'))).rejects.toMatchObject({
      code: 'CSV_INVALID',
      message: "The CSV file's rows are ragged: the row on line 3 has 2 fields, unlike the first row. Every row needs the same number of fields.",
    })
  })

  it('refuses a NUL byte with its line, an unclosed quote and an empty file', async () => {
    await expect(readCsvFile(csvFile(Buffer.from('a,b\n1,2\n3,\u00004\n')))).rejects.toMatchObject({
      code: 'CSV_INVALID',
      message: 'The CSV file contains a NUL byte on line 3; it is not a text file. Export it again as CSV (UTF-8).',
    })
    await expect(readCsvFile(csvFile('a,b\n"1,2\n'))).rejects.toMatchObject({ code: 'CSV_INVALID', message: expect.stringMatching(/^The CSV file has a quote that is never closed/) })
    await expect(readCsvFile(csvFile('\n\n'))).rejects.toMatchObject({ code: 'NO_DATA', message: 'The CSV file has no data.' })
  })

  it('refuses past the cell limit', async () => {
    const rows = Array.from({ length: 600 }, (_, i) => `${i},${i * 2}`).join('\n')
    await expect(readCsvFile(csvFile(rows), { limits: { maxCells: 1000 } })).rejects.toMatchObject({ code: 'TOO_MANY_CELLS' })
  })
})
