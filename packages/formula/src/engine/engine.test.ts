import { describe, expect, it } from 'vitest'
import { CellError } from '../values.js'
import { Engine } from './engine.js'
import { formatAddress } from '../address/a1.js'

function workbook(cells: Record<string, string | number>, options?: ConstructorParameters<typeof Engine>[0]): Engine {
  const engine = new Engine(options)
  engine.addSheet('Sheet1')
  engine.setCells(Object.entries(cells).map(([address, input]) => ({ sheet: 'Sheet1', address, input })))
  return engine
}

function value(engine: Engine, address: string, sheet = 'Sheet1') {
  const result = engine.getValue(sheet, address)
  return result instanceof CellError ? result.code : result
}

function evaluate(formula: string, cells: Record<string, string | number> = {}) {
  const engine = workbook({ ...cells, Z100: formula })
  return value(engine, 'Z100')
}

describe('precedence', () => {
  it.each([
    ['=-3^2', 9],
    ['=2^3^2', 64],
    ['=1+2*3', 7],
    ['=(1+2)*3', 9],
    ['=2*-3', -6],
    ['=-2^-2', 0.25],
    ['=50%*2', 1],
    ['=10-2-3', 5],
    ['=12/3/2', 2],
    ['=1+2&3', '33'],
    ['=1+1=2', true],
    ['="a"&1+1', 'a2'],
    ['=-(3^2)', -9],
    ['=2^0.5*2^0.5', 2.0000000000000004],
  ])('%s is %s', (formula, expected) => {
    expect(evaluate(formula)).toBe(expected)
  })
})

describe('coercion', () => {
  it.each([
    ['="3"+1', 4],
    ['=TRUE+1', 2],
    ['="a"+1', '#VALUE!'],
    ['="1,000"+1', 1001],
    ['="15%"*2', 0.3],
    ['="2024-01-31"+0', 45322],
    ['=1="1"', false],
    ['="abc"="ABC"', true],
    ['="b">"A"', true],
    ['=1<"a"', true],
    ['="a"<TRUE', true],
    ['=A1+1', 1],
    ['=A1&"x"', 'x'],
    ['=A1=0', true],
    ['=A1=""', true],
    ['=0.1+0.2=0.3', true],
    ['=1/0', '#DIV/0!'],
    ['=#N/A+1', '#N/A'],
    ['=1/0+#N/A', '#DIV/0!'],
    ['=10^400', '#NUM!'],
    ['=0^0', '#NUM!'],
    ['=(-8)^(1/3)', -2],
    ['=(-8)^0.5', '#NUM!'],
  ])('%s is %s', (formula, expected) => {
    const result = evaluate(formula)
    if (typeof expected === 'number') expect(result).toBeCloseTo(expected, 12)
    else expect(result).toBe(expected)
  })

  it('gives 0 for a reference to an empty cell', () => {
    expect(evaluate('=B7')).toBe(0)
  })
})

