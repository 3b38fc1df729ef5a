import { describe, expect, it } from 'vitest'
import { columnToLetters } from '../address/a1.js'
import { translateFormula } from '../parser/translate.js'
import { CellError } from '../values.js'
import type { Value } from '../values.js'
import { createBuiltinRegistry } from '../functions/index.js'
import type { FunctionDefinition } from '../functions/types.js'
import { Engine } from './engine.js'
import type { EngineOptions } from './engine.js'

function sheet(cells: Record<string, string | number>, options?: EngineOptions): Engine {
  const engine = new Engine(options)
  engine.addSheet('Sheet1')
  engine.setCells(Object.entries(cells).map(([address, input]) => ({ sheet: 'Sheet1', address, input })))
  return engine
}

function v(engine: Engine, address: string, name = 'Sheet1') {
  const value = engine.getValue(name, address)
  return value instanceof CellError ? value.code : value
}

describe('dynamic arrays', () => {
  it('spills an array into the cells below and to the right', () => {
    const engine = sheet({ A1: '={1,2,3;4,5,6}' })
    expect([v(engine, 'A1'), v(engine, 'B1'), v(engine, 'C1'), v(engine, 'A2'), v(engine, 'C2')]).toEqual([1, 2, 3, 4, 6])
    expect(engine.getCell('Sheet1', 'B2')).toMatchObject({ input: '', value: 5, spilled: true })
  })

  it('spills operators over ranges and feeds readers of the spilled cells', () => {
    const engine = sheet({ A1: 1, A2: 2, A3: 3, B1: '=A1:A3*10', C3: '=B3+1', D1: '=SUM(B1#)' })
    expect([v(engine, 'B1'), v(engine, 'B2'), v(engine, 'B3'), v(engine, 'C3'), v(engine, 'D1')]).toEqual([10, 20, 30, 31, 60])
    const changes = engine.setCell('Sheet1', 'A3', 4)
    expect(v(engine, 'C3')).toBe(41)
    expect(v(engine, 'D1')).toBe(70)
    expect(changes.map((change) => change.address).sort()).toEqual(['A3', 'B3', 'C3', 'D1'])
  })

  it('pairs whole columns with conditions computed over every row, as Excel does, without spilling a million empty rows', () => {
    const cells: Record<string, string | number> = {}
    for (let row = 1; row <= 6; row++) {
      cells[`A${row}`] = row % 3 === 0 ? 'y' : 'x'
      cells[`B${row}`] = row
    }
    const engine = sheet({
      ...cells,
      D1: '=SUM(FILTER(B:B,A:A="x"))',
      D2: '=ROWS(FILTER(B:B,A:A="y"))',
      D3: '=ROWS(UNIQUE(A:A))',
      D4: '=ROWS(SORT(B:B))',
      D5: '=SUMPRODUCT((A:A="x")*B:B)',
      D6: '=XLOOKUP(1,(A:A="y")*(B:B>3),B:B)',
      D7: '=COUNTIF(A:A,"x")',
      D8: '=INDEX(SORT(B:B,,-1),1)',
      D9: '=TAKE(B:B+1,-1)',
      D10: '=INDEX(SORTBY(B:B,-B:B),1)',
      // Whole columns are a million rows: on a busy shared machine they may take more than a formula's default second.
    }, { limits: { formulaTimeMs: 30_000, recalculationTimeMs: 120_000 } })
    expect(v(engine, 'D10')).toBe(6)
    // UNIQUE lists the empty cells too and the last row of B:B+1 is 1, as in Excel; SORT stops a whole
    // column at its used part, where Excel would spill a million rows of zeros after the data.
    expect(['D1', 'D2', 'D3', 'D4', 'D5', 'D6', 'D7', 'D8', 'D9'].map((a) => v(engine, a))).toEqual([12, 2, 3, 6, 12, 6, 4, 6, 1])
  })

  it('rewrites a spilled cell whose value changes only in its sign of zero, as a fresh calculation shows it', () => {
    const engine = sheet({ B1: -1, C1: '=A1:A2*B1' })
    expect(Object.is(engine.getValue('Sheet1', 'C2'), -0)).toBe(true)
    engine.setCell('Sheet1', 'B1', 1)
    expect(Object.is(engine.getValue('Sheet1', 'C2'), 0)).toBe(true)
  })

  it('shows #SPILL! while the way is blocked and spills again once it is clear', () => {
    const engine = sheet({ A1: '={1;2;3}', A3: 'x' })
    expect(v(engine, 'A1')).toBe('#SPILL!')
    expect(v(engine, 'A2')).toBe(null)
    engine.setCell('Sheet1', 'A3', '')
    expect([v(engine, 'A1'), v(engine, 'A2'), v(engine, 'A3')]).toEqual([1, 2, 3])
    engine.setCell('Sheet1', 'A2', 7)
    expect(v(engine, 'A1')).toBe('#SPILL!')
    expect(v(engine, 'A3')).toBe(null)
    expect(v(engine, 'A2')).toBe(7)
  })

  it('shrinks and grows a spill as its source changes', () => {
    const engine = sheet({ A1: 1, A2: 2, B1: '=TRANSPOSE(A1:A2)', E1: '=D1' })
    expect([v(engine, 'B1'), v(engine, 'C1'), v(engine, 'D1')]).toEqual([1, 2, null])
    engine.setCell('Sheet1', 'A3', 3)
    engine.setCell('Sheet1', 'B1', '=TRANSPOSE(A1:A3)')
    expect([v(engine, 'B1'), v(engine, 'C1'), v(engine, 'D1'), v(engine, 'E1')]).toEqual([1, 2, 3, 3])
    engine.setCell('Sheet1', 'B1', '=TRANSPOSE(A1:A2)')
    expect([v(engine, 'D1'), v(engine, 'E1')]).toEqual([null, 0])
  })

  it('applies implicit intersection with @', () => {
    const engine = sheet({ A1: 1, A2: 2, A3: 3, B2: '=@A1:A3*10' })
    expect(v(engine, 'B2')).toBe(20)
    expect(v(engine, 'B3')).toBe(null)
  })

  it('fills a legacy array formula range exactly, repeating a single value', () => {
    const engine = new Engine()
    engine.addSheet('Sheet1')
    engine.setArrayFormula('Sheet1', 'C2:C5', '=123')
    engine.setArrayFormula('Sheet1', 'D2:E3', '={1;2;3}')
    engine.setCell('Sheet1', 'G2', '=SUM(ANCHORARRAY(C2))')
    expect(['C2', 'C3', 'C5', 'D2', 'E2', 'D3', 'G2'].map((address) => v(engine, address))).toEqual([123, 123, 123, 1, 1, 2, 492])
    expect(engine.getCell('Sheet1', 'D2').arrayRange).toBe('D2:E3')
  })

  it('intersects ranges implicitly in formulas saved without dynamic arrays', () => {
    const engine = new Engine()
    engine.addSheet('Sheet1')
    engine.setCells([
      { sheet: 'Sheet1', address: 'A1', input: 1 },
      { sheet: 'Sheet1', address: 'A2', input: 2 },
      { sheet: 'Sheet1', address: 'A3', input: 3 },
      { sheet: 'Sheet1', address: 'B2', input: '=A1:A3*10', legacy: true },
      { sheet: 'Sheet1', address: 'C2', input: '=A:A', legacy: true },
      { sheet: 'Sheet1', address: 'D5', input: '=A1:A3', legacy: true },
      { sheet: 'Sheet1', address: 'E1', input: '=SUMPRODUCT(A1:A3*2)', legacy: true },
      { sheet: 'Sheet1', address: 'F1', input: '=SUM(A1:A3)', legacy: true },
    ])
    expect([v(engine, 'B2'), v(engine, 'B3'), v(engine, 'C2'), v(engine, 'D5'), v(engine, 'F1')]).toEqual([20, null, 2, '#VALUE!', 6])
    if (engine.getFunctions().has('SUMPRODUCT')) expect(v(engine, 'E1')).toBe(12)
  })

  it('replaces errors element by element in IFERROR', () => {
    const engine = sheet({ A1: 1, A2: 0, A3: 2, B1: 'a', B2: 'b', B3: 'c', C1: '=IFERROR(1/A1:A3,B1:B3)', D1: '=IFERROR({1;0;2}/{0;0;0},{7,8})' })
    expect([v(engine, 'C1'), v(engine, 'C2'), v(engine, 'C3')]).toEqual([1, 'b', 0.5])
    expect([v(engine, 'D1'), v(engine, 'E1'), v(engine, 'E3')]).toEqual([7, 8, 8])
  })

  it('lets IF pick element by element from arrays', () => {
    const engine = sheet({ A1: 1, A2: -2, A3: 3, B1: '=IF(A1:A3>0,"pos","neg")' })
    expect([v(engine, 'B1'), v(engine, 'B2'), v(engine, 'B3')]).toEqual(['pos', 'neg', 'pos'])
  })
})

