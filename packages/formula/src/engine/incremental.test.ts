import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatAddress } from '../address/a1.js'
import { CellError } from '../values.js'
import { Engine } from './engine.js'

const SIZE = 6
const address = fc.tuple(fc.integer({ min: 0, max: SIZE - 1 }), fc.integer({ min: 0, max: SIZE - 1 })).map(([row, col]) => formatAddress(row, col))
const range = fc.tuple(address, address).map(([a, b]) => `${a}:${b}`)
const operand = fc.oneof(address, fc.integer({ min: -5, max: 9 }).map(String))
const formula = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(operand, fc.constantFrom('+', '-', '*', '/', '&', '>'), operand).map(([a, op, b]) => `=${a}${op}${b}`) },
  { weight: 3, arbitrary: range.map((r) => `=SUM(${r})`) },
  { weight: 2, arbitrary: fc.tuple(address, operand, operand).map(([c, a, b]) => `=IF(${c}>2,${a},${b})`) },
  { weight: 2, arbitrary: fc.tuple(address, address, fc.integer({ min: 1, max: 3 })).map(([a, b, i]) => `=INDEX(${a}:${b.replace(/\d+$/, (n) => n)},${i},1)`) },
  { weight: 2, arbitrary: fc.tuple(address, fc.integer({ min: 0, max: 2 })).map(([a, n]) => `=SUM(OFFSET(${a},0,0,${n + 1},1))`) },
  { weight: 1, arbitrary: range.map((r) => `=IFERROR(${r}*2,0)`) },
  { weight: 1, arbitrary: fc.constant('={1,2;3,4}') },
  { weight: 1, arbitrary: address.map((a) => `=SUM(${a}#)`) },
  // Ranges between spill references read every cell between them, whatever their text names.
  { weight: 1, arbitrary: fc.tuple(address, address).map(([a, b]) => `=SUM(${a}#:${b}#)`) },
  { weight: 1, arbitrary: fc.tuple(address, address).map(([a, b]) => `=COUNT(${a}#:${b})`) },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 2 })).map(([r, c]) => `=SEQUENCE(${r},${c})`) },
  // Criteria and exact lookups, which share per-column masks and indexes kept while a column is unchanged.
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('A', 'B'), fc.constantFrom('C', 'D'), operand).map(([c, s, k]) => `=SUMIFS(${s}1:${s}6,${c}1:${c}6,${k})`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('A', 'B', 'C'), fc.constantFrom('">2"', '"x"', '3', '""')).map(([c, k]) => `=COUNTIF(${c}:${c},${k})`) },
  { weight: 1, arbitrary: fc.tuple(operand, fc.constantFrom('A', 'B')).map(([k, c]) => `=MATCH(${k},${c}1:${c}6,0)`) },
  { weight: 1, arbitrary: fc.tuple(operand, fc.constantFrom('A', 'B')).map(([k, c]) => `=XLOOKUP(${k},${c}:${c},F:F,"none",0,-1)`) },
)
const input = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -3, max: 9 }) },
  { weight: 4, arbitrary: formula },
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constantFrom('x', 'TRUE', '15%') },
)
const edit = fc.tuple(address, input)

function snapshot(engine: Engine): unknown[] {
  const values: unknown[] = []
  for (let row = 0; row < SIZE + 3; row++) {
    for (let col = 0; col < SIZE + 3; col++) {
      const value = engine.getValue('S', formatAddress(row, col))
      // Zero shows as 0 whatever its sign (-1*0 is -0 in JavaScript): no user can see the difference.
      values.push(value instanceof CellError ? value.code : Object.is(value, -0) ? 0 : value)
    }
  }
  return values
}

/** Whether either engine holds a circular reference, whose cells keep the values their history left. */
function circular(...engines: Engine[]): boolean {
  return engines.some((engine) => engine.getCircularReferences().length > 0)
}

