/**
 * Structured references against an Excel table, compared with what Excel returns for the same sheet.
 * The table `Sales` is B2:E7 of Sheet1: a header row, four data rows and a totals row.
 *
 *   B        C      D      E
 * 2 Region   Units  Price  Amount                      (header row)
 * 3 North    10     2.5    =[@Units]*[@Price]   → 25
 * 4 South    20     3      …                    → 60
 * 5 East     30     4                           → 120
 * 6 West     40     1.5                         → 60
 * 7 Total    =SUBTOTAL(109,Sales[Units]) → 100   (totals row)
 */
import { describe, expect, it } from 'vitest'
import { EngineUsageError } from '../errors.js'
import { CellError } from '../values.js'
import { Engine } from './engine.js'

function salesWorkbook(options: { totalsRow?: boolean; headerRow?: boolean } = {}): Engine {
  const engine = new Engine()
  engine.addSheet('Sheet1')
  engine.addSheet('Other')
  const rows: Record<string, string | number> = {
    B2: 'Region', C2: 'Units', D2: 'Price', E2: 'Amount',
    B3: 'North', C3: 10, D3: 2.5,
    B4: 'South', C4: 20, D4: 3,
    B5: 'East', C5: 30, D5: 4,
    B6: 'West', C6: 40, D6: 1.5,
  }
  engine.setCells(Object.entries(rows).map(([address, input]) => ({ sheet: 'Sheet1', address, input })))
  const totalsRow = options.totalsRow ?? true
  engine.defineTable({ name: 'Sales', sheet: 'Sheet1', range: totalsRow ? 'B2:E7' : 'B2:E6', totalsRow })
  engine.setCells(['E3', 'E4', 'E5', 'E6'].map((address) => ({ sheet: 'Sheet1', address, input: '=[@Units]*[@Price]' })))
  if (totalsRow) engine.setCells([{ sheet: 'Sheet1', address: 'B7', input: 'Total' }, { sheet: 'Sheet1', address: 'C7', input: '=SUBTOTAL(109,Sales[Units])' }])
  return engine
}

function value(engine: Engine, address: string, sheet = 'Sheet1') {
  const result = engine.getValue(sheet, address)
  return result instanceof CellError ? result.code : result
}

function evaluate(engine: Engine, formula: string, address = 'H20', sheet = 'Sheet1') {
  const result = engine.evaluateFormula(sheet, address, formula).value
  return result instanceof CellError ? result.code : result
}