describe('circular references', () => {
  it('shows 0 in every cell of a cycle and reports it when iteration is off', () => {
    const engine = sheet({ A1: '=B1+1', B1: '=C1+1', C1: '=A1+1', D1: '=A1*2', E1: '=E1+1' })
    expect([v(engine, 'A1'), v(engine, 'B1'), v(engine, 'C1'), v(engine, 'D1'), v(engine, 'E1')]).toEqual([0, 0, 0, 0, 0])
    const cycles = engine.getCircularReferences().map((cycle) => cycle.map((cell) => cell.address))
    expect(cycles).toContainEqual(['A1', 'B1', 'C1'])
    expect(cycles).toContainEqual(['E1'])
    engine.setCell('Sheet1', 'C1', 5)
    expect([v(engine, 'A1'), v(engine, 'B1'), v(engine, 'D1')]).toEqual([7, 6, 14])
    expect(engine.getCircularReferences().map((cycle) => cycle.map((cell) => cell.address))).toEqual([['E1']])
  })

  it('iterates a cycle to its fixed point when iteration is on', () => {
    const engine = sheet({ A1: '=B1/2+1', B1: '=A1' }, { iterative: { enabled: true, maxIterations: 100, maxChange: 1e-9 } })
    expect(v(engine, 'A1')).toBeCloseTo(2, 8)
    expect(engine.getCircularReferences()).toEqual([])
  })

  it('stops after maxIterations', () => {
    const engine = sheet({ A1: '=A1+1' }, { iterative: { enabled: true, maxIterations: 10, maxChange: 0.001 } })
    expect(v(engine, 'A1')).toBe(10)
    engine.recalculateAll()
    expect(v(engine, 'A1')).toBe(20)
  })

  it('converges an LBO with interest on average debt and a cash sweep to the fixed point', () => {
    const rate = 0.08
    const tax = 0.25
    const years = 5
    const columns = ['C', 'D', 'E', 'F', 'G']
    const cells: Record<string, string | number> = { B12: rate, B13: tax, C4: 100, C7: 500 }
    columns.forEach((col, i) => {
      if (i > 0) {
        cells[`${col}4`] = `=${columns[i - 1]}4*1.05`
        cells[`${col}7`] = `=${columns[i - 1]}8`
      }
      cells[`${col}5`] = `=$B$12*AVERAGE(${col}7,${col}8)`
      cells[`${col}6`] = `=${col}4*0.6-${col}5*(1-$B$13)`
      cells[`${col}8`] = `=${col}7-${col}9`
      cells[`${col}9`] = `=MAX(0,MIN(${col}7,${col}6))`
    })
    cells['B14'] = '=G8'
    const engine = sheet(cells, { iterative: { enabled: true, maxIterations: 100, maxChange: 0.001 } })
    if (engine.getFunctions().get('AVERAGE') === undefined || engine.getFunctions().get('MIN') === undefined) {
      // AVERAGE, MIN and MAX come from the statistical functions; without them the model cannot run.
      throw new Error('AVERAGE, MIN and MAX must be registered')
    }
    // The exact answer, by solving each year's cycle to machine precision.
    let ebitda = 100
    let opening = 500
    const closing: number[] = []
    for (let year = 0; year < years; year++) {
      let close = opening
      for (let k = 0; k < 1000; k++) {
        const interest = rate * (opening + close) / 2
        const cash = ebitda * 0.6 - interest * (1 - tax)
        const sweep = Math.max(0, Math.min(opening, cash))
        close = opening - sweep
      }
      closing.push(close)
      opening = close
      ebitda *= 1.05
    }
    columns.forEach((col, i) => expect(Math.abs((v(engine, `${col}8`) as number) - closing[i])).toBeLessThan(0.001))
    // An edit starts from the converged values and converges again.
    engine.setCell('Sheet1', 'B12', 0.1)
    const interest = engine.getValue('Sheet1', 'C5') as number
    const closeC = engine.getValue('Sheet1', 'C8') as number
    expect(Math.abs(interest - 0.1 * (500 + closeC) / 2)).toBeLessThan(0.001)
  })
})

