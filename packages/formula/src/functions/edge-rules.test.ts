/**
 * Excel's edge rules across function families. Where LibreOffice calculates the same (the oracle
 * workbooks edge-*.xlsx of tests/oracle/workbooks) these are also checked there; the cases here are
 * those LibreOffice does not share or cannot calculate (SORT, SORTBY, XLOOKUP...), each with its source.
 */
import { describe, expect, it } from 'vitest'
import { Engine } from '../engine/engine.js'
import { functionCatalogue } from './index.js'
import { CellError } from '../values.js'

function evaluate(formula: string, cells: Record<string, string | number> = {}): unknown {
  const engine = new Engine()
  engine.addSheet('S')
  engine.setCells([...Object.entries(cells), ['Z99', formula]].map(([address, input]) => ({ sheet: 'S', address, input })))
  const value = engine.getValue('S', 'Z99')
  return value instanceof CellError ? value.code : value
}

/** The top-level arguments of a call written as text. */
function splitArguments(text: string): { name: string; args: string[] } | undefined {
  const open = text.indexOf('(')
  if (open < 0 || !text.endsWith(')')) return undefined
  const args: string[] = []
  let depth = 0
  let quoted = false
  let current = ''
  for (const ch of text.slice(open + 1, -1)) {
    if (ch === '"') quoted = !quoted
    if (!quoted && (ch === '(' || ch === '{')) depth++
    if (!quoted && (ch === ')' || ch === '}')) depth--
    if (!quoted && depth === 0 && ch === ',') {
      args.push(current)
      current = ''
    } else current += ch
  }
  args.push(current)
  return { name: text.slice(0, open), args }
}

describe('an argument present but left empty', () => {
  const table = { A1: 1, A2: 3, A3: 5, B1: 'one', B2: 'three', B3: 'five' }

  it('is FALSE in VLOOKUP and HLOOKUP, asking for an exact match (omitted, it is TRUE)', () => {
    expect(evaluate('=VLOOKUP(4,A1:B3,2,)', table)).toBe('#N/A')
    expect(evaluate('=VLOOKUP(4,A1:B3,2)', table)).toBe('three')
    expect(evaluate('=VLOOKUP(3,A1:B3,2,)', table)).toBe('three')
    expect(evaluate('=HLOOKUP(4,{1,3,5;"a","b","c"},2,)')).toBe('#N/A')
    expect(evaluate('=HLOOKUP(4,{1,3,5;"a","b","c"},2)')).toBe('b')
  })

  it('is 0 in MATCH, an exact match (omitted, it is 1)', () => {
    expect(evaluate('=MATCH(4,A1:A3,)', table)).toBe('#N/A')
    expect(evaluate('=MATCH(4,A1:A3)', table)).toBe(2)
    expect(evaluate('=MATCH(5,A1:A3,)', table)).toBe(3)
  })

  it('is 0 or FALSE in a list of values', () => {
    expect(evaluate('=PRODUCT(2,,3)')).toBe(0)
    expect(evaluate('=AND(TRUE,)')).toBe(false)
    expect(evaluate('=OR(FALSE,)')).toBe(false)
    expect(evaluate('=OR(TRUE,)')).toBe(true)
    expect(evaluate('=NPV(0.1,100,,100)')).toBeCloseTo(100 / 1.1 + 100 / 1.1 ** 3, 12)
    expect([evaluate('=SUM(1,,2)'), evaluate('=COUNT(1,,2)'), evaluate('=AVERAGE(1,,2)'), evaluate('=MAX(-1,,-2)')]).toEqual([3, 3, 1, 0])
  })

  it('is 0 where a number is required: DATE(2024,,15) is 15 December 2023', () => {
    expect(evaluate('=DATE(2024,,15)')).toBe(evaluate('=DATE(2023,12,15)'))
    expect(evaluate('=TIME(14,,0)')).toBeCloseTo(14 / 24, 12)
    expect(evaluate('=PMT(0.05,10,)')).toBeCloseTo(0, 15)
    expect(evaluate('=SLN(,100,5)')).toBe(-20)
    expect(evaluate('=MAKEARRAY(,3,LAMBDA(r,c,r))')).toBe('#VALUE!')
  })

  it('is #N/A in the Analysis ToolPak functions, as Excel saved it (GCD_LCM and MROUND_TRUNC_INT of the shared oracle)', () => {
    expect([evaluate('=GCD(24,)'), evaluate('=LCM(4,)'), evaluate('=MULTINOMIAL(2,,4)')]).toEqual(['#N/A', '#N/A', '#N/A'])
    expect([evaluate('=MROUND(,3)'), evaluate('=MROUND(10,)'), evaluate('=QUOTIENT(,2)')]).toEqual(['#N/A', '#N/A', '#N/A'])
  })

  it('takes its default in the dynamic-array functions: SEQUENCE(,3) is one row (SEQUENCE.xlsx of the shared oracle)', () => {
    expect(evaluate('=COLUMNS(SEQUENCE(,3))')).toBe(3)
    expect(evaluate('=ROWS(SEQUENCE(,3))')).toBe(1)
  })

  it('never makes a function of the catalogue fail: each argument of each example left empty in turn', () => {
    // Found by this sweep: DATE, TIME, PMT, SLN, WEEKDAY and 27 more threw on a required argument left
    // empty, showing #ERROR!, which Excel never shows.
    const engine = new Engine()
    engine.addSheet('S')
    const data: { sheet: string; address: string; input: number }[] = []
    for (let row = 1; row <= 20; row++) for (let col = 0; col < 10; col++) data.push({ sheet: 'S', address: `${String.fromCharCode(65 + col)}${row}`, input: ((row * 7 + col * 13) % 23) + 1 })
    engine.setCells(data)
    const failures: string[] = []
    let tried = 0
    for (const entry of functionCatalogue()) {
      const call = splitArguments(entry.example)
      // F() with its only argument gone is a formula Excel refuses to enter; it is not an empty argument.
      if (!call || call.name !== entry.name || call.args.length < 2) continue
      for (let index = 0; index < call.args.length; index++) {
        const formula = `=${entry.name}(${call.args.map((arg, i) => (i === index ? '' : arg)).join(',')})`
        engine.setCell('S', 'Z1', formula)
        tried++
        const value = engine.getValue('S', 'Z1')
        if (value instanceof CellError && value.code === '#ERROR!') failures.push(`${formula}: ${value.message}`)
      }
    }
    expect(tried).toBeGreaterThan(600)
    expect(failures).toEqual([])
  })
})

