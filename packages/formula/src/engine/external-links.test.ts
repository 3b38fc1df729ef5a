import { describe, expect, it } from 'vitest'
import { parseFormula } from '../parser/parser.js'
import { printFormula } from '../parser/printer.js'
import { CellError } from '../values.js'
import { Engine } from './engine.js'
import type { ExternalWorkbook } from './external-links.js'

const BUDGET: ExternalWorkbook = {
  target: 'file:///C:/Models/Budget%202024.xlsx',
  sheets: [
    { name: 'Sheet1', cells: { C8: 1250, A1: 1, A2: 2, A3: 3, B1: 'North' } },
    { name: 'Q1 Plan', cells: { B2: 10, B3: 20, B5: 40, B9: 90 } },
  ],
}
const RATES: ExternalWorkbook = { target: 'Rates.xlsx', sheets: [{ name: 'Q1', cells: { B2: 0.05, B3: null } }, { name: 'Old', cells: { A1: 7 }, refreshError: true }] }

function engineWith(cells: Record<string, string | number>, links: ExternalWorkbook[] = [BUDGET, RATES]): Engine {
  const engine = new Engine()
  engine.addSheet('Sheet1')
  engine.setExternalLinks(links)
  engine.setCells(Object.entries(cells).map(([address, input]) => ({ sheet: 'Sheet1', address, input })))
  return engine
}

function value(engine: Engine, address: string) {
  const result = engine.getValue('Sheet1', address)
  return result instanceof CellError ? result.code : result
}

describe('external references as text', () => {
  it.each([
    '=[1]Sheet1!$C$8',
    "='[1]Q1 Plan'!B2:B9",
    '=SUM([1]Sheet1!A1:A3)',
    '=[Budget.xlsx]Q1!B2',
    "='C:\\Models\\[Budget 2024.xlsx]Q1 Plan'!$B$2",
    "='[My Budget.xlsx]Q1'!B2",
    '=[1]!Rate',
    '=[2]Q1!B2*[1]Sheet1!A:A',
  ])('%s prints back unchanged', (text) => {
    expect(printFormula(parseFormula(text, 4, 4), 4, 4)).toBe(text)
  })

  it('drops quotes the prefix does not need, as Excel does', () => {
    expect(printFormula(parseFormula("='[Budget.xlsx]Q1'!B2"))).toBe('=[Budget.xlsx]Q1!B2')
  })

  it('keeps the workbook on both corners of a range', () => {
    const tree = parseFormula('=[1]Sheet1!A1:B2')
    expect(tree).toMatchObject({ type: 'range', sheet: '[1]Sheet1', kind: 'cells' })
  })

  it('moves relative references of an external reference when copied', () => {
    expect(printFormula(parseFormula('=[1]Sheet1!A1+[1]Sheet1!$A$1', 0, 0), 2, 1)).toBe('=[1]Sheet1!B3+[1]Sheet1!$A$1')
  })
})

