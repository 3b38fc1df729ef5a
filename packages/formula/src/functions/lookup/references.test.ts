import { describe, expect, it } from 'vitest'
import { Engine } from '../../index.js'
import { CellError, ReferenceList } from '../../values.js'
import { functions } from './index.js'
import { arr, caller, makeSheet, ref } from './test-harness.js'

const fn = caller(functions)
const sheet = makeSheet([[1]])

describe('ROWS, COLUMNS, AREAS', () => {
  it('measures references, arrays and scalars', () => {
    expect(fn('ROWS', ref(sheet, 'A1:C10'))).toBe(10)
    expect(fn('COLUMNS', ref(sheet, 'A1:C10'))).toBe(3)
    expect(fn('ROWS', arr([[1, 2], [3, 4], [5, 6]]))).toBe(3)
    expect(fn('COLUMNS', arr([[1, 2], [3, 4], [5, 6]]))).toBe(2)
    expect(fn('ROWS', 5)).toBe(1)
    expect(fn('ROWS', CellError.DIV0)).toBe(CellError.DIV0)
    const union = new ReferenceList([ref(sheet, 'A1:B2'), ref(sheet, 'D4')])
    expect(fn('ROWS', union)).toBe(CellError.REF)
    expect(fn('AREAS', union)).toBe(2)
    expect(fn('AREAS', ref(sheet, 'A1'))).toBe(1)
  })
})

describe('ADDRESS', () => {
  it('writes A1 and R1C1 addresses with every kind of anchoring', () => {
    expect(fn('ADDRESS', 1, 1)).toBe('$A$1')
    expect(fn('ADDRESS', 3, 5, 4)).toBe('E3')
    expect(fn('ADDRESS', 3, 7, 1, false)).toBe('R3C7')
    expect(fn('ADDRESS', 45, 56, 1)).toBe('$BD$45')
    expect(fn('ADDRESS', 23, 45, 2)).toBe('AS$23')
    expect(fn('ADDRESS', 23, 45, 3)).toBe('$AS23')
    expect(fn('ADDRESS', 23, 45, 2, false)).toBe('R23C[45]')
    expect(fn('ADDRESS', 23, 45, 3, false)).toBe('R[23]C45')
    expect(fn('ADDRESS', 23, 45, 4, false)).toBe('R[23]C[45]')
    expect(fn('ADDRESS', 23.4, 34.7, 2)).toBe('AH$23')
    expect(fn('ADDRESS', 1, 16384)).toBe('$XFD$1')
  })

  it('prefixes the sheet, quoted when needed', () => {
    expect(fn('ADDRESS', 2, 3, 1, 1, 'Sheet2')).toBe('Sheet2!$C$2')
    expect(fn('ADDRESS', 1, 1, 1, 1, 'A Wird One$')).toBe("'A Wird One$'!$A$1")
    expect(fn('ADDRESS', 1, 1, 1, 1, "Bob's")).toBe("'Bob''s'!$A$1")
  })

  it('rejects positions and anchors out of range', () => {
    expect(fn('ADDRESS', -1, 3, 1)).toBe(CellError.VALUE)
    expect(fn('ADDRESS', 0, 3)).toBe(CellError.VALUE)
    expect(fn('ADDRESS', 23, 45, 5)).toBe(CellError.VALUE)
    expect(fn('ADDRESS', 1, 16385)).toBe(CellError.VALUE)
  })
})

describe('FORMULATEXT and HYPERLINK', () => {
  it('shows a formula or #N/A, and the link text', () => {
    const engine = new Engine()
    engine.addSheet('Sheet1')
    engine.setCell('Sheet1', 'A1', '=SUM(1, 2)')
    engine.setCell('Sheet1', 'B1', '=FORMULATEXT(A1)')
    engine.setCell('Sheet1', 'B2', '=FORMULATEXT(A2)')
    engine.setCell('Sheet1', 'B3', '=HYPERLINK("https://example.com", "Example")')
    engine.setCell('Sheet1', 'B4', '=HYPERLINK("https://example.com")')
    expect(engine.getValue('Sheet1', 'B1')).toBe('=SUM(1, 2)')
    expect(engine.getValue('Sheet1', 'B2')).toMatchObject({ code: '#N/A' })
    expect(engine.getValue('Sheet1', 'B3')).toBe('Example')
    expect(engine.getValue('Sheet1', 'B4')).toBe('https://example.com')
  })
})
