import { describe, expect, it } from 'vitest'
import { dateFromSerial, serialFromDate, timeFromSerial, weekdayFromSerial } from './dates.js'

describe('the 1900 date system', () => {
  it('maps serials to dates across the phantom 1900-02-29', () => {
    expect(serialFromDate(1900, 1, 1)).toBe(1)
    expect(serialFromDate(1900, 2, 28)).toBe(59)
    expect(serialFromDate(1900, 2, 29)).toBe(60)
    expect(serialFromDate(1900, 3, 1)).toBe(61)
    expect(serialFromDate(2024, 1, 31)).toBe(45322)
    expect(serialFromDate(9999, 12, 31)).toBe(2958465)
    expect(dateFromSerial(60)).toEqual({ year: 1900, month: 2, day: 29 })
    expect(dateFromSerial(61)).toEqual({ year: 1900, month: 3, day: 1 })
    expect(dateFromSerial(59)).toEqual({ year: 1900, month: 2, day: 28 })
    expect(dateFromSerial(45322.75)).toEqual({ year: 2024, month: 1, day: 31 })
  })

  it('normalises months and days as DATE does', () => {
    expect(serialFromDate(2023, 13, 1)).toBe(serialFromDate(2024, 1, 1))
    expect(serialFromDate(2024, 3, 0)).toBe(serialFromDate(2024, 2, 29))
    expect(serialFromDate(2024, 0, 1)).toBe(serialFromDate(2023, 12, 1))
  })

  it('round-trips every day of a few decades', () => {
    for (let serial = 1; serial < 40000; serial += 7) {
      const { year, month, day } = dateFromSerial(serial)
      expect(serialFromDate(year, month, day)).toBe(serial)
    }
  })

  it('gives weekdays and times', () => {
    expect(weekdayFromSerial(45322)).toBe(3) // 2024-01-31 was a Wednesday
    expect(timeFromSerial(0.75)).toEqual({ hours: 18, minutes: 0, seconds: 0, ms: 0 })
  })
})