describe('rows and columns', () => {
  it('shifts references when rows are inserted and deleted', () => {
    const engine = sheet({ A1: 1, A2: 2, A3: 3, A4: 4, B1: '=SUM(A1:A4)', B2: '=A3*10', B3: '=SUM(A:A)', C1: '=$A$4' })
    engine.insertRows('Sheet1', 2, 2)
    expect(engine.getFormula('Sheet1', 'B1')).toBe('=SUM(A1:A6)')
    expect(engine.getFormula('Sheet1', 'B2')).toBe('=A5*10')
    expect(engine.getFormula('Sheet1', 'B5')).toBe('=SUM(A:A)')
    expect(engine.getFormula('Sheet1', 'C1')).toBe('=$A$6')
    expect([v(engine, 'B1'), v(engine, 'B2'), v(engine, 'B5'), v(engine, 'C1')]).toEqual([10, 30, 10, 4])
    engine.setCell('Sheet1', 'A3', 100)
    expect(v(engine, 'B1')).toBe(110)
    engine.deleteRows('Sheet1', 2, 3) // rows 3 to 5: the two new ones and the old A3
    expect(engine.getFormula('Sheet1', 'B1')).toBe('=SUM(A1:A3)')
    expect(engine.getFormula('Sheet1', 'B2')).toBe('=#REF!*10')
    expect([v(engine, 'B1'), v(engine, 'B2')]).toEqual([7, '#REF!'])
  })

  it('shifts references from other sheets and columns', () => {
    const engine = new Engine()
    engine.addSheet('Data')
    engine.addSheet('Report')
    engine.setCells([
      { sheet: 'Data', address: 'A1', input: 1 },
      { sheet: 'Data', address: 'B1', input: 2 },
      { sheet: 'Data', address: 'C1', input: 3 },
      { sheet: 'Report', address: 'A1', input: '=SUM(Data!A1:C1)' },
      { sheet: 'Report', address: 'A2', input: '=Data!C1' },
      { sheet: 'Report', address: 'A3', input: '=Data!B1' },
    ])
    engine.insertColumns('Data', 1)
    expect(engine.getFormula('Report', 'A1')).toBe('=SUM(Data!A1:D1)')
    expect(engine.getFormula('Report', 'A2')).toBe('=Data!D1')
    engine.deleteColumns('Data', 2)
    expect(engine.getFormula('Report', 'A3')).toBe('=#REF!')
    expect(v(engine, 'A1', 'Report')).toBe(4)
    expect(v(engine, 'A3', 'Report')).toBe('#REF!')
  })

  it('moves defined names with the cells they name', () => {
    const engine = sheet({ B5: 7, A1: '=Rate*2' })
    engine.defineName('Rate', '=Sheet1!$B$5')
    engine.insertRows('Sheet1', 1, 3)
    expect(engine.getNames()).toEqual([{ name: 'Rate', formula: '=Sheet1!$B$8' }])
    expect(v(engine, 'A1')).toBe(14)
    engine.setCell('Sheet1', 'B8', 8)
    expect(v(engine, 'A1')).toBe(16)
    engine.deleteRows('Sheet1', 7)
    expect(engine.getNames()).toEqual([{ name: 'Rate', formula: '=#REF!' }])
    expect(v(engine, 'A1')).toBe('#REF!')
  })

  it('rejects bad positions and counts without changing anything', () => {
    const engine = sheet({ A1: 1 })
    expect(() => engine.insertRows('Sheet1', -1)).toThrow(/position/)
    expect(() => engine.deleteRows('Sheet1', 0, 0)).toThrow(/count/)
    expect(() => engine.insertRows('Nope', 0)).toThrow(/Sheet not found/)
    expect(v(engine, 'A1')).toBe(1)
  })
})

