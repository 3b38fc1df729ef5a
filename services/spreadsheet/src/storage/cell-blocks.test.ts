import type { DeferredDocument } from '@finsheet/platform'
import { describe, expect, it } from 'vitest'
import { applyToBlocks, BLOCK_COLUMNS, BLOCK_ROWS, blockCells, blockPlaceOf, placeInBlock, rowMajorCells, storedPositionOf, type CellBlockDoc, type StoredCell } from './cell-blocks.js'
import { INSERTED_ROWS_FROM, type SheetLayout } from './sheet-layout.js'

/** The ids of the blocks read, in the order they were. */
const reads: string[] = []

/** A block as the store finds it: its id at once, its cells when read. */
function block(sheetId: string, blockRow: number, blockColumn: number, cells: StoredCell[]): DeferredDocument<CellBlockDoc> {
  const id = `w-1/${sheetId}/${blockRow}/${blockColumn}`
  return {
    id,
    read: () => {
      reads.push(id)
      return { id, workbookId: 'w-1', sheetId, blockRow, blockColumn, revision: 1, cells }
    },
  }
}

const addresses = (sheetId: string, blocks: DeferredDocument<CellBlockDoc>[], layout?: SheetLayout) => [...rowMajorCells(sheetId, blocks, layout)].map((record) => record.address)

describe('a sheet read in row-major order, a band of blocks at a time', () => {
  // Blocks in the order of their ids, as the store lists them: band 10 before band 2, column block 1 before 0.
  const blocks = [
    block('s1', 0, 1, [['R2', 'r2', null, 1], ['Q1', 'q1', null, 1]]),
    block('s1', 0, 0, [['B2', '=A2', 4, 1], ['A1', '1', 1, 1], ['B1', 'x', 'x', 1, { s: { bold: true } }]]),
    block('s2', 0, 0, [['A1', 'other sheet', 'other sheet', 1]]),
    block('s1', 10, 0, [[`A${10 * BLOCK_ROWS + 1}`, 'ten', 'ten', 1]]),
    block('s1', 2, 0, [[`C${2 * BLOCK_ROWS + 5}`, 'two b', 'two b', 1], [`A${2 * BLOCK_ROWS + 5}`, 'two a', 'two a', 1]]),
  ]

  it('orders the bands by number and each band by row, then column, across its column blocks', () => {
    expect(BLOCK_COLUMNS).toBe(16)
    expect(addresses('s1', blocks)).toEqual(['A1', 'B1', 'Q1', 'B2', 'R2', `A${2 * BLOCK_ROWS + 5}`, `C${2 * BLOCK_ROWS + 5}`, `A${10 * BLOCK_ROWS + 1}`])
    expect(addresses('s2', blocks)).toEqual(['A1'])
  })

  it("reads a band's blocks only when the reader reaches it, and no other sheet's", () => {
    reads.length = 0
    const cells = rowMajorCells('s1', blocks)
    expect(reads).toEqual([])
    expect(cells.next().value?.address).toBe('A1')
    expect(reads.sort()).toEqual(['w-1/s1/0/0', 'w-1/s1/0/1'])
    for (let i = 0; i < 4; i++) cells.next()
    expect(cells.next().value?.address).toBe(`A${2 * BLOCK_ROWS + 5}`)
    expect(reads).toHaveLength(3)
    expect(blockPlaceOf('0b7e-1/0w0137046506/1994/3')).toEqual({ sheetId: '0w0137046506', blockRow: 1994, blockColumn: 3 })
  })

  it('decodes each cell as it is kept: input, value, style, revision', () => {
    const first = [...rowMajorCells('s1', blocks)].find((record) => record.address === 'B1')
    expect(first).toMatchObject({ sheetId: 's1', row: 0, col: 1, input: 'x', value: 'x', style: { bold: true }, revision: 1 })
  })

  it('reads a sheet whose rows moved through its row map, whole and sorted', () => {
    // One row inserted above the first: stored rows move down one, the inserted row is stored past the sheet's last.
    const layout: SheetLayout = { rows: [INSERTED_ROWS_FROM, 1, 0], columns: [0], nextRow: INSERTED_ROWS_FROM + 1, nextColumn: 0 }
    const moved = [...blocks, block('s1', INSERTED_ROWS_FROM / BLOCK_ROWS, 0, [[`A${INSERTED_ROWS_FROM + 1}`, 'new first', 'new first', 2]])]
    expect(addresses('s1', moved, layout)).toEqual(['A1', 'A2', 'B2', 'Q2', 'B3', 'R3', `A${2 * BLOCK_ROWS + 6}`, `C${2 * BLOCK_ROWS + 6}`, `A${10 * BLOCK_ROWS + 2}`])
  })
})