describe('cells and recalculation', () => {
  it('reports a batch of cells at their printed addresses, each cell once with its last value', () => {
    const engine = new Engine()
    engine.addSheet('Sheet1')
    const cell = (address: string, input: number | string) => ({ sheet: 'sheet1', address, input })
    const unordered = engine.setCells([cell('A1', 1), cell('b2', 2), cell('$C$3', '=A1*3'), cell(' A1 ', 4), cell('D4', 5)])
    expect(unordered.map(({ sheet, address, value }) => [sheet, address, value])).toEqual([
      ['Sheet1', 'B2', 2],
      ['Sheet1', 'C3', 12],
      ['Sheet1', 'A1', 4],
      ['Sheet1', 'D4', 5],
    ])
    const ordered = engine.setCells([cell('A1', 7), cell('B1', 8), cell('a2', 9), cell('A10', 10)])
    expect(ordered.map(({ address, value }) => [address, value])).toEqual([
      ['A1', 7],
      ['B1', 8],
      ['A2', 9],
      ['A10', 10],
      ['C3', 21],
    ])
  })

  it('writes numbers into columns nothing reads as it writes any input, in loads and batches', () => {
    const engine = new Engine()
    engine.addSheet('S')
    // Column A is read by B1's SUM, column C keeps a typed percentage, D a formula that E1 reads.
    engine.loadSheet('S', [[1, '=SUM(A1:A3)', '15%', '=1+1', '=D1*2'], [2], [3]])
    engine.loadSheet('S', [[10, undefined, 5, 4], [20, undefined, 6], [30]])
    expect([engine.getValue('S', 'B1'), engine.getValue('S', 'E1')]).toEqual([60, 8])
    expect(engine.getInput('S', 'C1')).toBe('5')
    expect(engine.getSuggestedFormat('S', 'C1')).toBeUndefined()
    expect(engine.getFormula('S', 'D1')).toBeUndefined()
    // A batch that types over a cell twice keeps its last input, whatever came between.
    const changes = engine.setCells([
      { sheet: 'S', address: 'F1', input: 7 },
      { sheet: 'S', address: 'F2', input: '25%' },
      { sheet: 'S', address: 'F2', input: 8 },
      { sheet: 'S', address: 'F3', input: '=F1+F2' },
      { sheet: 'S', address: 'F3', input: 9 },
      { sheet: 'S', address: 'A2', input: 1 },
    ])
    expect(changes.map((change) => [change.address, change.value])).toEqual([
      ['F1', 7],
      ['F2', 8],
      ['F3', 9],
      ['A2', 1],
      ['B1', 41],
    ])
    expect([engine.getInput('S', 'F2'), engine.getSuggestedFormat('S', 'F2'), engine.getFormula('S', 'F3')]).toEqual(['8', undefined, undefined])
    // A formula written later reads what went in directly.
    engine.setCell('S', 'G1', '=SUM(F1:F3)')
    expect(engine.getValue('S', 'G1')).toBe(24)
    engine.setCells([{ sheet: 'S', address: 'F1', input: 1 }])
    expect(engine.getValue('S', 'G1')).toBe(18)
  })

  it('recalculates dependents and reports the changes', () => {
    const engine = workbook({ A1: 1, A2: '=A1*2', A3: '=A2+A1', B1: '=SUM(A1:A3)' })
    expect(value(engine, 'B1')).toBe(6)
    const changes = engine.setCell('Sheet1', 'A1', 10)
    expect(value(engine, 'A3')).toBe(30)
    expect(value(engine, 'B1')).toBe(60)
    expect(changes.map((change) => [change.address, change.value])).toEqual([
      ['A1', 10],
      ['A2', 20],
      ['A3', 30],
      ['B1', 60],
    ])
  })

  it('reads inputs as Excel does and suggests formats', () => {
    const engine = workbook({ A1: '15%', A2: '$1,234.50', A3: "'007", A4: '2024-01-31', A5: 'true' })
    expect(value(engine, 'A1')).toBe(0.15)
    expect(engine.getSuggestedFormat('Sheet1', 'A1')).toBe('0%')
    expect(engine.getDisplay('Sheet1', 'A1')).toBe('15%')
    expect(value(engine, 'A2')).toBe(1234.5)
    expect(engine.getDisplay('Sheet1', 'A2')).toBe('$1,234.50')
    expect(value(engine, 'A3')).toBe('007')
    expect(engine.getInput('Sheet1', 'A3')).toBe("'007")
    expect(value(engine, 'A4')).toBe(45322)
    expect(engine.getDisplay('Sheet1', 'A4')).toBe('2024-01-31')
    expect(value(engine, 'A5')).toBe(true)
    expect(engine.getInput('Sheet1', 'A1')).toBe('15%')
  })

  it('reads cells by 0-based position as well', () => {
    const engine = workbook({ B3: '15%', C3: '=B3*2' })
    expect(engine.getValueAt('Sheet1', 2, 2)).toBe(0.3)
    expect(engine.getDisplayAt('Sheet1', 2, 1)).toBe('15%')
    expect(engine.getDisplayAt('Sheet1', 2, 2, '0.0%')).toBe('30.0%')
    expect(engine.getInputAt('Sheet1', 2, 2)).toBe('=B3*2')
    expect(engine.getValueAt('Sheet1', 1_000_000, 16_000)).toBe(null)
  })

  it('gives filled copies of a formula one shape, and other formulas another', () => {
    const engine = workbook({ B1: '=A1*(1+$C$9)', B2: '=A2*(1+$C$9)', C1: '=B1*(1+$C$9)', B3: '=A3*(1+$C$8)', B4: '=1+*2', B5: '7' })
    const shape = (row: number, col: number) => engine.getFormulaShapeAt('Sheet1', row, col)
    expect(shape(0, 1)).toBeDefined()
    expect(shape(1, 1)).toBe(shape(0, 1))
    expect(shape(0, 2)).toBe(shape(0, 1))
    expect(shape(2, 1)).not.toBe(shape(0, 1))
    expect(shape(3, 1)).toBeUndefined()
    expect(shape(4, 1)).toBeUndefined()
  })

  it('keeps an unparseable formula and shows #ERROR!', () => {
    const engine = workbook({ A1: '=1+*2' })
    expect(value(engine, 'A1')).toBe('#ERROR!')
    expect(engine.getInput('Sheet1', 'A1')).toBe('=1+*2')
    expect(engine.getFormula('Sheet1', 'A1')).toBe('=1+*2')
  })

  it('refuses formulas too deep or too long with #ERROR! and keeps working', () => {
    const engine = workbook({ A1: '=' + Array(3000).fill('1').join('+'), A2: '=' + '('.repeat(3000) + '1' + ')'.repeat(3000), A3: 5, A4: '=A3*2' })
    expect(value(engine, 'A1')).toBe('#ERROR!')
    expect(value(engine, 'A2')).toBe('#ERROR!')
    expect(value(engine, 'A4')).toBe(10)
    engine.setCell('Sheet1', 'A3', 6)
    expect(value(engine, 'A4')).toBe(12)
  })

  it('closes missing parentheses', () => {
    const engine = workbook({ A1: '=SUM(1,2', A2: '=ROUND((1+2' })
    expect(value(engine, 'A1')).toBe(3)
    expect(engine.getFormula('Sheet1', 'A1')).toBe('=SUM(1,2)')
  })

  it('gives #NAME? for unknown functions and names', () => {
    expect(evaluate('=NOSUCHFUNCTION(1)')).toBe('#NAME?')
    expect(evaluate('=nosuchname+1')).toBe('#NAME?')
  })

  it('clears cells with an empty input', () => {
    const engine = workbook({ A1: 5, A2: '=A1*2' })
    engine.setCell('Sheet1', 'A1', '')
    expect(value(engine, 'A1')).toBe(null)
    expect(value(engine, 'A2')).toBe(0)
  })

  it('calculates a chain of 50,000 formulas without recursion', () => {
    const engine = new Engine()
    engine.addSheet('S')
    const rows: (string | number)[][] = [[1]]
    for (let i = 2; i <= 50_000; i++) rows.push([`=A${i - 1}+1`])
    engine.loadSheet('S', rows)
    expect(engine.getValue('S', 'A50000')).toBe(50_000)
    engine.setCell('S', 'A1', 2)
    expect(engine.getValue('S', 'A50000')).toBe(50_001)
  })

  it('calculates formulas entered before the cells they read', () => {
    const rows: string[][] = []
    for (let i = 1; i < 2000; i++) rows.push([`=A${i + 1}+1`])
    rows.push(['1'])
    const engine = new Engine()
    engine.addSheet('S')
    engine.loadSheet('S', rows)
    expect(engine.getValue('S', 'A1')).toBe(2000)
  })
})