describe('incremental recalculation', () => {
  it('always agrees with calculating the final inputs from scratch', () => {
    let skipped = 0
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 25 }), (edits) => {
        const engine = new Engine()
        engine.addSheet('S')
        const inputs = new Map<string, string | number>()
        for (const [target, value] of edits) {
          engine.setCell('S', target, value)
          inputs.set(target, value)
        }
        const fresh = new Engine()
        fresh.addSheet('S')
        fresh.setCells([...inputs].map(([target, value]) => ({ sheet: 'S', address: target, input: value })))
        const incremental = snapshot(engine)
        const fromScratch = snapshot(fresh)
        const differs = JSON.stringify(incremental) !== JSON.stringify(fromScratch)
        // A circular formula keeps the value it last calculated (as in Excel), a cycle that runs through an
        // array's spill is found only once the spill exists, and when two arrays want the same cells the
        // one calculated second shows #SPILL! (as in Excel): there the order of the edits decides, so such
        // a difference proves nothing.
        const orderDependent = (values: unknown[]) => values.includes('#CIRC!') || values.includes('#SPILL!')
        if (differs && (circular(engine, fresh) || orderDependent(incremental) || orderDependent(fromScratch))) {
          skipped++
          return
        }
        expect(incremental).toEqual(fromScratch)
      }),
      { numRuns: 400 },
    )
    expect(skipped).toBeLessThan(40)
  })
})

describe('ranges between spill references', () => {
  // Readers of the ranges between spilling anchors, and edits anywhere in and around those ranges:
  // the cells between the anchors are named by no reference of the readers' text.
  const start: Record<string, string | number> = {
    A1: '=SEQUENCE(1,2)',
    A5: '=SEQUENCE(2,1)*B1',
    F1: '=SUM(A1#:A5#)',
    F2: '=COUNT(A1#:C3)',
    F3: '=SUM(A5#:A1)',
    F4: '=ROWS(A1#:A5#)',
  }
  const target = fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 3 })).map(([row, col]) => formatAddress(row, col))
  const value = fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: -3, max: 9 }) },
    { weight: 2, arbitrary: fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 })).map(([r, c]) => `=SEQUENCE(${r},${c})`) },
    { weight: 2, arbitrary: target.map((a) => `=${a}*2`) },
    { weight: 1, arbitrary: fc.constant('') },
  )

  it('recalculate from any edit between or around their ends as a fresh calculation does', () => {
    let skipped = 0
    fc.assert(
      fc.property(fc.array(fc.tuple(target, value), { minLength: 1, maxLength: 20 }), (edits) => {
        const engine = new Engine()
        engine.addSheet('S')
        const inputs = new Map<string, string | number>(Object.entries(start))
        engine.setCells([...inputs].map(([address, input]) => ({ sheet: 'S', address, input })))
        for (const [address, input] of edits) {
          engine.setCell('S', address, input)
          inputs.set(address, input)
        }
        const fresh = new Engine()
        fresh.addSheet('S')
        fresh.setCells([...inputs].map(([address, input]) => ({ sheet: 'S', address, input })))
        const incremental = snapshot(engine)
        const fromScratch = snapshot(fresh)
        if (JSON.stringify(incremental) !== JSON.stringify(fromScratch) && (circular(engine, fresh) || [...incremental, ...fromScratch].includes('#SPILL!'))) {
          skipped++
          return
        }
        expect(incremental).toEqual(fromScratch)
      }),
      { numRuns: 300 },
    )
    expect(skipped).toBeLessThan(60)
  })
})