describe('copy and fill', () => {
  it('translates formulas like Excel', () => {
    expect(translateFormula('=A1+$B$1+B$2+$C3', 'C1', 'D3')).toBe('=B3+$B$1+C$2+$C5')
    expect(translateFormula('=SUM(A1:A3)', 'B4', 'B5')).toBe('=SUM(A2:A4)')
    expect(translateFormula('=A1', 'B2', 'A1')).toBe('=#REF!')
    expect(translateFormula("='My Sheet'!A1", 'A1', 'B1')).toBe("='My Sheet'!B1")
  })

  it('fills down and copies with relative references adjusted', () => {
    const engine = sheet({ A1: 1, A2: 2, A3: 3, B1: '=A1*$D$1', D1: 10 })
    engine.fillRange('Sheet1', 'B1', 'B1:B3')
    expect(engine.getFormula('Sheet1', 'B3')).toBe('=A3*$D$1')
    expect([v(engine, 'B2'), v(engine, 'B3')]).toEqual([20, 30])
    engine.copyRange('Sheet1', 'B1:B2', 'Sheet1', 'C5')
    expect(engine.getFormula('Sheet1', 'C5')).toBe('=B5*$D$1')
    expect(() => engine.fillRange('Sheet1', 'A1:A2', 'B1:B3')).toThrow(/multiple/)
  })
})

