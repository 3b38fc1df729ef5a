/** SpreadsheetBench's scoring rules, on workbooks written with exceljs and read back as the harness reads them. */
import { describe, expect, it } from 'vitest'
import ExcelJS from 'exceljs'
import { answerCells, changesOutside, compareCellValue, compareWorkbooks, pythonRound2, readBenchWorkbook, type BenchWorkbook } from './spreadsheetbench.js'

async function book(sheets: Record<string, Record<string, ExcelJS.CellValue | { value: ExcelJS.CellValue; numFmt: string }>>): Promise<BenchWorkbook> {
  const workbook = new ExcelJS.Workbook()
  for (const [name, cells] of Object.entries(sheets)) {
    const sheet = workbook.addWorksheet(name)
    for (const [address, content] of Object.entries(cells)) {
      const cell = sheet.getCell(address)
      if (content !== null && typeof content === 'object' && 'numFmt' in content) {
        cell.value = content.value
        cell.numFmt = content.numFmt
      } else cell.value = content
    }
  }
  return readBenchWorkbook(Buffer.from(await workbook.xlsx.writeBuffer()))
}

describe('SpreadsheetBench scoring', () => {
  it('rounds numbers to 2 decimals as Python does: the exact binary value, ties to even', () => {
    expect(pythonRound2(2.675)).toBe(2.67)
    expect(pythonRound2(0.125)).toBe(0.12)
    expect(pythonRound2(0.375)).toBe(0.38)
    expect(pythonRound2(1.005)).toBe(1)
    expect(pythonRound2(-1.235)).toBe(-1.24)
    expect(pythonRound2(1234567.891)).toBe(1234567.89)
  })

  it('compares values as transform_value leaves them', () => {
    const number = (value: number) => ({ kind: 'number' as const, value })
    const text = (value: string) => ({ kind: 'text' as const, value })
    expect(compareCellValue(number(1.004), number(1))).toBe(true)
    expect(compareCellValue(text('12.5'), number(12.5))).toBe(true)
    expect(compareCellValue(text(' 12.499 '), number(12.5))).toBe(true)
    expect(compareCellValue({ kind: 'bool', value: true }, number(1))).toBe(true)
    expect(compareCellValue({ kind: 'bool', value: false }, text('0'))).toBe(true)
    expect(compareCellValue(text(''), null)).toBe(true)
    expect(compareCellValue(null, null)).toBe(true)
    expect(compareCellValue(text('Total'), text('total'))).toBe(false)
    expect(compareCellValue(text('Total'), number(1))).toBe(false)
    expect(compareCellValue(number(0), null)).toBe(false)
    expect(compareCellValue({ kind: 'datetime', serial: 45292.6 }, number(45293))).toBe(true)
  })

  it('reads cached formula results, dates as serial days, times as HH:MM, and answer_position as evaluation.py does', async () => {
    const answer = await book({
      Report: { A1: 'Total', B1: { formula: 'SUM(1,2)', result: 3 }, C1: { value: new Date(Date.UTC(2024, 0, 31)), numFmt: 'yyyy-mm-dd' }, D1: { value: 0.5, numFmt: 'hh:mm' } },
      Other: { A1: 'x' },
    })
    const output = await book({ Report: { A1: 'Total', B1: 3.001, C1: 45322, D1: '12:00' }, Other: { A1: 'y' } })
    expect(compareWorkbooks(answer, output, 'A1:D1')).toEqual({ passed: true, message: '' })
    expect(compareWorkbooks(answer, output, "Report!B1,'Other'!A1")).toMatchObject({ passed: false, message: expect.stringContaining('Other!A1') })
    expect(compareWorkbooks(answer, output, 'Missing!A1').message).toBe('worksheet not found')
    expect(compareWorkbooks(answer, output, 'A1, B1').passed).toBe(false)
    expect(compareWorkbooks(answer, output, 'Report!A1!B2').passed).toBe(false)
    expect(answerCells(answer, 'A1:B2')).toEqual([{ sheet: 'Report', cells: ['A1', 'A2', 'B1', 'B2'] }])
  })

  it('counts the cells changed outside answer_position', async () => {
    const input = await book({ Sheet1: { A1: 'Region', B1: 10, B2: 20 } })
    const output = await book({ Sheet1: { A1: 'Region', B1: 10, B2: 21, B3: 31, C1: 'note' } })
    const answer = await book({ Sheet1: { B3: 31 } })
    expect(changesOutside(input, output, answer, 'B3').sort()).toEqual(['Sheet1!B2', 'Sheet1!C1'])
  })
})
