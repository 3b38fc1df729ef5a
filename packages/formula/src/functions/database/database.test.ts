import { describe, expect, it } from 'vitest'
import { CellError } from '../../values.js'
import type { Scalar } from '../../values.js'
import { caller, makeSheet, ref } from '../lookup/test-harness.js'
import { functions } from './index.js'

const fn = caller(functions)

// Excel's documented example: an orchard.
const sheet = makeSheet([
  ['Tree', 'Height', 'Age', 'Yield', 'Profit', 'Height'],
  ['=Apple', '>10', null, null, null, '<16'],
  ['=Pear', null, null, null, null, null],
  [],
  ['Tree', 'Height', 'Age', 'Yield', 'Profit'],
  ['Apple', 18, 20, 14, 105],
  ['Pear', 12, 12, 10, 96],
  ['Cherry', 13, 14, 9, 105],
  ['Apple', 14, 15, 10, 75],
  ['Pear', 9, 8, 8, 76.8],
  ['Apple', 8, 9, 6, 45],
])
const database = ref(sheet, 'A5:E11')
const criteria = ref(sheet, 'A1:F3')

describe('database functions', () => {
  it('aggregate the records that meet the criteria (Excel documentation example)', () => {
    const firstRow = ref(sheet, 'A1:F2')
    expect(fn('DCOUNT', database, 'Age', firstRow)).toBe(1)
    expect(fn('DCOUNTA', database, 'Profit', firstRow)).toBe(1)
    expect(fn('DMAX', database, 'Profit', ref(sheet, 'A1:A3'))).toBe(105)
    expect(fn('DMIN', database, 'Profit', ref(sheet, 'A1:B2'))).toBe(75)
    expect(fn('DSUM', database, 'Profit', ref(sheet, 'A1:A2'))).toBe(225)
    expect(fn('DSUM', database, 'Profit', firstRow)).toBe(75)
    expect(fn('DPRODUCT', database, 'Yield', firstRow)).toBe(10)
    expect(fn('DAVERAGE', database, 'Yield', ref(sheet, 'A1:B2'))).toBe(12)
    expect(fn('DAVERAGE', database, 3, database)).toBeCloseTo(13, 12)
    expect(fn('DSTDEV', database, 'Yield', ref(sheet, 'A1:A3'))).toBeCloseTo(2.96647939483827, 12)
    expect(fn('DSTDEVP', database, 'Yield', ref(sheet, 'A1:A3'))).toBeCloseTo(2.65329983228432, 12)
    expect(fn('DVAR', database, 'Yield', ref(sheet, 'A1:A3'))).toBeCloseTo(8.8, 12)
    expect(fn('DVARP', database, 'Yield', ref(sheet, 'A1:A3'))).toBeCloseTo(7.04, 12)
    expect(fn('DCOUNT', database, 'Age', criteria)).toBe(3)
    expect(fn('DGET', database, 'Yield', ref(sheet, 'A1:A3'))).toBe(CellError.NUM)
    expect(fn('DGET', database, 'Yield', firstRow)).toBe(10)
  })

  it('matches plain text as a prefix and =text exactly', () => {
    const words = makeSheet([['City'], ['Berlin'], ['Berlino'], [' Berlin'], ['BERLIN'], [], ['City'], ['Berlin'], ['City'], ['=Berlin']])
    const table = ref(words, 'A1:A5')
    expect(fn('DCOUNTA', table, 'City', ref(words, 'A7:A8'))).toBe(3)
    expect(fn('DCOUNTA', table, 'City', ref(words, 'A9:A10'))).toBe(2)
    expect(fn('DGET', table, 'City', ref(words, 'A9:A10'))).toBe(CellError.NUM)
  })

  it('DMAX and DMIN read more records than one call can take as arguments', () => {
    const rows: Scalar[][] = Array.from({ length: 150_001 }, (_, i) => (i === 0 ? ['n', null, 'n'] : [i]))
    rows[1].push(null, '>0')
    const big = makeSheet(rows)
    expect(fn('DMAX', ref(big, 'A1:A150001'), 'n', ref(big, 'C1:C2'))).toBe(150_000)
    expect(fn('DMIN', ref(big, 'A1:A150001'), 'n', ref(big, 'C1:C2'))).toBe(1)
  })

  it('rejects unknown fields and tables without records', () => {
    expect(fn('DSUM', database, 'Weight', criteria)).toBe(CellError.VALUE)
    expect(fn('DSUM', database, 0, criteria)).toBe(CellError.VALUE)
    expect(fn('DSUM', database, 6, criteria)).toBe(CellError.VALUE)
    expect(fn('DSUM', ref(sheet, 'A5:E5'), 'Profit', criteria)).toBe(CellError.VALUE)
    expect(fn('DSUM', database, ref(sheet, 'A5:B5'), criteria)).toBe(CellError.VALUE)
    expect(fn('DCOUNT', database, criteria)).toBe(3)
  })
})