describe('sheets', () => {
  it('renames sheets in formulas, breaks references to removed ones, and resolves added ones', () => {
    const engine = new Engine()
    engine.addSheet('Inputs')
    engine.addSheet('Model')
    engine.setCells([
      { sheet: 'Inputs', address: 'A1', input: 5 },
      { sheet: 'Model', address: 'A1', input: '=Inputs!A1*2' },
      { sheet: 'Model', address: 'A2', input: "='Later Sheet'!A1+1" },
    ])
    expect(v(engine, 'A2', 'Model')).toBe('#REF!')
    engine.renameSheet('Inputs', 'Assumptions 2024')
    expect(engine.getFormula('Model', 'A1')).toBe("='Assumptions 2024'!A1*2")
    expect(v(engine, 'A1', 'Model')).toBe(10)
    engine.addSheet('Later Sheet')
    engine.setCell('Later Sheet', 'A1', 41)
    expect(v(engine, 'A2', 'Model')).toBe(42)
    engine.removeSheet('Assumptions 2024')
    expect(v(engine, 'A1', 'Model')).toBe('#REF!')
    expect(engine.getFormula('Model', 'A1')).toBe('=#REF!*2')
    expect(engine.getSheetNames()).toEqual(['Model', 'Later Sheet'])
  })

  it('numbers sheets by tab with SHEET and counts them with SHEETS and INFO as sheets come and go', () => {
    const engine = new Engine()
    engine.addSheet('Inputs')
    engine.addSheet('Model')
    engine.setCells([
      { sheet: 'Model', address: 'A1', input: '=SHEET()' },
      { sheet: 'Model', address: 'A2', input: '=SHEET(Inputs!B2)' },
      { sheet: 'Model', address: 'A3', input: '=SHEET("model")' },
      { sheet: 'Model', address: 'A4', input: '=SHEET("Missing")' },
      { sheet: 'Model', address: 'A5', input: '=SHEETS()' },
      { sheet: 'Model', address: 'A6', input: '=SHEETS(Inputs!A1:C3)' },
      { sheet: 'Model', address: 'A7', input: '=SHEETS("Inputs")' },
      { sheet: 'Model', address: 'A8', input: '=SHEET(1/0)' },
    ])
    expect(['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8'].map((a) => v(engine, a, 'Model'))).toEqual([
      2, 1, 2, '#N/A', 2, 1, '#VALUE!', '#DIV/0!',
    ])
    engine.setCells([
      { sheet: 'Model', address: 'B1', input: '=INFO("numfile")' },
      { sheet: 'Model', address: 'B2', input: '=INFO("recalc")' },
      { sheet: 'Model', address: 'B3', input: '=INFO("directory")' },
      { sheet: 'Model', address: 'B4', input: '=INFO("colour")' },
    ])
    expect(['B1', 'B2', 'B3', 'B4'].map((a) => v(engine, a, 'Model'))).toEqual([2, 'Automatic', '#N/A', '#VALUE!'])
    engine.addSheet('Outputs')
    expect(v(engine, 'A5', 'Model')).toBe(3)
    expect(v(engine, 'B1', 'Model')).toBe(3)
    engine.removeSheet('Inputs')
    expect(v(engine, 'A1', 'Model')).toBe(1)
    expect(v(engine, 'A2', 'Model')).toBe('#REF!')
    expect(v(engine, 'A5', 'Model')).toBe(2)
  })

  it('refuses duplicate, invalid and last-sheet operations', () => {
    const engine = new Engine()
    engine.addSheet('One')
    expect(() => engine.addSheet('one')).toThrow(/already exists/)
    expect(() => engine.addSheet('a/b')).toThrow(/Invalid sheet name/)
    expect(() => engine.removeSheet('One')).toThrow(/at least one sheet/)
    expect(() => engine.setCell('One', 'A0', 1)).toThrow(/Invalid cell address/)
  })
})

