/**
 * Spilled arrays in an exported file, as Excel writes them: the anchor's formula over the range its
 * result spilled into, each spilled cell with its value (readers that do not calculate read them
 * there), and the spill operator stored as the function `_xlfn.ANCHORARRAY`.
 */
import JSZip from 'jszip'
import { describe, expect, it } from 'vitest'
import { WorkbookModel } from '../model/workbook-model.js'
import { loadXlsxIntoEngine } from '../xlsx/load-xlsx.js'
import { readXlsx } from '../xlsx/read-xlsx.js'
import { storedFormula } from './formula-storage.js'
import { writeXlsx } from './xlsx.js'
import { writeXlsxOffThread } from './xlsx-off-thread.js'

function model(): WorkbookModel {
  const workbook = new WorkbookModel({ sheets: [{ id: 's1', name: 'Model', columnWidths: {}, merges: [] }] })
  workbook.apply([
    {
      type: 'set-cells',
      sheet: 'Model',
      cells: [
        { address: 'A1', input: '=SEQUENCE(3,2)' },
        { address: 'D1', input: '=SUM(A1#)' },
        { address: 'E1', input: '=TRANSPOSE(A1#)*10' },
        { address: 'A6', input: '=2+2' },
      ],
    },
  ])
  return workbook
}

describe('storedFormula with the spill operator', () => {
  it('writes A1# as _xlfn.ANCHORARRAY(A1), and leaves error values and table items alone', () => {
    expect(storedFormula('SUM(A1#)')).toBe('SUM(_xlfn.ANCHORARRAY(A1))')
    expect(storedFormula("SUM('My Sheet'!$B$2#)+Sheet2!C3#")).toBe("SUM(_xlfn.ANCHORARRAY('My Sheet'!$B$2))+_xlfn.ANCHORARRAY(Sheet2!C3)")
    expect(storedFormula('IFERROR(A1,#N/A)+Sales[#Totals]')).toBe('IFERROR(A1,#N/A)+Sales[#Totals]')
    expect(storedFormula('Revenue2024')).toBe('Revenue2024')
  })
})

describe('xlsx export of spilled arrays', () => {
  it("writes each anchor over its spill range and the spilled cells' values", async () => {
    const bytes = await writeXlsx(model().snapshot('Book'))
    const sheet = await (await JSZip.loadAsync(bytes)).file('xl/worksheets/sheet1.xml')!.async('string')
    expect(sheet).toMatch(/<c r="A1"[^>]* cm="1"><f t="array" ref="A1:B3">_xlfn.SEQUENCE\(3,2\)<\/f><v>1<\/v><\/c>/)
    expect(sheet).toMatch(/<c r="E1"[^>]* cm="1"><f t="array" ref="E1:G2">TRANSPOSE\(_xlfn.ANCHORARRAY\(A1\)\)\*10<\/f>/)
    expect(sheet).toMatch(/<c r="B3"[^>]*><v>6<\/v><\/c>/)
    const read = await readXlsx(bytes)
    const values = Object.fromEntries(read.sheets[0].cells.map((cell) => [cell.address, cell.value]))
    expect(values).toMatchObject({ A1: 1, B1: 2, A3: 5, B3: 6, D1: 21, E1: 10, G2: 60 })
  })

  it('gives the same values when loaded again, with nothing in the way of the spills', async () => {
    const original = model()
    for (const bytes of [await writeXlsx(original.snapshot('Book')), await writeXlsxOffThread(original.snapshot('Book'))]) {
      const { engine } = await loadXlsxIntoEngine(bytes)
      for (const address of ['A1', 'B3', 'D1', 'E1', 'G2', 'A6']) expect(engine.getValue('Model', address)).toBe(original.engine.getValue('Model', address))
      engine.setCell('Model', 'A1', '=SEQUENCE(4,2)')
      expect(engine.getValue('Model', 'B4')).toBe(8)
      expect(engine.getValue('Model', 'D1')).toBe(36)
    }
  })
})
