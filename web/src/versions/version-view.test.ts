import type { CompareVersionsResponse, VersionRecord } from '@finsheet/contracts'
import { describe, expect, it } from 'vitest'
import {
  cellText,
  comparisonHeadline,
  comparisonPair,
  filterVersions,
  previousVersions,
  relativeTime,
  sheetDiffs,
  toggleSelection,
  versionCounts,
  versionSummary,
} from './version-view'

function version(patch: Partial<VersionRecord> & Pick<VersionRecord, 'id' | 'workbookId' | 'number'>): VersionRecord {
  return {
    fileName: 'DCF Model',
    author: 'Ada Lovelace',
    authorId: 'u1',
    timestamp: '2026-01-10T12:00:00.000Z',
    type: 'minor',
    status: 'previous',
    changes: 'Edited 1 cell on Assumptions.',
    aiSummary: null,
    tags: [],
    revision: 1,
    sheets: 2,
    cells: 100,
    formulas: 40,
    restoredFrom: null,
    ...patch,
  }
}

const now = Date.parse('2026-01-10T12:00:00.000Z')
const ago = (ms: number) => new Date(now - ms).toISOString()

describe('relative time (spec 1 §9)', () => {
  it('counts minutes under an hour, hours under a day, days after', () => {
    expect(relativeTime(ago(0), now)).toBe('0 minutes ago')
    expect(relativeTime(ago(60_000), now)).toBe('1 minute ago')
    expect(relativeTime(ago(59 * 60_000 + 59_000), now)).toBe('59 minutes ago')
    expect(relativeTime(ago(3_600_000), now)).toBe('1 hour ago')
    expect(relativeTime(ago(23.9 * 3_600_000), now)).toBe('23 hours ago')
    expect(relativeTime(ago(24 * 3_600_000), now)).toBe('1 day ago')
    expect(relativeTime(ago(10 * 24 * 3_600_000), now)).toBe('10 days ago')
    // a clock a little behind the server's never shows a negative time
    expect(relativeTime(new Date(now + 5000).toISOString(), now)).toBe('0 minutes ago')
  })
})

describe('the AI summary computed from a version', () => {
  const first = version({ id: 'v1', workbookId: 'w', number: 1, type: 'major', tags: ['template', 'Valuation'], cells: 118, formulas: 68 })
  it('prefers the assistant summary of an AI changeset', () => {
    expect(versionSummary(version({ id: 'x', workbookId: 'w', number: 2, aiSummary: 'Raised growth to 10%.' }), first)).toBe('Raised growth to 10%.')
  })

  it('describes the first version by where it came from and its size', () => {
    expect(versionSummary(first, undefined)).toBe('Created from a template: 118 cells and 68 formulas on 2 sheets.')
    expect(versionSummary(version({ id: 'i', workbookId: 'w', number: 1, tags: ['import'], cells: 1, formulas: 0, sheets: 1 }), undefined)).toBe(
      'Imported: 1 cell and 0 formulas on 1 sheet.',
    )
  })

  it('says how the counts moved since the version before, and warns when formulas went', () => {
    const grown = version({ id: 'v2', workbookId: 'w', number: 2, tags: ['Assumptions'], cells: 121, formulas: 70 })
    expect(versionSummary(grown, first)).toBe('A small edit on Assumptions: +3 cells, +2 formulas since version 1. Now 121 cells and 70 formulas on 2 sheets.')
    const inPlace = version({ id: 'v3', workbookId: 'w', number: 3, type: 'auto-save', cells: 121, formulas: 70 })
    expect(versionSummary(inPlace, grown)).toBe(
      'An automatic save of a larger batch of edits that changed contents in place since version 2. Now 121 cells and 70 formulas on 2 sheets.',
    )
    const shrunk = version({ id: 'v4', workbookId: 'w', number: 4, type: 'major', tags: ['saved', 'Valuation'], cells: 110, formulas: 61, sheets: 3 })
    expect(versionSummary(shrunk, inPlace)).toBe(
      'A major change on Valuation: −11 cells, −9 formulas, +1 sheet since version 3. Now 110 cells and 61 formulas on 3 sheets. 9 formulas fewer: check the results that depended on them.',
    )
  })

  it('names the version a restore brought back', () => {
    const restore = version({ id: 'v5', workbookId: 'w', number: 5, type: 'major', restoredFrom: 'v1', tags: ['restore'] })
    expect(versionSummary(restore, first, first)).toBe('Brings back version 1 of 2026-01-10 12:00 UTC; the workbook holds 100 cells and 40 formulas on 2 sheets again.')
    expect(versionSummary(restore, first)).toContain('Brings back an earlier version')
  })

  it('finds the previous version of the same workbook by number', () => {
    const list = [version({ id: 'a2', workbookId: 'a', number: 2 }), version({ id: 'b1', workbookId: 'b', number: 1 }), version({ id: 'a1', workbookId: 'a', number: 1 })]
    const previous = previousVersions(list)
    expect(previous.get('a2')?.id).toBe('a1')
    expect(previous.has('a1')).toBe(false)
    expect(previous.has('b1')).toBe(false)
  })
})