describe('the order of mixed types (Excel sorts numbers, then text, then logical values, then errors)', () => {
  it('in SORT, ascending and descending, text without regard to case', () => {
    expect(evaluate('=TEXTJOIN(",",FALSE,SORT({3;"b";TRUE;1;"A";FALSE}))')).toBe('1,3,A,b,FALSE,TRUE')
    expect(evaluate('=TEXTJOIN(",",FALSE,SORT({3;"b";TRUE;1;"A";FALSE},,-1))')).toBe('TRUE,FALSE,b,A,3,1')
    expect(evaluate('=TEXTJOIN(",",FALSE,IFERROR(SORT({3;1;#N/A;2}),"error"))')).toBe('1,2,3,error')
  })

  it('in SORTBY, by keys of mixed types', () => {
    expect(evaluate('=TEXTJOIN(",",FALSE,SORTBY({"p";"q";"r";"s"},{"x";2;TRUE;1}))')).toBe('s,q,p,r')
  })

  it('in approximate MATCH over values of one type among others', () => {
    expect(evaluate('=MATCH(2,{1,"a",3,TRUE})')).toBe(1)
    expect(evaluate('=MATCH("b",{"a","b","c"})')).toBe(2)
  })
})

describe('numeric text as an argument', () => {
  it('is read with spaces around it, signs, exponents, currency, thousands, percent and fractions', () => {
    expect(evaluate('=" 12 "+1')).toBe(13)
    expect(evaluate('="+5"*2')).toBe(10)
    expect(evaluate('="1e3"+0')).toBe(1000)
    expect(evaluate('="$1,234.5"+0')).toBe(1234.5)
    expect(evaluate('="50%"*2')).toBe(1)
    expect(evaluate('="(100)"+0')).toBe(-100)
    expect(evaluate('="1 1/2"+0')).toBe(1.5)
  })

  it('with a space inside its digits is text, as in Excel and LibreOffice', () => {
    expect(evaluate('=VALUE(" 1 234 ")')).toBe('#VALUE!')
    expect(evaluate('="1 234"+0')).toBe('#VALUE!')
  })

  it('typed into SUM counts (Excel: "text representations of numbers that you type directly"), in a range it does not', () => {
    expect(evaluate('=SUM("3",4)')).toBe(7)
    expect(evaluate('=SUM(A1:A2)', { A1: "'3", A2: 4 })).toBe(4)
  })
})

describe('FORMULATEXT', () => {
  it('shows an array formula entered with Ctrl+Shift+Enter in braces, from any cell of its range', () => {
    const engine = new Engine()
    engine.addSheet('S')
    engine.setCells([
      { sheet: 'S', address: 'A1', input: 1 },
      { sheet: 'S', address: 'A2', input: 2 },
      { sheet: 'S', address: 'B1', input: '=A1:A2*2', arrayRange: 'B1:B2' },
      { sheet: 'S', address: 'C1', input: '=SEQUENCE(2)' },
      { sheet: 'S', address: 'D1', input: '=FORMULATEXT(B1)' },
      { sheet: 'S', address: 'D2', input: '=FORMULATEXT(B2)' },
      { sheet: 'S', address: 'D3', input: '=FORMULATEXT(C1)' },
      { sheet: 'S', address: 'D4', input: '=FORMULATEXT(C2)' },
    ])
    const value = (address: string) => {
      const v = engine.getValue('S', address)
      return v instanceof CellError ? v.code : v
    }
    expect([value('D1'), value('D2'), value('D3'), value('D4')]).toEqual(['{=A1:A2*2}', '{=A1:A2*2}', '=SEQUENCE(2)', '#N/A'])
  })
})

describe('XIRR', () => {
  const dates = { B1: 45292, B2: 45658, B3: 45800, B4: 46023, B5: 46388 }

  it('leaves out the pairs whose value is an empty cell', () => {
    const withBlank = evaluate('=XIRR(A1:A5,B1:B5)', { ...dates, A1: -1000, A2: 300, A4: 400, A5: 500 })
    const without = evaluate('=XIRR({-1000,300,400,500},{45292,45658,46023,46388})')
    expect(withBlank).toBe(without)
    expect(typeof withBlank).toBe('number')
  })

  it('finds negative rates, where the first guess of 10% leads nowhere', () => {
    for (const [formula, flows, days] of [
      ['=XIRR({-1000,100,100},{45292,45658,46023})', [-1000, 100, 100], [45292, 45658, 46023]],
      ['=XIRR({-1000,10},{45292,45658})', [-1000, 10], [45292, 45658]],
    ] as const) {
      const rate = evaluate(formula) as number
      expect(rate).toBeLessThan(0)
      const xnpv = flows.reduce((total, flow, i) => total + flow / (1 + rate) ** ((days[i] - days[0]) / 365), 0)
      // Excel stops when the rate is right to 0.000001%: the XNPV left is a tiny part of the flows.
      expect(Math.abs(xnpv)).toBeLessThan(1e-4)
    }
  })
})
