/**
 * Cell looks through an xlsx file: borders per edge with line and colour, vertical alignment, wrap,
 * indent, rotation and strikethrough are written and read back as they were.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CellStyle } from '@finsheet/contracts'
import { WorkbookModel } from '../model/workbook-model.js'
import { readXlsxFile } from '../xlsx/stream-xlsx.js'
import { writeXlsx } from './xlsx.js'

const LOOKS: Record<string, CellStyle> = {
  A1: { borders: { top: { line: 'thin' }, bottom: { line: 'double', color: '#1F4E79' } } },
  A2: { borders: { left: { line: 'medium', color: '#FF0000' }, right: { line: 'dashed' } }, fill: '#FFFF00' },
  A3: { verticalAlign: 'top', wrap: true, align: 'center' },
  A4: { indent: 2, align: 'left', strike: true },
  A5: { rotation: 45, verticalAlign: 'middle' },
  A6: { rotation: 255 },
}

describe('xlsx export of cell looks', () => {
  it('writes borders, alignment, wrap, indent, rotation and strikethrough, and reads them back', async () => {
    const model = new WorkbookModel({ sheets: [{ id: 's1', name: 'Looks', columnWidths: {}, merges: [] }] })
    model.apply([
      { type: 'set-cells', sheet: 'Looks', cells: Object.keys(LOOKS).map((address) => ({ address, input: address })) },
      ...Object.entries(LOOKS).map(([range, style]) => ({ type: 'format-cells' as const, sheet: 'Looks', ranges: [range], style })),
    ])
    const folder = mkdtempSync(join(tmpdir(), 'finsheet-looks-'))
    const path = join(folder, 'looks.xlsx')
    writeFileSync(path, await writeXlsx(model.snapshot('Book')))
    const read = await readXlsxFile(path).finally(() => rmSync(folder, { recursive: true, force: true }))
    const styleOf = (address: string) => read.styles[read.sheets[0].cells.find((cell) => cell.address === address)?.style ?? -1]
    expect(styleOf('A1').borders).toEqual({ top: { style: 'thin' }, bottom: { style: 'double', color: '#1F4E79' } })
    expect(styleOf('A2')).toMatchObject({ borders: { left: { style: 'medium', color: '#FF0000' }, right: { style: 'dashed' } }, fill: '#FFFF00' })
    expect(styleOf('A3')).toMatchObject({ verticalAlign: 'top', wrapText: true, align: 'center' })
    expect(styleOf('A4')).toMatchObject({ indent: 2, align: 'left', strike: true })
    expect(styleOf('A5')).toMatchObject({ textRotation: 45, verticalAlign: 'center' })
    expect(styleOf('A6')).toMatchObject({ textRotation: 255 })
  })

  it('patches borders edge by edge and removes an edge given as null', () => {
    const model = new WorkbookModel({ sheets: [{ id: 's1', name: 'S', columnWidths: {}, merges: [] }] })
    model.apply([{ type: 'format-cells', sheet: 'S', ranges: ['B2'], style: { borders: { top: { line: 'thin' }, left: { line: 'thick' } } } }])
    model.apply([{ type: 'format-cells', sheet: 'S', ranges: ['B2'], style: { borders: { bottom: { line: 'double' }, top: null }, indent: 0 } }])
    expect(model.styleAt('s1', 'B2')).toEqual({ borders: { left: { line: 'thick' }, bottom: { line: 'double' } } })
    model.apply([{ type: 'format-cells', sheet: 'S', ranges: ['B2'], style: { borders: null } }])
    expect(model.styleAt('s1', 'B2')).toBeUndefined()
  })
})

describe("the workbook's default font through an xlsx file", () => {
  it('is read from the first font, written back as it, and cells in another font keep theirs', async () => {
    const model = new WorkbookModel({ sheets: [{ id: 's1', name: 'Fonts', columnWidths: {}, merges: [] }] })
    model.apply([{ type: 'set-cells', sheet: 'Fonts', cells: [{ address: 'A1', input: 'plain' }, { address: 'A2', input: 'titled', style: { fontFamily: 'Arial', fontSize: 14 } }] }])
    const bytes = await writeXlsx({ ...model.snapshot('Fonts'), defaultFont: { family: 'Cambria', size: 10 } })
    const folder = mkdtempSync(join(tmpdir(), 'default-font-'))
    try {
      writeFileSync(join(folder, 'fonts.xlsx'), bytes)
      const read = await readXlsxFile(join(folder, 'fonts.xlsx'))
      expect(read.defaultFont).toEqual({ family: 'Cambria', size: 10 })
      const styleOf = (address: string) => read.styles[read.sheets[0].cells.find((cell) => cell.address === address)?.style ?? -1]
      expect(styleOf('A1')?.fontFamily).toBeUndefined()
      expect(styleOf('A2')).toMatchObject({ fontFamily: 'Arial', fontSize: 14 })
      // A file from Finsheet without a font of its own keeps exceljs's, Excel's default.
      writeFileSync(join(folder, 'plain.xlsx'), await writeXlsx(model.snapshot('Plain')))
      expect((await readXlsxFile(join(folder, 'plain.xlsx'))).defaultFont).toEqual({ family: 'Calibri', size: 11 })
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
})
