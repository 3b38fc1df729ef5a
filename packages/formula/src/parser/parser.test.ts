import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FormulaSyntaxError, parseFormula } from './parser.js'
import { printFormula } from './printer.js'
import { ShapeScan } from './shape-key.js'
import { tokenize } from './lexer.js'
import { shapeKey } from './parser.js'
import type { Node } from './ast.js'

function roundTrip(text: string, row = 0, col = 0): string {
  return printFormula(parseFormula(text, row, col), row, col)
}

function tryParse(text: string): Node | FormulaSyntaxError {
  try {
    return parseFormula(text, 3, 2)
  } catch (error) {
    if (error instanceof FormulaSyntaxError) return error
    throw error
  }
}

describe('parseFormula', () => {
  it.each([
    '=1+2*3',
    '=-3^2',
    '=SUM(A1:B2,$C$3,Sheet2!D4)',
    "='My Sheet'!A1:B2",
    "='It''s'!A1",
    '=A:A',
    '=$A:$C',
    '=2:2',
    '=SUM((A1,B2))',
    '=A1:B2 B1:C3',
    '=A1#',
    '=@A1:A3',
    '={1,2;3,4}',
    '={"a",TRUE;#N/A,-1.5}',
    '=IF(A1,,2)',
    '=LET(x,1,x+1)',
    '="say ""hi"""',
    '=50%',
    '=A1:INDEX(B1:B9,3)',
    '=Rate*2',
    '=Sheet1!Rate',
    '=TRUE()',
    '=1E+21',
    '=#REF!',
    '=A1>=B1',
    '=(1+2)*3',
    '=LAMBDA(x,x+1)(5)',
    '=(F)(1,2)',
  ])('prints %s back as written', (formula) => {
    expect(roundTrip(formula)).toBe(formula)
  })

  it('normalises case and drops spaces the printer does not need', () => {
    expect(roundTrip('=sum(a1:b2)')).toBe('=SUM(A1:B2)')
    expect(roundTrip('= 1 + 2')).toBe('=1+2')
    expect(roundTrip('=_xlfn.XLOOKUP(1,A1:A2,B1:B2)')).toBe('=XLOOKUP(1,A1:A2,B1:B2)')
  })

  it('parses with Excel precedence', () => {
    const tree = parseFormula('=-3^2')
    expect(tree).toMatchObject({ type: 'binary', operator: '^', left: { type: 'unary', operator: '-' } })
    const chain = parseFormula('=2^3^2')
    expect(chain).toMatchObject({ type: 'binary', operator: '^', left: { type: 'binary', operator: '^' } })
    const mixed = parseFormula('=1+2&3=4')
    expect(mixed).toMatchObject({ type: 'binary', operator: '=', left: { type: 'binary', operator: '&' } })
  })

  it('stores relative references as offsets so filled formulas share a tree', () => {
    expect(parseFormula('=A1*2', 0, 1)).toEqual(parseFormula('=A2*2', 1, 1))
    expect(parseFormula('=$A$1', 0, 0)).toEqual(parseFormula('=$A$1', 5, 5))
  })

  it('rejects formulas nested too deeply instead of overflowing the stack', () => {
    expect(tryParse('=' + '('.repeat(5000) + '1' + ')'.repeat(5000))).toBeInstanceOf(FormulaSyntaxError)
    expect(tryParse('=' + '-'.repeat(5000) + '1')).toBeInstanceOf(FormulaSyntaxError)
    expect(tryParse('=' + 'ABS('.repeat(150) + '1' + ')'.repeat(150))).not.toBeInstanceOf(FormulaSyntaxError)
  })

  it('rejects malformed formulas with a position', () => {
    for (const text of ['=1+', '=SUM(1,2', '=(1', '=1 2', '="abc', '=A1:1', '={1,2;3}', '=1+*2', "='x", '=', '=[x]']) {
      const result = tryParse(text)
      expect(result, text).toBeInstanceOf(FormulaSyntaxError)
    }
  })
})

