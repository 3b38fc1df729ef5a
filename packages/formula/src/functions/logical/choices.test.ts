import { describe, expect, it } from 'vitest'
import { calc, calcArray } from '../math/engine-test-kit.js'

describe('OR, XOR, AND, NOT, TRUE, FALSE', () => {
  const cells = { A1: true, A2: false, A3: 'text', A4: 0, A5: 2 }

  it('OR is TRUE when any value is; XOR when an odd number are', () => {
    expect(calc('OR(A1:A2)', cells)).toBe(true)
    expect(calc('OR(A2, A4)', cells)).toBe(false)
    expect(calc('XOR(TRUE, TRUE)')).toBe(false)
    expect(calc('XOR(A1:A5)', cells)).toBe(false)
    expect(calc('XOR(3>0, 2<9, 1>0)')).toBe(true)
  })

  it('skips text and empty cells in ranges, and empty text typed directly', () => {
    expect(calc('OR(A3, A2)', cells)).toBe(false)
    expect(calc('OR("", TRUE)')).toBe(true)
    expect(calc('OR(A3)', cells)).toBe('#VALUE!')
    expect(calc('OR("maybe", TRUE)')).toBe('#VALUE!')
    expect(calc('OR(1/0, TRUE)')).toBe('#DIV/0!')
  })

  it('AND reads its arguments as OR does', () => {
    expect(calc('AND(A1, A3, A5)', cells)).toBe(true)
    expect(calc('AND(A1:A5)', cells)).toBe(false)
    expect(calc('AND("", TRUE)')).toBe(true)
    expect(calc('AND("")')).toBe('#VALUE!')
    expect(calc('AND(TRUE, 1/0)')).toBe('#DIV/0!')
  })

  it('NOT reverses a logical value, and TRUE() and FALSE() are constants', () => {
    expect(calc('NOT(FALSE)')).toBe(true)
    expect(calc('NOT(1+1=2)')).toBe(false)
    expect(calc('NOT("x")')).toBe('#VALUE!')
    expect(calc('TRUE()')).toBe(true)
    expect(calc('FALSE()')).toBe(false)
  })
})

describe('IFNA, IFS, SWITCH', () => {
  it('IFNA replaces only #N/A', () => {
    expect(calc('IFNA(NA(), "none")')).toBe('none')
    expect(calc('IFNA(1/0, "none")')).toBe('#DIV/0!')
    expect(calc('IFNA(5, "none")')).toBe(5)
    expect(calcArray('IFNA({1,#N/A,3}, 0)', 1, 3)).toEqual([[1, 0, 3]])
    expect(calcArray('IFNA({1,#N/A,#DIV/0!}, {7,8,9})', 1, 3)).toEqual([[1, 8, '#DIV/0!']])
    expect(calcArray('IFERROR({1,#N/A,#DIV/0!}, {7,8,9})', 1, 3)).toEqual([[1, 8, 9]])
  })

  it('IFS returns the value of the first true condition', () => {
    expect(calc('IFS(A1>=90, "A", A1>=80, "B", TRUE, "C")', { A1: 85 })).toBe('B')
    expect(calc('IFS(A1>90, "A")', { A1: 85 })).toBe('#N/A')
    expect(calc('IFS(1/0, "A", TRUE, "B")')).toBe('#DIV/0!')
    expect(calc('IFS("yes", 1)')).toBe('#VALUE!')
    expect(calcArray('IFS({1,2,3}>1, "big", TRUE, "small")', 1, 3)).toEqual([['small', 'big', 'big']])
  })

  it('SWITCH returns the result of the first matching value, or the default', () => {
    expect(calc('SWITCH(2, 1, "Sunday", 2, "Monday", 3, "Tuesday", "No match")')).toBe('Monday')
    expect(calc('SWITCH(99, 1, "Sunday", 2, "Monday", "No match")')).toBe('No match')
    expect(calc('SWITCH(99, 1, "Sunday", 2, "Monday")')).toBe('#N/A')
    expect(calc('SWITCH("MONDAY", "monday", 1)')).toBe(1)
    expect(calc('SWITCH(1, "1", "text", 1, "number")')).toBe('number')
    expect(calc('SWITCH(1/0, 1, "x")')).toBe('#DIV/0!')
  })
})
