import { describe, expect, it } from 'vitest'
import { notKeptText } from './import-report'

const report = (notKept: string[]) => ({ report: { sheets: 1, cells: 1, formulas: 0, matched: 0, mismatchCount: 0, mismatches: [], notKept } })

describe('notKeptText', () => {
  it('lists what the import left out, feature by feature', () => {
    expect(notKeptText(report(['charts: 7, on sheets Summary and Returns', 'macros (vbaProject)']))).toBe('Not kept: charts: 7, on sheets Summary and Returns; macros (vbaProject).')
  })

  it('says nothing when everything was kept or there is no report', () => {
    expect(notKeptText(report([]))).toBe('')
    expect(notKeptText({})).toBe('')
  })
})
