import { describe, expect, it } from 'vitest'
import type { SetCellsCommand, WorkbookCommand } from '@finsheet/contracts'
import { isRepeatable, pendingEditsFor, pendingEditsKey } from './pending-edits'
import { MemoryStorage } from '../storage/memory-storage'

const typed = (address: string, input: string): SetCellsCommand => ({ type: 'set-cells', sheet: 'Sheet1', cells: [{ address, input }] })
const insertRow = { type: 'insert-rows' as const, sheet: 'Sheet1', at: 2, count: 1 }

describe('edits kept until the spreadsheet service accepts them', () => {
  it('keeps queued edits per user and workbook, and forgets them once nothing is pending', () => {
    const storage = new MemoryStorage()
    const ada = pendingEditsFor('ada', 'wb-1', storage)
    ada.save([], [typed('A1', '1'), insertRow])
    expect(pendingEditsFor('ada', 'wb-1', storage).load()).toEqual([typed('A1', '1'), insertRow])
    expect(pendingEditsFor('bob', 'wb-1', storage).load()).toEqual([])
    expect(pendingEditsFor('ada', 'wb-2', storage).load()).toEqual([])
    ada.save([], [])
    expect(storage.getItem(pendingEditsKey('ada', 'wb-1'))).toBeNull()
  })

  it('replays sent edits whose answer never came only when applying them twice changes nothing', () => {
    const storage = new MemoryStorage()
    const edits = pendingEditsFor('ada', 'wb-1', storage)
    const pasted: WorkbookCommand = { type: 'batch', label: 'Paste', commands: [typed('B1', '2'), typed('B2', '3')] }
    const insertedAndTyped: WorkbookCommand = { type: 'batch', label: 'Insert row', commands: [insertRow, typed('A3', 'x')] }
    edits.save([typed('A1', '1'), insertRow, pasted, insertedAndTyped], [typed('C1', '4'), insertRow])
    // Unconfirmed first, in order, without the row insertions; queued ones all, insertion included.
    expect(edits.load()).toEqual([typed('A1', '1'), pasted, typed('C1', '4'), insertRow])
    expect(isRepeatable({ type: 'resize-column', sheet: 'Sheet1', column: 2, width: 120 })).toBe(true)
    expect(isRepeatable({ type: 'delete-columns', sheet: 'Sheet1', at: 0, count: 2 })).toBe(false)
  })

  it('drops an entry it cannot read, and keeps working when the storage refuses writes', () => {
    const storage = new MemoryStorage()
    storage.setItem(pendingEditsKey('ada', 'wb-1'), '{"unconfirmed": "not a list"')
    expect(pendingEditsFor('ada', 'wb-1', storage).load()).toEqual([])
    expect(storage.getItem(pendingEditsKey('ada', 'wb-1'))).toBeNull()
    storage.failWrites = true
    expect(() => pendingEditsFor('ada', 'wb-1', storage).save([], [typed('A1', '1')])).not.toThrow()
    expect(pendingEditsFor('ada', 'wb-1', undefined).load()).toEqual([])
  })
})