describe('volatile and dynamic references', () => {
  it('recalculates TODAY and NOW from the clock on every change', () => {
    let now = new Date(2024, 0, 31, 18, 0, 0)
    const engine = sheet({ A1: '=TODAY()', A2: '=NOW()' }, { clock: () => now })
    expect(v(engine, 'A1')).toBe(45322)
    expect(v(engine, 'A2')).toBeCloseTo(45322.75, 8)
    expect(engine.getDisplay('Sheet1', 'A1')).toBe('1/31/2024')
    now = new Date(2024, 1, 1, 6, 0, 0)
    engine.setCell('Sheet1', 'B1', 1)
    expect(v(engine, 'A1')).toBe(45323)
  })

  it('follows INDIRECT and OFFSET to the cells they name', () => {
    const engine = sheet({ A1: 2, B1: 10, B2: 20, B3: 30, C1: '=INDIRECT("B"&A1)', C2: '=SUM(OFFSET(B1,1,0,2,1))', C3: '=INDIRECT("R2C2",FALSE)' })
    expect([v(engine, 'C1'), v(engine, 'C2'), v(engine, 'C3')]).toEqual([20, 50, 20])
    engine.setCell('Sheet1', 'A1', 3)
    expect(v(engine, 'C1')).toBe(30)
    engine.setCell('Sheet1', 'B2', 25)
    expect([v(engine, 'C2'), v(engine, 'C3')]).toEqual([55, 25])
    engine.setCell('Sheet1', 'C4', '=INDIRECT("nonsense")')
    expect(v(engine, 'C4')).toBe('#REF!')
  })

  it('gives ROW, COLUMN, INDEX, CHOOSE, SUBTOTAL and IFERROR their Excel results', () => {
    const engine = sheet({
      A1: 1,
      A2: 2,
      A3: '=SUBTOTAL(9,A1:A2)',
      A4: '=SUBTOTAL(9,A1:A3)',
      B1: '=ROW()',
      B2: '=COLUMN(D5)',
      B3: '=INDEX(A1:A4,2)',
      B4: '=CHOOSE(2,"a","b","c")',
      B5: '=IFERROR(1/0,"none")',
      B6: '=SUM(ROW(A1:A3))',
      B7: '=AND(TRUE,A1>0)',
    })
    expect([v(engine, 'A3'), v(engine, 'A4'), v(engine, 'B1'), v(engine, 'B2'), v(engine, 'B3')]).toEqual([3, 3, 1, 4, 2])
    expect([v(engine, 'B4'), v(engine, 'B5'), v(engine, 'B6'), v(engine, 'B7')]).toEqual(['b', 'none', 6, true])
  })
})

