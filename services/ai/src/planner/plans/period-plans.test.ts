import { describe, expect, it } from 'vitest'
import { readPeriod } from './period-plans.js'

const next = (text: string, value: unknown = text, inHeaderRow = true, steps = 1) => readPeriod({ col: 1, text, value }, inHeaderRow)?.after(steps)

describe('readPeriod', () => {
  it('counts fiscal years on as they are written', () => {
    expect(next('FY2027')).toBe('FY2028')
    expect(next('FY27', 'FY27', true, 2)).toBe('FY29')
    expect(next("FY'27")).toBe("FY'28")
    expect(next('FY 2027E')).toBe('FY 2028E')
    expect(next('CY2099')).toBe('CY2100')
  })

  it('follows an actual year with an estimate, and keeps estimates and projections', () => {
    expect(next('2025A')).toBe('2026E')
    expect(next('2025a')).toBe('2026e')
    expect(next('2027E', '2027E', false)).toBe('2028E')
    expect(next('2027 P')).toBe('2028 P')
  })

  it('keeps a year typed as a number a number, and one typed as text text', () => {
    expect(next('2027', 2027)).toBe(2028)
    expect(next('2027', '2027')).toBe("'2028")
    expect(next('Year 5')).toBe('Year 6')
  })

  it('reads a bare number as a year only in a header row, and nothing else as a period', () => {
    expect(readPeriod({ col: 1, text: '2027', value: 2027 }, false)).toBeUndefined()
    for (const text of ['Revenue', 'F24', 'Q1 2025', '1899', '12345', 'FY1850']) expect(readPeriod({ col: 1, text, value: text }, true), text).toBeUndefined()
  })
})