describe('cells named by their place in the block, and blocks written before by address', () => {
  const stored = (blockRow: number, blockColumn: number, cells: StoredCell[]): CellBlockDoc => ({ id: `w-1/s1/${blockRow}/${blockColumn}`, workbookId: 'w-1', sheetId: 's1', blockRow, blockColumn, revision: 1, cells })

  it('places a cell by its row and column in the block, and finds them back, far down and across too', () => {
    for (const [row, col] of [[0, 0], [31, 15], [2 * BLOCK_ROWS + 5, 2], [1_048_575, 16_383], [INSERTED_ROWS_FROM + 3, 20]]) {
      const place = placeInBlock(row, col)
      expect(place).toBeGreaterThanOrEqual(0)
      expect(place).toBeLessThan(BLOCK_ROWS * BLOCK_COLUMNS)
      const block = { blockRow: Math.floor(row / BLOCK_ROWS), blockColumn: Math.floor(col / BLOCK_COLUMNS) }
      expect(storedPositionOf(block, [place, '', null, 1])).toEqual({ row, col })
    }
  })

  it('reads a block by places as the same block by addresses: addresses, inputs, formulas moved with their rows', () => {
    const byAddress = stored(2, 0, [['C69', '=A69*2', 4, 1], ['A69', '2', 2, 1, { s: { bold: true } }]])
    const byPlace = stored(2, 0, [[placeInBlock(68, 2), '=A69*2', 4, 1], [placeInBlock(68, 0), '2', 2, 1, { s: { bold: true } }]])
    expect([...blockCells([byPlace])]).toEqual([...blockCells([byAddress])])
    // one row inserted above: both read the cells a row lower, the formula following its row
    const layout: SheetLayout = { rows: [INSERTED_ROWS_FROM, 1, 0], columns: [0], nextRow: INSERTED_ROWS_FROM + 1, nextColumn: 0 }
    const moved = [...blockCells([byPlace], undefined, { s1: layout })]
    expect(moved).toEqual([...blockCells([byAddress], undefined, { s1: layout })])
    expect(moved.map((record) => [record.address, record.input])).toEqual([['C70', '=A70*2'], ['A70', '2']])
  })

  it('rewrites a block written by addresses with places, replacing the edited cell rather than adding a second', () => {
    const before = stored(0, 0, [['A1', '1', 1, 1], ['B2', 'text', 'text', 1]])
    const { put, delta } = applyToBlocks('w-1', 2, [{ sheetId: 's1', address: 'B2', row: 1, col: 1, record: { address: 'B2', row: 1, col: 1, input: '5', value: 5, type: 'number' } }], [before])
    expect(put).toHaveLength(1)
    expect(put[0].cells).toEqual([[placeInBlock(0, 0), '1', 1, 1], [placeInBlock(1, 1), '5', 5, 2]])
    expect(delta.get('s1')).toEqual({ cells: 0, formulas: 0 })
    expect([...blockCells(put)].map((record) => [record.address, record.input, record.revision])).toEqual([['A1', '1', 1], ['B2', '5', 2]])
  })
})