describe('structured references evaluate as in Excel', () => {
  const engine = salesWorkbook()

  it.each([
    // A column name alone is its data rows, header and totals left out.
    ['=SUM(Sales[Units])', 100],
    ['=ROWS(Sales[Units])', 4],
    // #All is the whole table, header and totals rows included.
    ['=ROWS(Sales[#All])', 6],
    ['=COLUMNS(Sales[#All])', 4],
    ['=COUNTA(Sales[#All])', 4 * 4 + 4 + 2],
    // #Data, the empty item list and the bare table name are the data rows.
    ['=ROWS(Sales[#Data])', 4],
    ['=ROWS(Sales[])', 4],
    ['=ROWS(Sales)', 4],
    ['=SUM(Sales)', 100 + 11 + 265],
    // #Headers and #Totals are one row each.
    ['=Sales[[#Headers],[Price]]', 'Price'],
    ['=INDEX(Sales[#Headers],1,2)', 'Units'],
    ['=Sales[[#Totals],[Units]]', 100],
    ['=Sales[[#Totals],[Region]]', 'Total'],
    // Headers with data, and data with totals.
    ['=ROWS(Sales[[#Headers],[#Data],[Units]])', 5],
    ['=COUNTA(Sales[[#Headers],[#Data],[Region]])', 5],
    ['=SUM(Sales[[#Data],[#Totals],[Units]])', 200],
    // A span of columns, in either order.
    ['=SUM(Sales[[Units]:[Price]])', 111],
    ['=SUM(Sales[[Price]:[Units]])', 111],
    ['=COLUMNS(Sales[[Units]:[Amount]])', 3],
    ['=SUMPRODUCT(Sales[Units],Sales[Price])', 265],
    ['=SUM(Sales[Amount])', 265],
    // Names compare case-insensitively.
    ['=SUM(sales[UNITS])', 100],
    ['=VLOOKUP("East",Sales,3,FALSE)', 4],
    ['=INDEX(Sales[Price],MATCH("South",Sales[Region],0))', 3],
    ['=SUMIFS(Sales[Amount],Sales[Units],">15")', 240],
    // INDIRECT reads structured references from text, as Excel's does.
    ['=SUM(INDIRECT("Sales[Units]"))', 100],
    ['=INDIRECT("Sales[[#Totals],[Units]]")', 100],
    // The reference operators take structured references: the intersection of a whole column with
    // the totals row is the column's total, and the data rows miss the totals row (#NULL!); a range
    // between two of them spans both.
    ['=Sales[[#All],[Units]] Sales[#Totals]', 100],
    ['=Sales[Units] Sales[#Totals]', '#NULL!'],
    ['=SUM(Sales[[#Headers],[Units]]:Sales[[#Totals],[Price]])', 100 + 11 + 100],
        // An unknown table or column is #REF!.
    ['=SUM(Nope[Units])', '#REF!'],
    ['=SUM(Sales[Nope])', '#REF!'],
    ['=SUM(Sales[[Units]:[Nope]])', '#REF!'],
  ])('%s is %s', (formula, expected) => {
    expect(evaluate(engine, formula)).toBe(expected)
  })

  it('calculates a column of [@Col] formulas row by row', () => {
    expect(['E3', 'E4', 'E5', 'E6'].map((address) => value(engine, address))).toEqual([25, 60, 120, 60])
    expect(value(engine, 'C7')).toBe(100)
  })

  it('binds [@Col] typed inside a table to that table', () => {
    expect(engine.getFormula('Sheet1', 'E3')).toBe('=Sales[@Units]*Sales[@Price]')
  })

  it('reads [@Col] from another sheet in the same row, and #VALUE! outside the data rows', () => {
    // Implicit intersection with the formula's row: Excel's rule for #This Row outside the table.
    expect(evaluate(engine, '=Sales[@Units]', 'H4')).toBe(20)
    expect(evaluate(engine, '=Sales[@Units]', 'A5', 'Other')).toBe(30)
    expect(evaluate(engine, '=Sales[@Units]', 'H2')).toBe('#VALUE!')
    expect(evaluate(engine, '=Sales[@Units]', 'H7')).toBe('#VALUE!')
    expect(evaluate(engine, '=SUM(Sales[@])', 'H5')).toBe(30 + 4 + 120)
    expect(evaluate(engine, '=SUM(Sales[@[Units]:[Price]])', 'H6')).toBe(41.5)
  })

  it('leaves [@Col] outside any table as #REF!', () => {
    expect(evaluate(engine, '=[@Units]', 'H3')).toBe('#REF!')
  })

  it('spills a column reference in a dynamic formula', () => {
    const copy = salesWorkbook()
    copy.setCell('Other', 'A1', '=Sales[Units]*2')
    expect([1, 2, 3, 4].map((row) => value(copy, 'A' + row, 'Other'))).toEqual([20, 40, 60, 80])
  })

  it('intersects a column reference with the row in a legacy formula', () => {
    const copy = salesWorkbook()
    copy.setCells([{ sheet: 'Sheet1', address: 'H4', input: '=Sales[Units]*2', legacy: true }])
    expect(value(copy, 'H4')).toBe(40)
  })
})

