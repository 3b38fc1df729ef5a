import { describe, expect, it } from 'vitest'
import { CellFollower } from './position-map'

const cell = (sheet: string, col: number, row: number) => ({ sheet, col, row })

describe('CellFollower', () => {
  it('moves a cell below inserted rows and right of inserted columns, on its sheet only', () => {
    const follower = new CellFollower([
      { type: 'insert-rows', sheet: 'Sheet1', at: 2, count: 3 },
      { type: 'insert-columns', sheet: 'Sheet1', at: 0, count: 1 },
      { type: 'insert-rows', sheet: 'Sheet2', at: 0, count: 10 },
    ])
    expect(follower.follow(cell('Sheet1', 1, 4))).toEqual({ cell: cell('Sheet1', 2, 7), written: false })
    expect(follower.follow(cell('Sheet1', 1, 1))).toEqual({ cell: cell('Sheet1', 2, 1), written: false })
    expect(follower.follow(cell('Sheet3', 1, 4))).toEqual({ cell: cell('Sheet3', 1, 4), written: false })
  })

  it('loses a cell whose row, column or sheet was deleted, and moves the ones after', () => {
    const follower = new CellFollower([
      { type: 'delete-rows', sheet: 'Sheet1', at: 2, count: 2 },
      { type: 'delete-columns', sheet: 'Sheet1', at: 5, count: 1 },
      { type: 'delete-sheet', name: 'Old' },
    ])
    expect(follower.follow(cell('Sheet1', 0, 3)).cell).toBeNull()
    expect(follower.follow(cell('Sheet1', 5, 0)).cell).toBeNull()
    expect(follower.follow(cell('Old', 0, 0)).cell).toBeNull()
    expect(follower.follow(cell('Sheet1', 6, 9)).cell).toEqual(cell('Sheet1', 5, 7))
  })

  it('follows a renamed sheet and a batch of steps in order', () => {
    const follower = new CellFollower([
      {
        type: 'batch',
        label: 'two',
        commands: [
          { type: 'rename-sheet', from: 'Sheet1', to: 'Inputs' },
          { type: 'insert-rows', sheet: 'Inputs', at: 0, count: 1 },
        ],
      },
    ])
    expect(follower.follow(cell('Sheet1', 0, 0)).cell).toEqual(cell('Inputs', 0, 1))
  })

  it('tells a cell written since, where it was when written', () => {
    const follower = new CellFollower([
      { type: 'insert-rows', sheet: 'Sheet1', at: 0, count: 1 },
      // B3 after the insertion is B2 before it
      { type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'B3', input: 'typed' }] },
      { type: 'format-cells', sheet: 'Sheet1', ranges: ['D1:E10'], style: { bold: true } },
      { type: 'merge-cells', sheet: 'Sheet1', range: 'G2:H2' },
    ])
    expect(follower.follow(cell('Sheet1', 1, 1))).toEqual({ cell: cell('Sheet1', 1, 2), written: true })
    expect(follower.follow(cell('Sheet1', 1, 2)).written).toBe(false)
    expect(follower.follow(cell('Sheet1', 4, 4)).written).toBe(true)
    expect(follower.follow(cell('Sheet1', 7, 0)).written).toBe(true)
    expect(follower.follow(cell('Sheet2', 1, 1)).written).toBe(false)
  })

  it('tells whether the commands move cells or rename sheets', () => {
    expect(new CellFollower([{ type: 'set-cells', sheet: 'Sheet1', cells: [] }]).restructures).toBe(false)
    expect(new CellFollower([{ type: 'delete-columns', sheet: 'Sheet1', at: 0, count: 1 }]).restructures).toBe(true)
    expect(new CellFollower([{ type: 'rename-sheet', from: 'A', to: 'B' }]).restructures).toBe(true)
  })

  it('has nothing to do without commands', () => {
    const follower = new CellFollower([])
    expect(follower.isEmpty).toBe(true)
    expect(follower.restructures).toBe(false)
    expect(follower.follow(cell('Sheet1', 3, 3))).toEqual({ cell: cell('Sheet1', 3, 3), written: false })
  })
})
