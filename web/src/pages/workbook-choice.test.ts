import { describe, expect, it } from 'vitest'
import { chosenWorkbookId, defaultWorkbookId } from './workbook-choice'

const workbooks = [{ id: 'recent' }, { id: 'older' }]

describe('which workbook a screen starts on', () => {
  it('is the active workbook when the service keeps it, else the most recent', () => {
    expect(defaultWorkbookId(workbooks, 'older')).toBe('older')
    expect(defaultWorkbookId(workbooks, 'defaultWorkbook')).toBe('recent')
    expect(defaultWorkbookId(workbooks, undefined)).toBe('recent')
    expect(defaultWorkbookId([], 'older')).toBeNull()
  })

  it('keeps the user’s choice while that workbook exists', () => {
    expect(chosenWorkbookId(workbooks, 'older', 'recent')).toBe('older')
    expect(chosenWorkbookId(workbooks, 'deleted', 'older')).toBe('older')
    expect(chosenWorkbookId(workbooks, null, undefined)).toBe('recent')
  })
})