describe('references', () => {
  it('reads other sheets, quoted names, whole columns and rows', () => {
    const engine = new Engine()
    engine.addSheet('Sheet1')
    engine.addSheet('My Sheet')
    engine.setCells([
      { sheet: 'My Sheet', address: 'A1', input: 2 },
      { sheet: 'My Sheet', address: 'A2', input: 3 },
      { sheet: 'My Sheet', address: 'B2', input: 4 },
      { sheet: 'Sheet1', address: 'A1', input: "='My Sheet'!A1*'My Sheet'!A2" },
      { sheet: 'Sheet1', address: 'A2', input: "=SUM('My Sheet'!A:A)" },
      { sheet: 'Sheet1', address: 'A3', input: "=SUM('My Sheet'!2:2)" },
      { sheet: 'Sheet1', address: 'A4', input: "=SUM('My Sheet'!A1:B2)" },
    ])
    expect(value(engine, 'A1')).toBe(6)
    expect(value(engine, 'A2')).toBe(5)
    expect(value(engine, 'A3')).toBe(7)
    expect(value(engine, 'A4')).toBe(9)
    engine.setCell('My Sheet', 'A100', 10)
    expect(value(engine, 'A2')).toBe(15)
  })

  it('supports the range, union and intersection operators', () => {
    const cells = { A1: 1, A2: 2, A3: 3, B1: 10, B2: 20, B3: 30 }
    expect(evaluate('=SUM(A1:A2:B3)', cells)).toBe(66)
    expect(evaluate('=SUM((A1,B2))', cells)).toBe(21)
    expect(evaluate('=SUM(A1:B2 B2:B3)', cells)).toBe(20)
    expect(evaluate('=SUM(A1:A2 B1:B2)', cells)).toBe('#NULL!')
    expect(evaluate('=SUM(A1:INDEX(A1:A3,2))', cells)).toBe(3)
  })

  it('evaluates array constants', () => {
    expect(evaluate('=SUM({1,2;3,4})')).toBe(10)
    expect(evaluate('=INDEX({1,2;3,4},2,1)')).toBe(3)
  })
})