describe('structural edits', () => {
  type Step = { kind: 'set'; target: string; value: string | number } | { kind: 'rows' | 'columns'; insert: boolean; index: number; count: number }
  const step: fc.Arbitrary<Step> = fc.oneof(
    { weight: 4, arbitrary: edit.map(([target, value]): Step => ({ kind: 'set', target, value })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom<'rows' | 'columns'>('rows', 'columns'), fc.boolean(), fc.integer({ min: 0, max: SIZE - 1 }), fc.integer({ min: 1, max: 2 }))
        .map(([kind, insert, index, count]): Step => ({ kind, insert, index, count })),
    },
  )

  it('leave formulas that recalculate from their shifted text to the same values', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 20 }), (steps) => {
        const engine = new Engine()
        engine.addSheet('S')
        for (const item of steps) {
          if (item.kind === 'set') engine.setCell('S', item.target, item.value)
          else if (item.kind === 'rows' && item.insert) engine.insertRows('S', item.index, item.count)
          else if (item.kind === 'rows') engine.deleteRows('S', item.index, item.count)
          else if (item.insert) engine.insertColumns('S', item.index, item.count)
          else engine.deleteColumns('S', item.index, item.count)
        }
        // A fresh engine given the inputs as they now read must calculate the same values.
        const fresh = new Engine()
        fresh.addSheet('S')
        const inputs = engine.cells('S').filter((cell) => !cell.spilled).map((cell) => ({ sheet: 'S', address: cell.address, input: cell.input }))
        fresh.setCells(inputs)
        const shifted = snapshot(engine)
        const fromScratch = snapshot(fresh)
        const differs = JSON.stringify(shifted) !== JSON.stringify(fromScratch)
        if (differs && (circular(engine, fresh) || [...shifted, ...fromScratch].some((value) => value === '#CIRC!' || value === '#SPILL!'))) return
        expect(shifted).toEqual(fromScratch)
      }),
      { numRuns: 300 },
    )
  })
})

describe('edits across sheets and names', () => {
  const sheetName = fc.constantFrom('S', 'T')
  const qualified = fc.tuple(fc.constantFrom('', 'S!', 'T!'), address).map(([prefix, target]) => prefix + target)
  const crossFormula = fc.oneof(
    fc.tuple(qualified, qualified).map(([a, b]) => `=${a}+${b}`),
    fc.tuple(fc.constantFrom('', 'T!'), range).map(([prefix, r]) => `=SUM(${prefix}${r})`),
    fc.constantFrom('=Total*2', '=SUM(Block)', '=Total+S!A1'),
  )
  const crossEdit = fc.tuple(sheetName, address, fc.oneof(fc.integer({ min: -3, max: 9 }), crossFormula, fc.constant('')))
  const nameEdit = fc.tuple(fc.constantFrom('Total', 'Block'), fc.constantFrom('=S!$A$1', '=T!$A$1:$B$2', '=S!$B$1+1', '=3'))
  const step = fc.oneof({ weight: 5, arbitrary: crossEdit.map((value) => ({ cell: value })) }, { weight: 1, arbitrary: nameEdit.map((value) => ({ name: value })) })

  function both(engine: Engine): unknown[] {
    const values: unknown[] = []
    for (const name of ['S', 'T']) {
      for (let row = 0; row < SIZE; row++) {
        for (let col = 0; col < SIZE; col++) {
          const value = engine.getValue(name, formatAddress(row, col))
          values.push(value instanceof CellError ? value.code : value)
        }
      }
    }
    return values
  }

  it('agree with calculating the final inputs and names from scratch', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 25 }), (steps) => {
        const engine = new Engine()
        engine.addSheet('S')
        engine.addSheet('T')
        const inputs = new Map<string, { sheet: string; address: string; input: string | number }>()
        const names = new Map<string, string>()
        for (const item of steps) {
          if ('cell' in item) {
            const [sheet, target, value] = item.cell
            engine.setCell(sheet, target, value)
            inputs.set(`${sheet}!${target}`, { sheet, address: target, input: value })
          } else {
            const [name, formula] = item.name
            engine.defineName(name, formula)
            names.set(name, formula)
          }
        }
        const fresh = new Engine()
        fresh.addSheet('S')
        fresh.addSheet('T')
        for (const [name, formula] of names) fresh.defineName(name, formula)
        fresh.setCells([...inputs.values()])
        const incremental = both(engine)
        const fromScratch = both(fresh)
        const differs = JSON.stringify(incremental) !== JSON.stringify(fromScratch)
        // Two arrays spilling over the same cells: which one shows #SPILL! follows the order they were
        // entered in (as in Excel), and a fresh engine enters them in another order.
        if (differs && (circular(engine, fresh) || [...incremental, ...fromScratch].some((value) => value === '#CIRC!' || value === '#SPILL!'))) return
        expect(incremental).toEqual(fromScratch)
      }),
      { numRuns: 300 },
    )
  })
})