describe('tables without a header or totals row', () => {
  it('#Totals is #REF! when the table has no totals row; #Data with #Totals is the data', () => {
    const engine = salesWorkbook({ totalsRow: false })
    expect(evaluate(engine, '=SUM(Sales[[#Totals],[Units]])')).toBe('#REF!')
    expect(evaluate(engine, '=ROWS(Sales[#All])')).toBe(5)
    expect(evaluate(engine, '=SUM(Sales[[#Data],[#Totals],[Units]])')).toBe(100)
  })

  it('#Headers is #REF! when the header row is hidden', () => {
    const engine = new Engine()
    engine.addSheet('Sheet1')
    engine.setCells([
      { sheet: 'Sheet1', address: 'A1', input: 1 },
      { sheet: 'Sheet1', address: 'A2', input: 2 },
    ])
    engine.defineTable({ name: 'Bare', sheet: 'Sheet1', range: 'A1:A2', headerRow: false, columns: ['N'] })
    expect(evaluate(engine, '=Bare[#Headers]', 'C1')).toBe('#REF!')
    expect(evaluate(engine, '=SUM(Bare[N])', 'C1')).toBe(3)
    expect(evaluate(engine, '=SUM(Bare[#All])', 'C1')).toBe(3)
  })
})

describe('recalculation', () => {
  it('recalculates structured references when a cell of the table changes', () => {
    const engine = salesWorkbook()
    engine.setCell('Other', 'A1', '=SUM(Sales[Amount])')
    engine.setCell('Other', 'A2', '=ROWS(Sales)')
    engine.setCell('Sheet1', 'C4', 25)
    expect(value(engine, 'E4')).toBe(75)
    expect(value(engine, 'C7')).toBe(105)
    expect(value(engine, 'A1', 'Other')).toBe(280)
  })

  it('gives formulas written before the table its values once it is defined', () => {
    const engine = new Engine()
    engine.addSheet('Sheet1')
    engine.setCells([
      { sheet: 'Sheet1', address: 'A1', input: 'N' },
      { sheet: 'Sheet1', address: 'A2', input: 4 },
      { sheet: 'Sheet1', address: 'A3', input: 5 },
      { sheet: 'Sheet1', address: 'C1', input: '=SUM(T[N])' },
      { sheet: 'Sheet1', address: 'C2', input: '=SUM(T)' },
    ])
    expect(value(engine, 'C1')).toBe('#REF!')
    engine.defineTable({ name: 'T', sheet: 'Sheet1', range: 'A1:A3' })
    expect(value(engine, 'C1')).toBe(9)
    expect(value(engine, 'C2')).toBe(9)
    engine.setCell('Sheet1', 'A3', 6)
    expect(value(engine, 'C1')).toBe(10)
    expect(value(engine, 'C2')).toBe(10)
    engine.removeTable('T')
    expect(value(engine, 'C1')).toBe('#REF!')
    expect(value(engine, 'C2')).toBe('#NAME?')
  })

  it('follows a defined name that stands for a table column', () => {
    const engine = salesWorkbook()
    engine.defineName('UnitsColumn', '=Sales[Units]')
    engine.setCell('Other', 'A1', '=SUM(UnitsColumn)')
    expect(value(engine, 'A1', 'Other')).toBe(100)
    engine.insertRows('Sheet1', 4, 1)
    engine.setCell('Sheet1', 'C5', 7)
    expect(value(engine, 'A1', 'Other')).toBe(107)
  })
})