describe('function values', () => {
  /** A function value that adds its arguments to a base, as a LAMBDA would. */
  class Adder extends CellError {
    constructor(private readonly base: number) {
      super('#CALC!')
    }
    call(args: readonly Value[]): Value {
      return args.reduce<number>((total, arg) => total + (typeof arg === 'number' ? arg : 0), this.base)
    }
  }
  const ADDER: FunctionDefinition = {
    name: 'ADDER',
    category: 'logical',
    minArgs: 1,
    maxArgs: 1,
    args: ['number'],
    syntax: 'ADDER(base)',
    description: 'Returns a function that adds its arguments to base.',
    example: 'ADDER(1)(2)',
    impl: ([base]) => new Adder(base as number),
  }

  it('calls function values directly and through names', () => {
    const functions = createBuiltinRegistry()
    functions.register(ADDER)
    const engine = new Engine({ functions })
    engine.addSheet('Sheet1')
    engine.defineName('AddTen', '=ADDER(10)')
    engine.setCells([
      { sheet: 'Sheet1', address: 'A1', input: '=ADDER(1)(2,3)' },
      { sheet: 'Sheet1', address: 'A2', input: '=AddTen(5)' },
      { sheet: 'Sheet1', address: 'A3', input: '=LET(f,ADDER(100),f(1))' },
      { sheet: 'Sheet1', address: 'A4', input: '=ADDER(1)' },
      { sheet: 'Sheet1', address: 'A5', input: '=NoSuchThing(1)' },
      { sheet: 'Sheet1', address: 'A6', input: '=(1+2)(3)' },
    ])
    expect(['A1', 'A2', 'A3', 'A4', 'A5', 'A6'].map((address) => v(engine, address))).toEqual([6, 15, 101, '#CALC!', '#NAME?', '#VALUE!'])
    engine.defineName('AddTen', '=ADDER(20)')
    expect(v(engine, 'A2')).toBe(25)
    // The function is this engine's alone: another engine's registry, and the next one made, lack it.
    const other = new Engine()
    other.addSheet('Sheet1')
    other.setCell('Sheet1', 'A1', '=ADDER(1)(2)')
    expect(v(other, 'A1')).toBe('#NAME?')
    expect(createBuiltinRegistry().has('ADDER')).toBe(false)
    expect(createBuiltinRegistry().size).toBe(functions.size - 1)
  })
})

describe('criteria functions over shared columns', () => {
  it('keep answering from the rows that meet each criteria as the formulas and values of the criteria column change', () => {
    const cells: Record<string, string | number> = { F1: 0 }
    for (let row = 1; row <= 30; row++) {
      cells[`A${row}`] = `=IF(MOD(ROW()+$F$1,3)=0,"a","b")`
      cells[`B${row}`] = row
    }
    const engine = sheet({
      ...cells,
      D1: '=SUMIFS(B:B,A:A,"a")',
      D2: '=SUMIFS(B:B,A:A,"A",B:B,">10")',
      D3: '=COUNTIF(A:A,"a")',
      D4: '=SUMIF(A1:A30,"b",B1:B30)',
    })
    const sums = () => ['D1', 'D2', 'D3', 'D4'].map((a) => v(engine, a))
    // Rows 3, 6, ..., 30 are "a" (sum 165, of which 12+...+30 = 147 above 10), the other 20 "b" (300).
    expect(sums()).toEqual([165, 147, 10, 300])
    engine.setCell('Sheet1', 'F1', 1) // now rows 2, 5, ..., 29 are "a"
    expect(sums()).toEqual([155, 140, 10, 310])
    engine.setCell('Sheet1', 'A1', 'a')
    engine.setCell('Sheet1', 'B2', 100)
    expect(sums()).toEqual([254, 240, 11, 309])
  })
})

describe('comparisons of a column with a value', () => {
  it('give what comparing each cell gives, errors and empty cells included, and follow edits', () => {
    const column = [3, 'b', 'B', true, '', -1, '=1/0', 'abc', 0, 2.5, '=NA()', 'a', false, 10]
    const cells: Record<string, string | number> = {}
    for (let row = 1; row <= 40; row++) {
      const item = column[row % column.length]
      cells[`A${row}`] = typeof item === 'boolean' ? String(item).toUpperCase() : item
    }
    const comparisons = ['>"b"', '="b"', '<>3', '<=2.5', '>=TRUE', '=""']
    const formulas: Record<string, string> = {}
    comparisons.forEach((comparison, i) => {
      const shared = columnToLetters(2 + 2 * i)
      const each = columnToLetters(3 + 2 * i)
      formulas[`${shared}1`] = `=A1:A40${comparison}`
      for (let row = 1; row <= 40; row++) formulas[`${each}${row}`] = `=A${row}${comparison}`
    })
    const engine = sheet({ ...cells, ...formulas })
    const pairs = () =>
      comparisons.map((_, i) =>
        Array.from({ length: 40 }, (_, row) => [v(engine, `${columnToLetters(2 + 2 * i)}${row + 1}`), v(engine, `${columnToLetters(3 + 2 * i)}${row + 1}`)]),
      )
    for (const rows of pairs()) for (const [shared, each] of rows) expect(shared).toEqual(each)
    engine.setCell('Sheet1', 'A5', 'c')
    engine.setCell('Sheet1', 'A6', '')
    expect(v(engine, 'C5')).toBe(true)
    for (const rows of pairs()) for (const [shared, each] of rows) expect(shared).toEqual(each)
  })
})

