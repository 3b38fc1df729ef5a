import type { DeferredDocument } from '@finsheet/platform'
import { describe, expect, it } from 'vitest'
import { BLOCK_COLUMNS, BLOCK_ROWS, blockPlaceOf, rowMajorCells, type CellBlockDoc, type StoredCell } from './cell-blocks.js'
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