describe('external references calculate from the cached values', () => {
  it('reads cells and ranges of the linked workbook by number and by file name', () => {
    const engine = engineWith({
      A1: '=[1]Sheet1!$C$8',
      A2: '=SUM([1]Sheet1!A1:A3)',
      A3: "=SUM('[1]Q1 Plan'!B2:B9)",
      A4: "='[Budget 2024.xlsx]Sheet1'!B1",
      A5: '=[Rates.xlsx]Q1!B2*100',
      A6: "='C:\\Elsewhere\\[rates.xlsx]q1'!B2",
      A7: "=COUNT('[1]Q1 Plan'!B2:B9)",
      A8: "=INDEX('[1]Q1 Plan'!B2:B9,4)",
      A9: "=VLOOKUP(40,'[1]Q1 Plan'!B2:B9,1,FALSE)",
    })
    expect(value(engine, 'A1')).toBe(1250)
    expect(value(engine, 'A2')).toBe(6)
    expect(value(engine, 'A3')).toBe(160)
    expect(value(engine, 'A4')).toBe('North')
    expect(value(engine, 'A5')).toBe(5)
    expect(value(engine, 'A6')).toBe(0.05)
    expect(value(engine, 'A7')).toBe(4)
    expect(value(engine, 'A8')).toBe(40)
    expect(value(engine, 'A9')).toBe(40)
  })

  it('gives #REF! where the file holds no value: an uncached cell, sheet, workbook or failed refresh', () => {
    const engine = engineWith({
      A1: '=[1]Sheet1!D1',
      A2: '=[1]Missing!A1',
      A3: '=[3]Sheet1!A1',
      A4: '=[Other.xlsx]Sheet1!A1',
      A5: '=[2]Old!A1',
      A6: '=SUM([1]Sheet1!Z1:Z9)',
      A7: '=[1]!Rate',
      A8: '=IFERROR([1]Sheet1!D1,"none")',
    })
    for (const address of ['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7']) expect(value(engine, address)).toBe('#REF!')
    expect(value(engine, 'A8')).toBe('none')
  })

  it('gives #REF! through INDIRECT, which Excel resolves only while the other workbook is open', () => {
    const engine = engineWith({ A1: '=INDIRECT("[1]Sheet1!C8")', A2: '=INDIRECT("\'[1]Q1 Plan\'!B2:B9")' })
    expect(value(engine, 'A1')).toBe('#REF!')
    expect(value(engine, 'A2')).toBe('#REF!')
  })

  it('reads a cell held without a value as empty', () => {
    const engine = engineWith({ A1: '=[2]Q1!B3', A2: '=[2]Q1!B3+1' })
    expect(value(engine, 'A1')).toBe(0)
    expect(value(engine, 'A2')).toBe(1)
  })

  it('recalculates when the links are set again, and not before', () => {
    const engine = engineWith({ A1: '=[1]Sheet1!$C$8*2', A2: '=A1+1' }, [])
    expect(value(engine, 'A1')).toBe('#REF!')
    const changes = engine.setExternalLinks([BUDGET])
    expect(value(engine, 'A1')).toBe(2500)
    expect(value(engine, 'A2')).toBe(2501)
    expect(changes.map((change) => change.address).sort()).toEqual(['A1', 'A2'])
  })

  it('keeps the formula text through row insertions, sheet renames and copies', () => {
    const engine = engineWith({ A1: '=1', A3: "=SUM('[1]Q1 Plan'!B2:B9)+A1", B3: '=[1]Sheet1!C8' })
    engine.insertRows('Sheet1', 0, 2)
    expect(engine.getFormula('Sheet1', 'A5')).toBe("=SUM('[1]Q1 Plan'!B2:B9)+A3")
    expect(value(engine, 'A5')).toBe(161)
    expect(engine.getFormula('Sheet1', 'B5')).toBe('=[1]Sheet1!C8')
    engine.renameSheet('Sheet1', 'Plan')
    expect(engine.getFormula('Plan', 'B5')).toBe('=[1]Sheet1!C8')
    expect(engine.getValue('Plan', 'B5')).toBe(1250)
    engine.copyRange('Plan', 'B5', 'Plan', 'C5')
    expect(engine.getFormula('Plan', 'C5')).toBe('=[1]Sheet1!D8')
    expect(engine.getValue('Plan', 'C5')).toBeInstanceOf(CellError)
  })

  it('does not confuse a local sheet with the linked workbook sheet of the same name', () => {
    const engine = engineWith({ C8: 5, A1: '=Sheet1!C8', A2: '=[1]Sheet1!C8' })
    expect(value(engine, 'A1')).toBe(5)
    expect(value(engine, 'A2')).toBe(1250)
    engine.setCell('Sheet1', 'C8', 6)
    expect(value(engine, 'A2')).toBe(1250)
  })

  it('lists the linked workbooks with the formula cells that refer to each', () => {
    const engine = engineWith({ A1: '=[1]Sheet1!C8', A2: "='[1]Q1 Plan'!B2+[1]Sheet1!A1", A3: '=[Rates.xlsx]Q1!B2', A4: '=1' })
    expect(engine.getExternalLinks()).toEqual([
      { index: 1, target: BUDGET.target, fileName: 'Budget 2024.xlsx', sheets: ['Sheet1', 'Q1 Plan'], formulaCells: 2 },
      { index: 2, target: 'Rates.xlsx', fileName: 'Rates.xlsx', sheets: ['Q1', 'Old'], formulaCells: 1 },
    ])
    expect(engine.getExternalWorkbooks()).toEqual([BUDGET, RATES])
  })

  it('refuses links without a file or with a bad address, keeping the previous ones', () => {
    const engine = engineWith({ A1: '=[1]Sheet1!C8' })
    expect(() => engine.setExternalLinks([{ target: '', sheets: [] }])).toThrow('An external workbook needs the name of its file')
    expect(() => engine.setExternalLinks([{ target: 'x.xlsx', sheets: [{ name: 'S', cells: { ZZZZ1: 1 } }] }])).toThrow('Invalid cell address')
    expect(value(engine, 'A1')).toBe(1250)
  })
})