describe('rows and columns inserted and deleted', () => {
  it('grows the table when rows are inserted inside it', () => {
    const engine = salesWorkbook()
    engine.setCell('Other', 'A1', '=SUM(Sales[Units])')
    // Insert before row 5 (East): inside the data rows.
    engine.insertRows('Sheet1', 4, 2)
    expect(engine.getTables()[0].range).toBe('B2:E9')
    engine.setCells([
      { sheet: 'Sheet1', address: 'C5', input: 5 },
      { sheet: 'Sheet1', address: 'C6', input: 6 },
    ])
    expect(value(engine, 'A1', 'Other')).toBe(111)
    expect(value(engine, 'C9')).toBe(111)
    expect(evaluate(engine, '=ROWS(Sales)')).toBe(6)
    // The calculated column's formulas moved with their rows.
    expect(value(engine, 'E7')).toBe(120)
  })

  it('grows the data when rows are inserted at the totals row', () => {
    const engine = salesWorkbook()
    engine.insertRows('Sheet1', 6, 1)
    expect(engine.getTables()[0].range).toBe('B2:E8')
    engine.setCell('Sheet1', 'C7', 1)
    expect(value(engine, 'C8')).toBe(101)
  })

  it('moves the table when rows are inserted above it, and leaves it alone below', () => {
    const engine = salesWorkbook()
    engine.insertRows('Sheet1', 0, 3)
    expect(engine.getTables()[0].range).toBe('B5:E10')
    expect(evaluate(engine, '=SUM(Sales[Units])')).toBe(100)
    expect(evaluate(engine, '=Sales[@Units]', 'H7')).toBe(20)
    engine.insertRows('Sheet1', 10, 3)
    expect(engine.getTables()[0].range).toBe('B5:E10')
  })

  it('shrinks the table when rows inside it are deleted', () => {
    const engine = salesWorkbook()
    engine.setCell('Other', 'A1', '=SUM(Sales[Units])')
    engine.deleteRows('Sheet1', 3, 2)
    expect(engine.getTables()[0].range).toBe('B2:E5')
    expect(value(engine, 'A1', 'Other')).toBe(50)
    expect(value(engine, 'C5')).toBe(50)
  })

  it('removes the table when all of it is deleted', () => {
    const engine = salesWorkbook()
    engine.setCell('Other', 'A1', '=SUM(Sales[Units])')
    engine.deleteRows('Sheet1', 0, 10)
    expect(engine.getTables()).toEqual([])
    expect(value(engine, 'A1', 'Other')).toBe('#REF!')
  })

  it('adds a column named Column1 when a column is inserted inside the table', () => {
    const engine = salesWorkbook()
    engine.insertColumns('Sheet1', 3, 1)
    const table = engine.getTables()[0]
    expect(table.range).toBe('B2:F7')
    expect(table.columns).toEqual(['Region', 'Units', 'Column1', 'Price', 'Amount'])
    expect(evaluate(engine, '=SUM(Sales[Amount])')).toBe(265)
    expect(value(engine, 'F4')).toBe(60)
  })

  it('drops a deleted column; references to it become #REF!', () => {
    const engine = salesWorkbook()
    engine.setCell('Other', 'A1', '=SUM(Sales[Price])')
    engine.deleteColumns('Sheet1', 3, 1)
    expect(engine.getTables()[0].columns).toEqual(['Region', 'Units', 'Amount'])
    expect(value(engine, 'A1', 'Other')).toBe('#REF!')
  })
})

describe('moved tables', () => {
  it('moves a table cut and pasted whole, with its calculated column', () => {
    const engine = salesWorkbook()
    engine.setCell('Other', 'H1', '=SUM(Sales[Amount])')
    engine.moveRange('Sheet1', 'B2:E7', 'Other', 'A10')
    expect(engine.getTables()[0]).toMatchObject({ sheet: 'Other', range: 'A10:D15' })
    expect(value(engine, 'H1', 'Other')).toBe(265)
    expect(value(engine, 'D12', 'Other')).toBe(60)
    engine.setCell('Other', 'B12', 30)
    expect(value(engine, 'D12', 'Other')).toBe(90)
    expect(value(engine, 'H1', 'Other')).toBe(295)
    expect(value(engine, 'B15', 'Other')).toBe(110)
  })

  it('leaves a table in place when only part of it moves', () => {
    const engine = salesWorkbook()
    engine.moveRange('Sheet1', 'B3:C3', 'Other', 'A1')
    expect(engine.getTables()[0]).toMatchObject({ sheet: 'Sheet1', range: 'B2:E7' })
  })
})

