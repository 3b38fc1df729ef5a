import type { WorkbookMetadata } from '@finsheet/contracts'
import { describe, expect, it } from 'vitest'
import { deleteMessage, newestFirst, sheetSummary, workbookNameProblem, workbookOrigin, workbookSize } from './workbook-list'

const book = (name: string, updatedAt: string, extra: Partial<WorkbookMetadata> = {}): WorkbookMetadata => ({
  id: name,
  workbookId: name,
  name,
  createdBy: 'u',
  createdAt: updatedAt,
  updatedAt,
  sheets: ['Sheet1'],
  isAIGenerated: false,
  storageUrl: null,
  templateId: null,
  revision: 1,
  totalSheets: 1,
  totalCells: 0,
  totalFormulas: 0,
  isDefault: false,
  ...extra,
})

describe('the workbooks list', () => {
  it('shows the most recently changed first, ties by name', () => {
    const list = newestFirst([book('b', '2025-01-01T00:00:00Z'), book('c', '2025-03-01T00:00:00Z'), book('a', '2025-01-01T00:00:00Z')])
    expect(list.map((w) => w.name)).toEqual(['c', 'a', 'b'])
  })

  it('says sizes, sheets and origins in words', () => {
    expect(workbookSize({ totalCells: 1, totalFormulas: 0 })).toBe('1 cell')
    expect(workbookSize({ totalCells: 12_400, totalFormulas: 3 })).toBe('12,400 cells, 3 formulas')
    expect(sheetSummary(['Sheet1'])).toBe('1 sheet: Sheet1')
    expect(sheetSummary(['A', 'B', 'C', 'D', 'E'])).toBe('5 sheets: A, B, C, …')
    expect(workbookOrigin(book('x', '2025-01-01T00:00:00Z', { isDefault: true }))).toBe('First workbook')
    expect(workbookOrigin(book('x', '2025-01-01T00:00:00Z', { isAIGenerated: true }))).toBe('Assistant')
    expect(workbookOrigin(book('x', '2025-01-01T00:00:00Z', { templateId: 'dcf' }))).toBe('Template')
    expect(workbookOrigin(book('x', '2025-01-01T00:00:00Z', { storageUrl: 'blob://f' }))).toBe('Upload')
    expect(workbookOrigin(book('x', '2025-01-01T00:00:00Z'))).toBeNull()
    expect(deleteMessage('Budget')).toBe('Budget goes to the trash with its sheets, history and versions. Undo brings it back; after 30 days it is erased for good.')
  })

  it('refuses an empty or too long name before it is sent', () => {
    expect(workbookNameProblem('  ', 200)).toBe('A workbook needs a name.')
    expect(workbookNameProblem('x'.repeat(201), 200)).toBe('A workbook name has at most 200 characters.')
    expect(workbookNameProblem(' Budget ', 200)).toBeNull()
  })
})