describe('defined names', () => {
  it('resolves workbook and sheet names and recalculates when they change', () => {
    const engine = new Engine()
    engine.addSheet('Sheet1')
    engine.addSheet('Sheet2')
    engine.setCell('Sheet1', 'B1', 100)
    engine.defineName('Rate', '=0.1')
    engine.defineName('Base', '=Sheet1!$B$1')
    engine.setCell('Sheet1', 'A1', '=Base*Rate')
    engine.setCell('Sheet2', 'A1', '=Rate')
    expect(value(engine, 'A1')).toBe(10)
    engine.defineName('Rate', '=0.2', 'Sheet2')
    expect(value(engine, 'A1', 'Sheet2')).toBe(0.2)
    expect(value(engine, 'A1')).toBe(10)
    engine.setCell('Sheet1', 'B1', 50)
    expect(value(engine, 'A1')).toBe(5)
    engine.defineName('Rate', '=0.5')
    expect(value(engine, 'A1')).toBe(25)
    engine.removeName('Rate')
    expect(value(engine, 'A1')).toBe('#NAME?')
  })

  it('binds LET names', () => {
    expect(evaluate('=LET(x, 2, y, x*3, x+y)')).toBe(8)
    expect(evaluate('=LET(x, A1:A3, SUM(x))', { A1: 1, A2: 2, A3: 3 })).toBe(6)
  })
})