describe('formulas over a shared data table', () => {
  // Forty rows, so that column comparisons, criteria masks and lookup indexes (kept per column while it
  // is unchanged) are all in play; every edit, insertion or deletion must leave what a fresh engine computes.
  const ROWS = 40
  const dataValue = fc.oneof(
    fc.integer({ min: -2, max: 6 }),
    fc.constantFrom('a', 'B', 'c', '', 'TRUE', '#N/A'),
    fc.constantFrom('=1/0', '=$H$1*2', '=IF($H$1>2,"a","c")'),
  )
  const dataCell = fc.tuple(fc.constantFrom('A', 'B'), fc.integer({ min: 1, max: ROWS }), dataValue).map(([col, row, value]) => ({ target: `${col}${row}`, value }))
  const key = fc.constantFrom('"a"', '"b"', '3', '0', 'TRUE', '$H$1')
  const tableFormula = fc.oneof(
    key.map((k) => `=SUMIFS(B1:B${ROWS},A1:A${ROWS},${k})`),
    key.map((k) => `=COUNTIF(A:A,${k})`),
    fc.tuple(key, fc.constantFrom('>', '=', '<>', '<=')).map(([k, op]) => `=SUMPRODUCT((A1:A${ROWS}${op}${k})*B1:B${ROWS})`),
    key.map((k) => `=IFERROR(MATCH(${k},A1:A${ROWS},0),-1)`),
    key.map((k) => `=XLOOKUP(${k},A:A,B:B,"none",0,-1)`),
    key.map((k) => `=IFERROR(VLOOKUP(${k},A1:B${ROWS},2,FALSE),"none")`),
  )
  const formulaCell = fc.tuple(fc.integer({ min: 1, max: 8 }), tableFormula).map(([row, value]) => ({ target: `D${row}`, value }))
  const change = fc.oneof(
    { weight: 5, arbitrary: dataCell.map((cell) => ({ kind: 'set' as const, ...cell })) },
    { weight: 2, arbitrary: formulaCell.map((cell) => ({ kind: 'set' as const, ...cell })) },
    { weight: 1, arbitrary: fc.integer({ min: -1, max: 5 }).map((value) => ({ kind: 'set' as const, target: 'H1', value })) },
    { weight: 1, arbitrary: fc.tuple(fc.boolean(), fc.integer({ min: 0, max: ROWS - 1 })).map(([insert, index]) => ({ kind: 'rows' as const, insert, index })) },
  )

  function values(engine: Engine): unknown[] {
    const out: unknown[] = []
    for (let row = 0; row < 8; row++) {
      const value = engine.getValue('S', formatAddress(row, 3))
      out.push(value instanceof CellError ? value.code : value)
    }
    return out
  }

  it('keep every formula as a fresh calculation of the final inputs', () => {
    fc.assert(
      fc.property(fc.array(dataCell, { minLength: ROWS, maxLength: ROWS }), fc.array(formulaCell, { minLength: 3, maxLength: 8 }), fc.array(change, { minLength: 1, maxLength: 15 }), (data, formulas, changes) => {
        const engine = new Engine()
        engine.addSheet('S')
        engine.setCells([...data, ...formulas].map(({ target, value }) => ({ sheet: 'S', address: target, input: value })))
        for (const item of changes) {
          if (item.kind === 'set') engine.setCell('S', item.target, item.value)
          else if (item.insert) engine.insertRows('S', item.index, 1)
          else engine.deleteRows('S', item.index, 1)
        }
        const fresh = new Engine()
        fresh.addSheet('S')
        fresh.setCells(engine.cells('S').filter((cell) => !cell.spilled).map((cell) => ({ sheet: 'S', address: cell.address, input: cell.input })))
        expect(values(engine)).toEqual(values(fresh))
      }),
      { numRuns: 150 },
    )
  })
})