describe('version filters (spec 1 §4)', () => {
  const entries = [
    { version: version({ id: '1', workbookId: 'w1', number: 1, fileName: 'DCF Model', type: 'major', tags: ['template'] }), summary: 'Created from a template' },
    { version: version({ id: '2', workbookId: 'w1', number: 2, fileName: 'DCF Model', author: 'Grace Hopper', type: 'minor' }), summary: 'A small edit' },
    { version: version({ id: '3', workbookId: 'w2', number: 1, fileName: 'DCF Model (2)', type: 'auto-save', changes: 'Filled 40 cells on Sheet1.' }), summary: 'x' },
    { version: version({ id: '4', workbookId: 'w3', number: 1, fileName: 'Budget', type: 'minor', tags: ['Q3 Forecast'] }), summary: 'y' },
  ]
  const ids = (filters: Parameters<typeof filterVersions>[1]) => filterVersions(entries, filters).map((e) => e.version.id)
  const none = { search: '', type: 'all' as const, workbook: null }

  it('searches file name, author, changes, summary and tags without regard to case', () => {
    expect(ids({ ...none, search: 'grace' })).toEqual(['2'])
    expect(ids({ ...none, search: 'BUDGET' })).toEqual(['4'])
    expect(ids({ ...none, search: 'filled 40' })).toEqual(['3'])
    expect(ids({ ...none, search: 'small edit' })).toEqual(['2'])
    expect(ids({ ...none, search: 'q3 forecast' })).toEqual(['4'])
    expect(ids({ ...none, search: 'nothing like this' })).toEqual([])
  })

  it('keeps one type unless All, and workbooks whose file name starts with the selected name', () => {
    expect(ids({ ...none, type: 'minor' })).toEqual(['2', '4'])
    expect(ids({ ...none, type: 'auto-save' })).toEqual(['3'])
    expect(ids({ ...none, workbook: 'DCF Model' })).toEqual(['1', '2', '3'])
    expect(ids({ ...none, workbook: 'DCF Model', type: 'major', search: 'template' })).toEqual(['1'])
  })

  it('counts the versions of each workbook', () => {
    const list = entries.map((e) => e.version)
    expect(versionCounts([{ id: 'w1', name: 'DCF Model' }, { id: 'w9', name: 'Empty' }], list)).toEqual([
      { id: 'w1', name: 'DCF Model', count: 2 },
      { id: 'w9', name: 'Empty', count: 0 },
    ])
  })
})

describe('comparing two versions', () => {
  const v1 = version({ id: '1', workbookId: 'w', number: 1 })
  const v3 = version({ id: '3', workbookId: 'w', number: 3 })
  const other = version({ id: 'o', workbookId: 'x', number: 1 })

  it('takes two versions of one workbook, older first; a third choice replaces the first', () => {
    expect(comparisonPair([v3, v1])).toEqual({ from: v1, to: v3 })
    expect(comparisonPair([v1])).toBeNull()
    expect(comparisonPair([v1, other])).toBeNull()
    expect(toggleSelection([v1, v3], other).map((v) => v.id)).toEqual(['3', 'o'])
    expect(toggleSelection([v1, v3], v1).map((v) => v.id)).toEqual(['3'])
  })

  const comparison: Pick<CompareVersionsResponse, 'cells' | 'summary' | 'sheets'> = {
    summary: { added: 1, removed: 1, changed: 2, inputsChanged: 3, valuesChanged: 4 },
    sheets: { added: [], removed: [], renamed: [{ from: 'Sheet1', to: 'Inputs' }] },
    cells: [
      { sheet: 'Valuation', address: 'C10', status: 'changed', inputChanged: false, valueChanged: true, before: { input: '=B10*2', value: 2.5, type: 'number' }, after: { input: '=B10*2', value: 3, type: 'number' } },
      { sheet: 'Inputs', address: 'B5', status: 'changed', inputChanged: true, valueChanged: true, before: { input: '0.08', value: 0.08, type: 'number' }, after: { input: '0.1', value: 0.1, type: 'number' } },
      { sheet: 'Valuation', address: 'A2', status: 'added', inputChanged: true, valueChanged: true, before: null, after: { input: 'Notes', value: 'Notes', type: 'text' } },
      { sheet: 'Valuation', address: 'B1', status: 'removed', inputChanged: true, valueChanged: true, before: { input: '=1/0', value: '#DIV/0!', type: 'error' }, after: null },
    ],
  }

  it('lays the differences out by sheet in reading order, formulas with their values', () => {
    expect(sheetDiffs(comparison)).toEqual([
      {
        sheet: 'Valuation',
        rows: [
          { address: 'B1', status: 'removed', before: '=1/0 → #DIV/0!', after: '', edited: true },
          { address: 'A2', status: 'added', before: '', after: 'Notes', edited: true },
          { address: 'C10', status: 'changed', before: '=B10*2 → 2.5', after: '=B10*2 → 3', edited: false },
        ],
      },
      { sheet: 'Inputs', rows: [{ address: 'B5', status: 'changed', before: '0.08', after: '0.1', edited: true }] },
    ])
    expect(cellText({ input: '=0.1+0.2', value: 0.30000000000000004, type: 'number' })).toBe('=0.1+0.2 → 0.3')
  })

  it('sums the comparison up in one line', () => {
    expect(comparisonHeadline(comparison)).toBe('1 cell added, 1 cell removed, 1 cell edited, 1 value recalculated, sheet Sheet1 renamed to Inputs')
    expect(comparisonHeadline({ summary: { added: 0, removed: 0, changed: 0, inputsChanged: 0, valuesChanged: 0 }, sheets: { added: [], removed: [], renamed: [] } })).toBe(
      'No cell differs between these versions',
    )
  })
})
