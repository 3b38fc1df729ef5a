import type { UserSession } from '@finsheet/contracts'
import { describe, expect, it } from 'vitest'
import { WorkbookStore } from '../workbook/workbook-store'
import { clearEverythingEffects, defaultWorkbookHasCells } from './clear-everything'

const session = (workbooks: UserSession['workbooks']): UserSession => ({ id: 'u', name: 'Ada', email: 'ada@example.com', role: 'admin', activeWorkbook: 'defaultWorkbook', workbooks })

const entry = (cells: Record<string, { value?: string; formula?: string }>) => ({
  activeSheet: 'Sheet1',
  recentlyOpened: [],
  sheetOrder: ['Sheet1'],
  totalSheets: 1,
  sheets: { Sheet1: { state: { cells, activeView: 'spreadsheet' }, lastModified: '' } },
})

describe('clearEverythingEffects', () => {
  it('counts the workbooks the session forgets and says they stay in the account', () => {
    const lines = clearEverythingEffects(session({ defaultWorkbook: entry({}), a: entry({}), b: entry({}) }), false)
    expect(lines[0]).toBe('Your session forgets its 2 workbooks. They stay in your account with their versions: open them again from Version Control.')
    expect(lines[1]).toBe('The Default Workbook is empty: nothing in it is lost.')
    expect(lines.at(-1)).toBe('Then the page reloads.')
  })

  it('says the default workbook’s cells are kept as a workbook before they are erased', () => {
    const lines = clearEverythingEffects(session({ defaultWorkbook: entry({ A1: { value: 'x' } }) }), true)
    expect(lines[0]).toBe('Your session forgets which workbook was open.')
    expect(lines[1]).toContain('Its cells are first saved as a new workbook')
    expect(lines[2]).toContain('your sign-in')
  })
})

describe('defaultWorkbookHasCells', () => {
  it('reads the session, or the open copy when the default workbook is open', () => {
    expect(defaultWorkbookHasCells(session({ defaultWorkbook: entry({ A1: { value: 'x' } }) }), null)).toBe(true)
    expect(defaultWorkbookHasCells(session({ defaultWorkbook: entry({}) }), null)).toBe(false)
    const open = new WorkbookStore({ id: 'defaultWorkbook', sheets: [{ name: 'Sheet1', cells: {} }] })
    open.dispatch({ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'B2', input: 'typed, not saved yet' }] })
    expect(defaultWorkbookHasCells(session({ defaultWorkbook: entry({}) }), open)).toBe(true)
    expect(defaultWorkbookHasCells(null, null)).toBe(false)
  })
})
