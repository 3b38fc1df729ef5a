import { describe, expect, it } from 'vitest'
import { Engine } from './engine.js'
import type { CellChange, CellUpdate } from './engine.js'
import { columnToLetters } from '../address/a1.js'
import { CellError } from '../values.js'


/** Batches of at least this many cells in order keep the numbers they write in a typed array. */
const LARGE = 5_000

type Input = string | number | boolean

/** A model over LARGE rows: numbers, texts, booleans, one SUM, a running formula per row and an error. */
function modelRows(): Input[][] {
  const rows: Input[][] = []
  for (let i = 1; i <= LARGE; i++) {
    const row: Input[] = [i, `=A${i}*2`]
    if (i % 7 === 0) row.push(`item ${i}`)
    else if (i % 11 === 0) row.push(i % 2 === 0)
    else row.push(i / 4)
    rows.push(row)
  }
  rows[0].push(`=SUM(A1:A${LARGE})`, '=1/0', '15%')
  return rows
}

function updatesOf(rows: Input[][], sheet = 'Sheet1'): CellUpdate[] {
  const updates: CellUpdate[] = []
  for (let r = 0; r < rows.length; r++) {
    for (let c = 0; c < rows[r].length; c++) updates.push({ sheet, address: `${columnToLetters(c)}${r + 1}`, input: rows[r][c] })
  }
  return updates
}

function fresh(): Engine {
  const engine = new Engine()
  engine.addSheet('Sheet1')
  return engine
}

const comparable = (value: unknown) => (value instanceof CellError ? value.code : value)
const byPosition = (changes: readonly CellChange[]) =>
  [...changes].map((change) => ({ ...change, value: comparable(change.value) })).sort((a, b) => a.row - b.row || a.col - b.col || a.sheet.localeCompare(b.sheet))

describe('setCells with a large batch in order', () => {
  it('returns the same changes as the same batch out of order, in the order of the batch', () => {
    const updates = updatesOf(modelRows())
    const changes = fresh().setCells(updates)
    // Moving the last update to the front breaks the order: that batch takes the general path.
    const reordered = [updates[updates.length - 1], ...updates.slice(0, -1)]
    const reference = fresh().setCells(reordered)
    expect(changes.length).toBe(updates.length)
    expect(byPosition(changes)).toEqual(byPosition(reference))
    expect(changes.map((change) => change.address)).toEqual(updates.map((update) => update.address))
    expect(changes[0]).toEqual({ sheet: 'Sheet1', address: 'A1', row: 0, col: 0, value: 1 })
    expect(changes[3]).toEqual({ sheet: 'Sheet1', address: 'D1', row: 0, col: 3, value: (LARGE * (LARGE + 1)) / 2 })
    expect((changes[4].value as CellError).code).toBe('#DIV/0!')
    expect(changes[5].value).toBe(0.15)
  })

  it('leaves the sheet as loadSheet builds it, and recalculates dependents after a later edit', () => {
    const rows = modelRows()
    const viaSet = fresh()
    viaSet.setCells(updatesOf(rows))
    const viaLoad = fresh()
    viaLoad.loadSheet('Sheet1', rows)
    for (let r = 0; r < rows.length; r += 97) {
      for (let c = 0; c < rows[r].length; c++) {
        const address = `${columnToLetters(c)}${r + 1}`
        expect(comparable(viaSet.getValue('Sheet1', address))).toEqual(comparable(viaLoad.getValue('Sheet1', address)))
        expect(viaSet.getInput('Sheet1', address)).toBe(viaLoad.getInput('Sheet1', address))
      }
    }
    const later = viaSet.setCell('Sheet1', 'A100', 1_000)
    const sum = (LARGE * (LARGE + 1)) / 2 - 100 + 1_000
    expect(later).toEqual(
      expect.arrayContaining([
        { sheet: 'Sheet1', address: 'A100', row: 99, col: 0, value: 1_000 },
        { sheet: 'Sheet1', address: 'B100', row: 99, col: 1, value: 2_000 },
        { sheet: 'Sheet1', address: 'D1', row: 0, col: 3, value: sum },
      ]),
    )
    expect(later).toHaveLength(3)
    expect(viaSet.getValue('Sheet1', 'D1')).toBe(sum)
  })

  it('reports the values and sheet names the batch left, read after later edits', () => {
    const engine = fresh()
    const updates: CellUpdate[] = []
    for (let i = 1; i <= LARGE; i++) updates.push({ sheet: 'Sheet1', address: `A${i}`, input: i })
    updates.push({ sheet: 'Sheet1', address: `B${LARGE}`, input: `=A1+A${LARGE}` })
    const changes = engine.setCells(updates)
    engine.setCells([
      { sheet: 'Sheet1', address: 'A1', input: 'replaced' },
      { sheet: 'Sheet1', address: `B${LARGE}`, input: '' },
    ])
    engine.renameSheet('Sheet1', 'Renamed')
    expect(changes[0]).toEqual({ sheet: 'Sheet1', address: 'A1', row: 0, col: 0, value: 1 })
    expect(changes[LARGE]).toEqual({ sheet: 'Sheet1', address: `B${LARGE}`, row: LARGE - 1, col: 1, value: 1 + LARGE })
    expect(changes).toHaveLength(LARGE + 1)
  })

  it('reports addresses as they print, whatever way they were written', () => {
    const engine = fresh()
    const updates: CellUpdate[] = []
    for (let i = 1; i <= LARGE; i++) updates.push({ sheet: 'Sheet1', address: i % 2 === 0 ? `$a$${i}` : `A${i}`, input: i })
    const changes = engine.setCells(updates)
    expect(changes.slice(0, 3).map((change) => change.address)).toEqual(['A1', 'A2', 'A3'])
    expect(changes[LARGE - 1]).toEqual({ sheet: 'Sheet1', address: `A${LARGE}`, row: LARGE - 1, col: 0, value: LARGE })
  })

  it('reports the formulas an earlier load made read the batch', () => {
    const engine = fresh()
    engine.loadSheet('Sheet1', [[null, null, `=SUM(A1:A${LARGE})`, '=A1*10']])
    const updates: CellUpdate[] = []
    for (let i = 1; i <= LARGE; i++) updates.push({ sheet: 'Sheet1', address: `A${i}`, input: 2 })
    const changes = engine.setCells(updates)
    expect(changes).toHaveLength(LARGE + 2)
    expect(changes.slice(LARGE)).toEqual(
      expect.arrayContaining([
        { sheet: 'Sheet1', address: 'C1', row: 0, col: 2, value: 2 * LARGE },
        { sheet: 'Sheet1', address: 'D1', row: 0, col: 3, value: 20 },
      ]),
    )
  })

  it('reports what a legacy array formula in the batch left in its area', () => {
    const updates: CellUpdate[] = [{ sheet: 'Sheet1', address: 'A1', input: '={1;2;3}', arrayRange: 'A1:A3' }]
    for (let i = 4; i <= LARGE; i++) updates.push({ sheet: 'Sheet1', address: `A${i}`, input: i })
    const changes = fresh().setCells(updates)
    const reordered = [updates[updates.length - 1], ...updates.slice(0, -1)]
    expect(byPosition(changes)).toEqual(byPosition(fresh().setCells(reordered)))
  })

  it('spans sheets, and keeps each sheet name', () => {
    const engine = fresh()
    engine.addSheet('Other')
    const updates = [...updatesOf([[1]], 'Sheet1'), ...updatesOf(Array.from({ length: LARGE }, (_, i) => [i]), 'Other')]
    // Across sheets a batch is not in order: the list is built at once, and must agree.
    const changes = engine.setCells(updates)
    expect(changes[0]).toEqual({ sheet: 'Sheet1', address: 'A1', row: 0, col: 0, value: 1 })
    expect(changes[LARGE]).toEqual({ sheet: 'Other', address: `A${LARGE}`, row: LARGE - 1, col: 0, value: LARGE - 1 })
  })
})