describe('shape scans', () => {
  it('give equal canonical forms only to equal trees', () => {
    const cases: [string, number, number][] = [
      ['=A1*2+$B$1', 0, 2],
      ['=A2*2+$B$1', 1, 2],
      ['=a2*2+$b$1', 1, 2],
      ['=A2*2+$B$1', 1, 3],
      ['=SUM(A1:A5)', 5, 1],
      ['=SUM(Sheet2!A1:A5)', 5, 1],
      ['=LOG10(A1)', 1, 1],
      ['=A1B', 0, 0],
      ['="A1"&A1', 0, 1],
      ['="A2"&A2', 1, 1],
    ]
    const first = new ShapeScan()
    const second = new ShapeScan()
    let equalPairs = 0
    for (const [a, ra, ca] of cases) {
      for (const [b, rb, cb] of cases) {
        if (!first.scan(a.slice(1), ra, ca) || !second.scan(b.slice(1), rb, cb)) continue
        const sameTree = JSON.stringify(parseFormula(a, ra, ca)) === JSON.stringify(parseFormula(b, rb, cb))
        // Equal canonical forms must mean equal trees.
        if (first.equals(second.snapshot())) {
          equalPairs++
          expect(sameTree, `${a} / ${b}`).toBe(true)
          expect(first.hash).toBe(second.hash)
        }
      }
    }
    expect(equalPairs).toBeGreaterThan(cases.length)
    expect(first.scan('SUM(A:A)', 0, 0)).toBe(false)
  })
})

const reference = fc
  .tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 200 }), fc.boolean(), fc.boolean())
  .map(([col, row, colAbs, rowAbs]) => `${colAbs ? '$' : ''}${String.fromCharCode(65 + (col % 26))}${rowAbs ? '$' : ''}${row}`)
const atom = fc.oneof(
  fc.integer({ min: 0, max: 10_000 }).map(String),
  fc.double({ min: 0, max: 1e6, noNaN: true }).map((n) => String(n)),
  reference,
  fc.tuple(reference, reference).map(([a, b]) => `${a}:${b}`),
  fc.string({ maxLength: 5 }).map((s) => `"${s.replace(/"/g, '""')}"`),
  fc.constantFrom('TRUE', 'FALSE', '#N/A', '#DIV/0!', 'Rate', "'My Sheet'!B2", 'Sheet2!A1:B3', 'A:A', '3:5'),
)
const expression: fc.Arbitrary<string> = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atom,
    fc.tuple(tie('expr'), fc.constantFrom('+', '-', '*', '/', '^', '&', '=', '<>', '<=', '>'), tie('expr')).map(([a, op, b]) => `${a}${op}${b}`),
    tie('expr').map((a) => `-${a}`),
    tie('expr').map((a) => `(${a})`),
    tie('expr').map((a) => `${a}%`),
    fc.tuple(fc.constantFrom('SUM', 'IF', 'MAX', 'FOO.BAR'), fc.array(fc.option(tie('expr'), { nil: '' }), { maxLength: 4 })).map(
      ([name, args]) => `${name}(${args.join(',')})`,
    ),
  ),
})).expr

describe('parser properties', () => {
  it('never throws anything but a syntax error, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        tryParse('=' + text)
        tryParse(text)
        tokenize(text)
      }),
      { numRuns: 3000 },
    )
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'=+-*/^&%:,;(){}!"\'#$@ A1bZ9._<>[]'.split('')), maxLength: 30 }), (text) => {
        tryParse(text)
      }),
      { numRuns: 3000 },
    )
  })

  it('prints every parsed formula into text that parses to the same tree', () => {
    fc.assert(
      fc.property(expression, fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 20 }), (text, row, col) => {
        const first = tryParse('=' + text)
        if (first instanceof FormulaSyntaxError) return
        const printed = printFormula(first, 3, 2)
        const second = parseFormula(printed, 3, 2)
        expect(second).toEqual(first)
        void row
        void col
      }),
      { numRuns: 2000 },
    )
  })

  it('prints parsed random text back to the same tree', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'+-*/^&%:,(){}"$ A1B2Z9.<>='.split('')), maxLength: 20 }), (text) => {
        const first = tryParse('=' + text)
        if (first instanceof FormulaSyntaxError) return
        expect(parseFormula(printFormula(first, 3, 2), 3, 2)).toEqual(first)
      }),
      { numRuns: 3000 },
    )
  })

  it('keeps the canonical form of a formula moved down a row', () => {
    fc.assert(
      fc.property(expression, (text) => {
        let tree: Node
        try {
          tree = parseFormula('=' + text, 10, 5)
        } catch {
          return
        }
        const scan = new ShapeScan()
        const slow = shapeKey(tokenize(text), 10, 5)
        expect(slow.length).toBeGreaterThan(0)
        if (!scan.scan(text, 10, 5)) return
        const shape = scan.snapshot()
        // The same formula moved down one row keeps its canonical form, and equal forms mean equal trees.
        const moved = printFormula(tree, 11, 5).slice(1)
        if (scan.scan(moved, 11, 5) && scan.equals(shape)) expect(parseFormula('=' + moved, 11, 5)).toEqual(tree)
      }),
      { numRuns: 1000 },
    )
  })
})