describe('exact lookups into shared columns', () => {
  it('find the first or last match as the column changes, ignoring case, without wildcards where none apply', () => {
    const cells: Record<string, string | number> = { F1: 0 }
    for (let row = 1; row <= 40; row++) {
      cells[`A${row}`] = row % 4 === 0 ? `=IF($F$1>0,"Id"&ROW(),ROW())` : `id${row % 10}`
      cells[`B${row}`] = row
    }
    const engine = sheet({
      ...cells,
      D1: '=MATCH("ID3",A:A,0)',
      D2: '=XLOOKUP("id3",A:A,B:B,"none",0,-1)',
      D3: '=VLOOKUP(8,A1:B40,2,FALSE)',
      D4: '=INDEX(B:B,MATCH("Id8",A:A,0))',
      D5: '=MATCH("id*",A:A,0)',
      D6: '=XLOOKUP("id*",A:A,B:B,"none")',
    })
    const answers = () => ['D1', 'D2', 'D3', 'D4', 'D5', 'D6'].map((a) => v(engine, a))
    expect(answers()).toEqual([3, 33, 8, 18, 1, 'none'])
    engine.setCell('Sheet1', 'F1', 1) // row 8 now holds "Id8", and no row holds the number 8
    expect(answers()).toEqual([3, 33, '#N/A', 8, 1, 'none'])
    engine.setCell('Sheet1', 'A1', 'ID3')
    engine.setCell('Sheet1', 'A33', 'x')
    expect(answers()).toEqual([1, 23, '#N/A', 8, 1, 'none'])
  })
})

describe('repeated edits of one input', () => {
  it('reach the same formulas again, and new readers once the graph changes', () => {
    const engine = new Engine()
    engine.addSheet('Sheet1')
    const rows: (string | number)[][] = [[1]]
    for (let i = 2; i <= 200; i++) rows.push([`=A${i - 1}+1`])
    engine.loadSheet('Sheet1', rows)
    engine.setCell('Sheet1', 'A1', 10)
    expect(engine.setCell('Sheet1', 'A1', 20).length).toBe(200)
    expect(v(engine, 'A200')).toBe(219)
    engine.setCell('Sheet1', 'B1', '=A200*2')
    engine.setCell('Sheet1', 'A1', 30)
    expect(v(engine, 'B1')).toBe(458)
    engine.setCell('Sheet1', 'C1', '=SEQUENCE(3)')
    engine.setCell('Sheet1', 'D3', '=A150+C3')
    engine.setCell('Sheet1', 'A1', 40)
    expect(v(engine, 'D3')).toBe(engine.getFunctions().has('SEQUENCE') ? 192 : '#NAME?')
    engine.setCell('Sheet1', 'B1', '')
    expect(engine.setCell('Sheet1', 'A1', 50).map((change) => change.address)).not.toContain('B1')
  })
})

describe('bad input keeps the engine usable', () => {
  it('keeps state after a failed call', () => {
    const engine = sheet({ A1: 1, A2: '=A1+1' })
    expect(() => engine.setCells([{ sheet: 'Sheet1', address: 'B1', input: 5 }, { sheet: 'Nope', address: 'A1', input: 1 }])).toThrow()
    expect(v(engine, 'B1')).toBe(null)
    expect(() => engine.defineName('A1', '=1')).toThrow(/Invalid name/)
    expect(() => engine.setIterativeSettings({ maxIterations: 0 })).toThrow(/maxIterations/)
    engine.setCell('Sheet1', 'A1', 2)
    expect(v(engine, 'A2')).toBe(3)
  })
})