describe('a load or a batch of texts that read as numbers', () => {
  it('holds the same cells as setting them one by one', () => {
    const updates: CellUpdate[] = []
    const inputs = ['42', '-3.5', '042', '1.50', '15%', '1e3', ' 7', 'text', '', '0', '-0', '=A1*2', '123456789012345678']
    for (let r = 0; r < 40; r++) {
      for (let c = 0; c < inputs.length; c++) updates.push({ sheet: 'Sheet1', address: `${columnToLetters(c)}${r + 1}`, input: inputs[(r + c) % inputs.length] })
    }
    const loaded = fresh()
    loaded.loadCells(updates)
    // A formula reading every cell first: each write then goes through the general path, not the quiet one.
    const edited = fresh()
    edited.setCell('Sheet1', 'Z1', '=COUNT(A1:M40)')
    for (const update of updates) edited.setCell(update.sheet, update.address, update.input)
    const batched = fresh()
    batched.setCells(updates)
    for (const update of updates) {
      expect(comparable(loaded.getValue('Sheet1', update.address))).toEqual(comparable(edited.getValue('Sheet1', update.address)))
      expect(loaded.getInput('Sheet1', update.address)).toBe(edited.getInput('Sheet1', update.address))
      expect(loaded.getSuggestedFormat('Sheet1', update.address)).toBe(edited.getSuggestedFormat('Sheet1', update.address))
      expect(comparable(batched.getValue('Sheet1', update.address))).toEqual(comparable(edited.getValue('Sheet1', update.address)))
      expect(batched.getInput('Sheet1', update.address)).toBe(edited.getInput('Sheet1', update.address))
      expect(batched.getSuggestedFormat('Sheet1', update.address)).toBe(edited.getSuggestedFormat('Sheet1', update.address))
    }
    // The formulas read the numbers loaded straight into their columns.
    loaded.setCell('Sheet1', 'A1', 10)
    const formula = updates.find((update) => update.input === '=A1*2' && update.address !== 'A1') as CellUpdate
    expect(loaded.getValue('Sheet1', formula.address)).toBe(20)
  })
})
