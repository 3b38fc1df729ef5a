/**
 * Conditional formats of an uploaded workbook on their way to the spreadsheet service: the rules the
 * workbook can evaluate go with their sheet, those it cannot (kinds not kept, formulas that cannot be
 * read) are counted in notKept, and a sheet without rules sends none.
 */
import { describe, expect, it } from 'vitest'
import type { ConditionalFormatRule } from '@finsheet/contracts'
import type { ImportedWorkbook } from '@finsheet/workbook'
import { prepareImport } from './workbook-import-body.js'

const kept: ConditionalFormatRule = { type: 'cellIs', ranges: ['A1:A9'], operator: 'greaterThan', formulas: ['100'], style: { fill: '#FFC7CE' } }
const unreadable: ConditionalFormatRule = { type: 'expression', ranges: ['A1:A9'], formulas: ['A1>>'] }

function workbook(rules: ConditionalFormatRule[] | undefined, skipped?: number): ImportedWorkbook {
  return {
    sheets: [
      {
        name: 'Data',
        state: 'visible',
        cells: [{ row: 0, col: 0, address: 'A1', value: 10 }],
        merges: [],
        columns: [],
        rows: [],
        rowCount: 1,
        columnCount: 1,
        ...(rules ? { conditionalFormats: rules } : {}),
        ...(skipped ? { conditionalFormatsNotKept: skipped } : {}),
      },
    ],
    definedNames: [],
    styles: [],
    date1904: false,
    cellCount: 1,
    formulaCount: 0,
  }
}

describe('conditional formats in the import body', () => {
  it('sends the rules the workbook can evaluate with their sheet, in both forms of the body', () => {
    const prepared = prepareImport(workbook([kept]), 'Book')
    expect(prepared.body('job').sheets[0].conditionalFormats).toEqual([kept])
    const header = JSON.parse([...prepareImport(workbook([kept]), 'Book').lines({ importId: 'job' })][0].split('\n')[0])
    expect(header.sheets[0].conditionalFormats).toEqual([kept])
    expect(prepared.notKept.some((item) => item.includes('conditional'))).toBe(false)
  })

  it('leaves out rules it cannot evaluate and says how many', () => {
    const prepared = prepareImport(workbook([unreadable, kept], 2), 'Book')
    expect(prepared.body('job').sheets[0].conditionalFormats).toEqual([kept])
    expect(prepared.notKept).toContain('conditional formats of kinds not kept (dates, blanks, errors) or with formulas that cannot be read: 3')
  })

  it('sends no rules for a sheet without them', () => {
    expect(prepareImport(workbook(undefined), 'Book').body('job').sheets[0].conditionalFormats).toBeUndefined()
  })
})
