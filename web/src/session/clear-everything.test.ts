import type { UserSession } from '@finsheet/contracts'
import { describe, expect, it } from 'vitest'
import { clearEverythingEffects } from './clear-everything'

const entry = { activeSheet: 'Sheet1', recentlyOpened: ['Sheet1'], sheetOrder: ['Sheet1'], totalSheets: 1, sheets: {} }
const session = (ids: string[]): UserSession => ({ id: 'u', name: 'Ada', email: null, role: 'admin', activeWorkbook: ids[0] ?? 'defaultWorkbook', workbooks: Object.fromEntries(ids.map((id) => [id, entry])) })

describe('clearEverythingEffects', () => {
  it('says the session forgets where the user was, and that every workbook stays in the account', () => {
    const lines = clearEverythingEffects(session(['a', 'b']), [{ id: 'a' }, { id: 'b' }, { id: 'c' }])
    expect(lines[0]).toBe('Your session forgets which workbook was open and where you were in 2 workbooks.')
    expect(lines[1]).toBe('Your 3 workbooks stay in your account with their cells and versions: open them again from the workbooks list (File → Open).')
    expect(lines[2]).toContain('your sign-in (you sign in again)')
    expect(lines.at(-1)).toBe('Then the page reloads.')
  })

  it('speaks of one workbook, or of none, as it is', () => {
    expect(clearEverythingEffects(session(['a']), [{ id: 'a' }])[1]).toBe('Your workbook stays in your account with its cells and versions: open it again from the workbooks list (File → Open).')
    const none = clearEverythingEffects(null, [])
    expect(none[0]).toBe('Your session forgets which workbook was open.')
    expect(none[1]).toBe('You have no workbook yet: nothing of yours is erased.')
  })
})
