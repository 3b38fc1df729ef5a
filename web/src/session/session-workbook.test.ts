import type { UserSession, WorkbookMetadata } from '@finsheet/contracts'
import { createDefaultSession } from '@finsheet/contracts'
import { describe, expect, it } from 'vitest'
import { hasRealWorkbook, homeWorkbookId, legacyDefaultSheets, MAX_SESSION_WORKBOOKS, withOpenedWorkbook, withoutWorkbook, workbookEntry } from './session-workbook'

const fresh = (): UserSession => createDefaultSession({ id: 'u1', name: 'Ada', email: 'ada@example.com' }, '2025-01-01T00:00:00.000Z')

const listed = (id: string, extra: Partial<WorkbookMetadata> = {}): WorkbookMetadata => ({
  id,
  workbookId: id,
  name: id,
  createdBy: 'u1',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
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

describe('hasRealWorkbook', () => {
  it('is false with no workbook, and with only the first workbook left empty', () => {
    expect(hasRealWorkbook(null)).toBe(false)
    expect(hasRealWorkbook([])).toBe(false)
    expect(hasRealWorkbook([listed('first', { isDefault: true })])).toBe(false)
  })

  it('is true once the first workbook holds a cell or a second sheet, or any other workbook exists', () => {
    expect(hasRealWorkbook([listed('first', { isDefault: true, totalCells: 1 })])).toBe(true)
    expect(hasRealWorkbook([listed('first', { isDefault: true, totalSheets: 2 })])).toBe(true)
    expect(hasRealWorkbook([listed('upload')])).toBe(true)
    expect(hasRealWorkbook([listed('first', { isDefault: true }), listed('other')])).toBe(true)
  })
})

describe('homeWorkbookId', () => {
  const never = () => Promise.resolve(false)

  it('opens the active workbook, the first one for defaultWorkbook, else the most recent', async () => {
    const workbooks = [listed('recent', { totalCells: 3 }), listed('first', { isDefault: true, totalCells: 2 }), listed('older')]
    expect(await homeWorkbookId({ activeWorkbook: 'older' }, workbooks, never)).toBe('older')
    expect(await homeWorkbookId({ activeWorkbook: 'defaultWorkbook' }, workbooks, never)).toBe('first')
    expect(await homeWorkbookId({ activeWorkbook: 'deleted' }, workbooks, never)).toBe('recent')
    expect(await homeWorkbookId(null, workbooks, never)).toBe('recent')
  })

  it('asks the service about an active workbook past the first page', async () => {
    const asked: string[] = []
    const exists = (id: string) => {
      asked.push(id)
      return Promise.resolve(true)
    }
    expect(await homeWorkbookId({ activeWorkbook: 'page-2' }, [listed('recent', { totalCells: 1 })], exists)).toBe('page-2')
    expect(asked).toEqual(['page-2'])
  })

  it('shows the welcome screen to a user without a real workbook', async () => {
    expect(await homeWorkbookId({ activeWorkbook: 'defaultWorkbook' }, [], never)).toBeNull()
    expect(await homeWorkbookId({ activeWorkbook: 'first' }, [listed('first', { isDefault: true })], never)).toBeNull()
    // once past the welcome screen, the empty first workbook is opened
    expect(await homeWorkbookId({ activeWorkbook: 'first' }, [listed('first', { isDefault: true })], never, { evenEmpty: true })).toBe('first')
    expect(await homeWorkbookId({ activeWorkbook: 'first' }, [], never, { evenEmpty: true })).toBeNull()
  })
})

describe('session entries', () => {
  it('keep where the user was, never cells', () => {
    const entry = workbookEntry({ name: 'Plan', activeSheet: 'A', recentlyOpened: ['A', 'Gone', 'B'], sheetOrder: ['A', 'B'], totalSheets: 2, sheets: {} }, ['A', 'B', 'C'], 'C')
    expect(entry).toEqual({ name: 'Plan', activeSheet: 'C', recentlyOpened: ['C', 'A', 'B'], sheetOrder: ['A', 'B', 'C'], totalSheets: 3, sheets: {} })
  })

  it('make the opened workbook active and the most recent, dropping the placeholder of a new session, and forget the oldest past the limit', () => {
    const session = fresh()
    const entry = workbookEntry(undefined, ['Sheet1'], 'Sheet1', 'Default Workbook')
    const opened = withOpenedWorkbook(session, 'wb-first', entry)
    expect(opened.activeWorkbook).toBe('wb-first')
    expect(Object.keys(opened.workbooks)).toEqual(['wb-first'])

    let many = opened
    for (let i = 0; i < MAX_SESSION_WORKBOOKS + 5; i++) many = withOpenedWorkbook(many, `wb-${i}`, entry)
    expect(Object.keys(many.workbooks)).toHaveLength(MAX_SESSION_WORKBOOKS)
    expect(Object.keys(many.workbooks).at(-1)).toBe(`wb-${MAX_SESSION_WORKBOOKS + 4}`)
    const again = withOpenedWorkbook(many, 'wb-10', entry)
    expect(Object.keys(again.workbooks).at(-1)).toBe('wb-10')
    expect(Object.keys(again.workbooks)).toHaveLength(MAX_SESSION_WORKBOOKS)

    const without = withoutWorkbook(again, 'wb-10')
    expect(without.workbooks['wb-10']).toBeUndefined()
    expect(without.activeWorkbook).toBe('defaultWorkbook')
  })
})

describe('legacyDefaultSheets', () => {
  it('is null for a session whose default workbook holds no cell', () => {
    expect(legacyDefaultSheets(fresh())).toBeNull()
    expect(legacyDefaultSheets(null)).toBeNull()
    const blank = fresh()
    blank.workbooks.defaultWorkbook.sheets.Sheet1.state.cells = { A1: { value: '' } }
    expect(legacyDefaultSheets(blank)).toBeNull()
  })

  it('turns the cells a session kept into sheets for the first workbook: inputs, looks, formats, widths and merges', () => {
    const session = fresh()
    const sheet1 = session.workbooks.defaultWorkbook.sheets.Sheet1.state
    sheet1.cells = {
      A1: { value: 'Revenue', style: { bold: true, colour: 'not a field', fontSize: '12' } },
      B1: { value: 1200, format: '#,##0' },
      B2: { formula: 'B1*2', value: 2400 },
      C1: { value: true },
    }
    sheet1.columnWidths = { '0': 140 }
    sheet1.merges = ['D1:E1']
    session.workbooks.defaultWorkbook.sheets.Notes = { state: { cells: { A1: { formula: '=Sheet1!B2' } } }, lastModified: '' }
    session.workbooks.defaultWorkbook.sheetOrder = ['Notes', 'Sheet1']
    expect(legacyDefaultSheets(session)).toEqual([
      { name: 'Notes', cells: [{ address: 'A1', input: '=Sheet1!B2' }] },
      {
        name: 'Sheet1',
        cells: [
          { address: 'A1', input: 'Revenue', style: { bold: true } },
          { address: 'B1', input: '1200', format: '#,##0' },
          { address: 'B2', input: '=B1*2' },
          { address: 'C1', input: 'TRUE' },
        ],
        columnWidths: { '0': 140 },
        merges: ['D1:E1'],
      },
    ])
  })
})
