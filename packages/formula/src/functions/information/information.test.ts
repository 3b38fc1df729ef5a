import { describe, expect, it } from 'vitest'
import { calc, calcArray } from '../math/engine-test-kit.js'

const cells = { A1: 5, A2: 'text', A3: true, A4: '=1/0', A5: '=NA()', A7: '', B1: '=A1*2' }

describe('IS functions', () => {
  it('tell numbers, text, logical values, blanks and errors apart', () => {
    expect(calc('ISNUMBER(A1)', cells)).toBe(true)
    expect(calc('ISNUMBER("5")')).toBe(false)
    expect(calc('ISTEXT(A2)', cells)).toBe(true)
    expect(calc('ISNONTEXT(A6)', cells)).toBe(true)
    expect(calc('ISLOGICAL(A3)', cells)).toBe(true)
    expect(calc('ISBLANK(A6)', cells)).toBe(true)
    expect(calc('ISBLANK("")')).toBe(false)
    expect(calc('ISERROR(A4)', cells)).toBe(true)
    expect(calc('ISERR(A5)', cells)).toBe(false)
    expect(calc('ISERR(A4)', cells)).toBe(true)
    expect(calc('ISNA(A5)', cells)).toBe(true)
    expect(calcArray('ISNUMBER(A1:A3)', 3, 1, cells)).toEqual([[true], [false], [false]])
  })

  it('ISEVEN and ISODD truncate numbers and refuse logical values', () => {
    expect(calc('ISEVEN(-1)')).toBe(false)
    expect(calc('ISEVEN(2.5)')).toBe(true)
    expect(calc('ISODD(5)')).toBe(true)
    expect(calc('ISODD("3")')).toBe(true)
    expect(calc('ISEVEN(A6)', cells)).toBe(true)
    expect(calc('ISEVEN(TRUE)')).toBe('#VALUE!')
    expect(calc('ISODD("x")')).toBe('#VALUE!')
  })

  it('ISREF and ISFORMULA look at references', () => {
    expect(calc('ISREF(A1)', cells)).toBe(true)
    expect(calc('ISREF(A1:B2)', cells)).toBe(true)
    expect(calc('ISREF(5)')).toBe(false)
    expect(calc('ISFORMULA(B1)', cells)).toBe(true)
    expect(calc('ISFORMULA(A1)', cells)).toBe(false)
    expect(calc('ISFORMULA(5)')).toBe('#VALUE!')
  })
})

describe('N, NA, TYPE, ERROR.TYPE, CELL', () => {
  it('N turns values into numbers', () => {
    expect(calc('N(A1)', cells)).toBe(5)
    expect(calc('N(A2)', cells)).toBe(0)
    expect(calc('N(TRUE)')).toBe(1)
    expect(calc('N(A4)', cells)).toBe('#DIV/0!')
    expect(calc('NA()')).toBe('#N/A')
  })

  it('TYPE numbers the kind of a value', () => {
    expect(calc('TYPE(A1)', cells)).toBe(1)
    expect(calc('TYPE(A6)', cells)).toBe(1)
    expect(calc('TYPE(A2)', cells)).toBe(2)
    expect(calc('TYPE(A3)', cells)).toBe(4)
    expect(calc('TYPE(A4)', cells)).toBe(16)
    expect(calc('TYPE({1,2})')).toBe(64)
  })

  it('ERROR.TYPE numbers errors and is #N/A for anything else', () => {
    expect(calc('ERROR.TYPE(A4)', cells)).toBe(2)
    expect(calc('ERROR.TYPE(A5)', cells)).toBe(7)
    expect(calc('ERROR.TYPE(#NULL!)')).toBe(1)
    expect(calc('ERROR.TYPE(SEQUENCE(0))')).toBe(14)
    expect(calc('ERROR.TYPE(A1)', cells)).toBe('#N/A')
  })

  it('CELL describes the top-left cell of a reference', () => {
    expect(calc('CELL("address", B2:C3)')).toBe('$B$2')
    expect(calc('CELL("row", B7)')).toBe(7)
    expect(calc('CELL("col", C7)')).toBe(3)
    expect(calc('CELL("contents", A2)', cells)).toBe('text')
    expect(calc('CELL("contents", A6)', cells)).toBe(0)
    expect(calc('CELL("type", A6)', cells)).toBe('b')
    expect(calc('CELL("type", A2)', cells)).toBe('l')
    expect(calc('CELL("TYPE", A1)', cells)).toBe('v')
    expect(calc('CELL("bogus", A1)', cells)).toBe('#VALUE!')
    expect(calc('CELL(2, A1)', cells)).toBe('#VALUE!')
  })
})