describe('renamed columns', () => {
  it('follows a header typed over in the header cell', () => {
    const engine = salesWorkbook()
    engine.setCell('Other', 'A1', '=SUM(Sales[Units])')
    engine.setCell('Sheet1', 'C2', 'Quantity')
    expect(engine.getTables()[0].columns[1]).toBe('Quantity')
    expect(engine.getFormula('Other', 'A1')).toBe('=SUM(Sales[Quantity])')
    expect(engine.getFormula('Sheet1', 'E3')).toBe('=Sales[@Quantity]*Sales[@Price]')
    expect(value(engine, 'A1', 'Other')).toBe(100)
    expect(value(engine, 'E5')).toBe(120)
  })

  it('names a cleared header Column2 and a duplicate header Price2, as Excel does', () => {
    const engine = salesWorkbook()
    engine.setCell('Sheet1', 'C2', null)
    expect(engine.getTables()[0].columns[1]).toBe('Column2')
    engine.setCell('Sheet1', 'C2', 'price')
    expect(engine.getTables()[0].columns[1]).toBe('price2')
  })

  it('renames through the API and refuses a name another column has', () => {
    const engine = salesWorkbook()
    engine.defineName('P', '=Sales[Price]')
    engine.setCell('Other', 'A1', '=SUM(P)')
    engine.renameTableColumn('Sales', 'price', 'Unit Price')
    expect(engine.getNames()[0].formula).toBe('=Sales[Unit Price]')
    expect(engine.getFormula('Sheet1', 'E3')).toBe('=Sales[@Units]*Sales[@[Unit Price]]')
    expect(value(engine, 'A1', 'Other')).toBe(11)
    expect(() => engine.renameTableColumn('Sales', 'Units', 'unit price')).toThrow(EngineUsageError)
    expect(() => engine.renameTableColumn('Sales', 'Nope', 'X')).toThrow(EngineUsageError)
  })
})

describe('defineTable refuses what Excel refuses', () => {
  it('overlapping tables, a name taken by a defined name, wrong column counts, no data row', () => {
    const engine = salesWorkbook()
    expect(() => engine.defineTable({ name: 'Other1', sheet: 'Sheet1', range: 'E5:F9' })).toThrow(EngineUsageError)
    engine.defineName('Rate', '=0.1')
    expect(() => engine.defineTable({ name: 'Rate', sheet: 'Other', range: 'A1:A3' })).toThrow(EngineUsageError)
    expect(() => engine.defineName('Sales', '=1')).toThrow(EngineUsageError)
    expect(() => engine.defineTable({ name: 'T2', sheet: 'Other', range: 'A1:B3', columns: ['A'] })).toThrow(EngineUsageError)
    expect(() => engine.defineTable({ name: 'T2', sheet: 'Other', range: 'A1:B3', columns: ['A', 'a'] })).toThrow(EngineUsageError)
    expect(() => engine.defineTable({ name: 'T2', sheet: 'Other', range: 'A1:B1' })).toThrow(EngineUsageError)
    expect(() => engine.defineTable({ name: 'A1', sheet: 'Other', range: 'A1:B3' })).toThrow(EngineUsageError)
    expect(engine.getTables().map((table) => table.name)).toEqual(['Sales'])
  })

  it('names columns from the header row, Column1 where a header is empty', () => {
    const engine = new Engine()
    engine.addSheet('S')
    engine.setCells([{ sheet: 'S', address: 'A1', input: 'Name' }, { sheet: 'S', address: 'C1', input: 2024 }])
    engine.defineTable({ name: 'T', sheet: 'S', range: 'A1:C2' })
    expect(engine.getTables()[0].columns).toEqual(['Name', 'Column2', '2024'])
  })

  it('removes the tables of a removed sheet', () => {
    const engine = salesWorkbook()
    engine.setCell('Other', 'A1', '=SUM(Sales[Units])')
    engine.removeSheet('Sheet1')
    expect(engine.getTables()).toEqual([])
    expect(value(engine, 'A1', 'Other')).toBe('#REF!')
  })
})