describe('loading in batches', () => {
  it('calculates once at finish, with formulas reading cells of later batches, as one loadCells would', () => {
    const batched = new Engine()
    batched.addSheet('Sheet1')
    const load = batched.beginLoad()
    load.add([
      { sheet: 'Sheet1', address: 'A1', input: '=SUM(B1:B3)' },
      { sheet: 'Sheet1', address: 'C1', input: '=A1*2' },
    ])
    load.add([{ sheet: 'Sheet1', address: 'B1', input: '1' }])
    load.add([
      { sheet: 'Sheet1', address: 'B2', input: '2' },
      { sheet: 'Sheet1', address: 'B3', input: '3' },
      { sheet: 'Sheet1', address: 'D1', input: '=C1/0' },
    ])
    load.finish()

    const whole = new Engine()
    whole.addSheet('Sheet1')
    whole.loadCells(
      ['=SUM(B1:B3)', '=A1*2', '1', '2', '3', '=C1/0'].map((input, i) => ({ sheet: 'Sheet1', address: ['A1', 'C1', 'B1', 'B2', 'B3', 'D1'][i], input })),
    )
    for (const address of ['A1', 'C1', 'D1']) expect(batched.getValue('Sheet1', address)).toEqual(whole.getValue('Sheet1', address))
    expect(batched.getValue('Sheet1', 'C1')).toBe(12)
    expect((batched.getValue('Sheet1', 'D1') as CellError).code).toBe('#DIV/0!')

    // After the load the engine edits as usual.
    expect(batched.setCell('Sheet1', 'B1', '10').map((change) => change.address).sort()).toEqual(['A1', 'B1', 'C1'])
    expect(batched.getValue('Sheet1', 'C1')).toBe(30)
  })

  it('refuses cells after it has finished, and a second finish', () => {
    const engine = new Engine()
    engine.addSheet('Sheet1')
    const load = engine.beginLoad()
    load.add([{ sheet: 'Sheet1', address: 'A1', input: '1' }])
    load.finish()
    expect(() => load.add([{ sheet: 'Sheet1', address: 'A2', input: '2' }])).toThrow('This load has finished')
    expect(() => load.finish()).toThrow('This load has finished')
    expect(engine.getValue('Sheet1', 'A2')).toBeNull()
  })

  it('loads cells named by row and column as the same cells named by address', () => {
    const inputs = ['3', 'label', '=A1*2', '0.5', '=SUM(A1:A3)', '', '10%', '=B2&"!"', '1e3', 7]
    const rows = [0, 0, 1, 2, 0, 3, 3, 4, 5, 6]
    const cols = [0, 1, 1, 0, 2, 0, 1, 2, 0, 0]
    const byPosition = new Engine()
    byPosition.addSheet('Sheet1')
    const load = byPosition.beginLoad()
    load.addAt('Sheet1', rows.slice(0, 5), cols.slice(0, 5), inputs.slice(0, 5))
    load.addAt('Sheet1', Int32Array.from(rows.slice(5)), Int32Array.from(cols.slice(5)), inputs.slice(5))
    load.finish()
    const byAddress = new Engine()
    byAddress.addSheet('Sheet1')
    byAddress.loadCells(inputs.map((input, i) => ({ sheet: 'Sheet1', address: formatAddress(rows[i], cols[i]), input })))
    for (let i = 0; i < inputs.length; i++) {
      const address = formatAddress(rows[i], cols[i])
      expect([address, byPosition.getValue('Sheet1', address), byPosition.getInput('Sheet1', address)]).toEqual([address, byAddress.getValue('Sheet1', address), byAddress.getInput('Sheet1', address)])
    }
    expect(byPosition.getValue('Sheet1', 'C1')).toBe(3 + 0.5)
    expect(byPosition.getValue('Sheet1', 'C5')).toBe('6!')
    expect(byPosition.getValue('Sheet1', 'A4')).toBeNull()
    expect(byPosition.getValue('Sheet1', 'B4')).toBe(0.1)
  })

  it('refuses a position off the sheet, lists of different lengths and a sheet it does not have', () => {
    const engine = new Engine()
    engine.addSheet('Sheet1')
    const load = engine.beginLoad()
    expect(() => load.addAt('Sheet1', [0, 1], [0], ['1', '2'])).toThrow('as many rows and columns')
    expect(() => load.addAt('Sheet1', [1_048_576], [0], ['1'])).toThrow('Invalid cell address')
    expect(() => load.addAt('Sheet1', [0], [-1], ['1'])).toThrow('Invalid cell address')
    expect(() => load.addAt('Nowhere', [0], [0], ['1'])).toThrow('Sheet not found')
    load.finish()
    expect(engine.getValue('Sheet1', 'A1')).toBeNull()
  })
})
