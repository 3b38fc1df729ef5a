import { describe, expect, it } from 'vitest'
import { initials, workbookTitle } from './user-display'

describe('initials', () => {
  it('takes the first letters of up to two words', () => {
    expect(initials('Ada Lovelace')).toBe('AL')
    expect(initials('ada byron lovelace')).toBe('AB')
    expect(initials('  Grace  ')).toBe('G')
    expect(initials('')).toBe('U')
    expect(initials(null)).toBe('U')
    expect(initials('émile zola')).toBe('ÉZ')
  })
})

describe('workbookTitle', () => {
  it('follows the top bar rules', () => {
    expect(workbookTitle(null)).toBe('No workbook selected')
    expect(workbookTitle({ id: 'defaultWorkbook', sheetNames: ['Sheet1'] })).toBe('Default Workbook')
    expect(workbookTitle({ id: 'wb-123456789abc', sheetNames: ['Assumptions', 'Revenue', 'Valuation'] })).toBe('DCF Model')
    expect(workbookTitle({ id: 'wb-123456789abc', sheetNames: ['Assumptions'] })).toBe('Workbook wb-12345')
  })

  it('reads the name the workbook has, so that a rename shows at once', () => {
    expect(workbookTitle({ id: 'wb-123456789abc', name: 'Q3 forecast', sheetNames: ['Assumptions', 'Valuation'] })).toBe('Q3 forecast')
    expect(workbookTitle({ id: 'wb-first', name: 'Default Workbook', sheetNames: ['Sheet1'] })).toBe('Default Workbook')
    expect(workbookTitle({ id: 'wb-123456789abc', name: '  ', sheetNames: ['Sheet1'] })).toBe('Workbook wb-12345')
  })
})
