import { describe, expect, it } from 'vitest'
import { edit, modelWorkbook } from '../testing/agent-workbook.js'
import { DraftSession } from './draft-session.js'
import { resolveCell, resolveRange, resolveSheet, type TargetScope } from './targets.js'
import { ToolError } from './tool-error.js'

function scope(): TargetScope {
  const state = modelWorkbook()
  const session = DraftSession.open(state, { id: 'test', commands: [], written: [] })
  return { state, layout: (sheet) => session.layout(sheet) }
}

describe('resolving what a model names', () => {
  it('finds sheets by name, ignoring case, spacing and punctuation', () => {
    const { state } = scope()
    expect(resolveSheet(state, 'fcf').name).toBe('FCF')
    expect(resolveSheet(state, "'Valuation'").name).toBe('Valuation')
    expect(resolveSheet(state, 'assumption').name).toBe('Assumptions')
    expect(() => resolveSheet(state, 'Balance sheet')).toThrow(/There is no sheet named "Balance sheet". The sheets are: "Assumptions", "FCF", "Valuation"/)
  })

  it('finds a cell by its row label and column header, fuzzily, and says how', () => {
    const cell = resolveCell(scope(), 'FCF', { row: 'ebitda', column: 'FY 2027' })
    expect(cell.ref).toBe('FCF!E3')
    expect(cell.via).toBe('row "EBITDA" (A3) × column "FY2027" (E1)')
    expect(resolveCell(scope(), 'fcf', { row: 'Free cash flows', column: 'FY25' }).ref).toBe('FCF!C5')
    expect(resolveCell(scope(), 'FCF', { row: 'Rev', column: '2026E' }).ref).toBe('FCF!D2')
  })

  it('names the closest labels when none matches', () => {
    expect(() => resolveCell(scope(), 'FCF', { row: 'Net income', column: 'FY2027' })).toThrow(ToolError)
    expect(() => resolveCell(scope(), 'FCF', { row: 'EBITDA', column: 'FY2031' })).toThrow(/No column headed "FY2031" on FCF/)
    expect(() => resolveCell(scope(), 'FCF', { row: 'Tax', column: 'FY2027' })).toThrow(/closest are "Taxes" \(A4\)/)
  })

  it('reads A1 text, with or without a sheet, and defined names', () => {
    expect(resolveRange(scope(), 'FCF', 'b2:c3').ref).toBe('FCF!B2:C3')
    expect(resolveRange(scope(), 'FCF', 'Valuation!$B$1').ref).toBe('Valuation!B1')
    const named = resolveCell(scope(), 'FCF', 'TaxRate')
    expect(named.ref).toBe('Assumptions!B4')
    expect(named.via).toBe('the name TaxRate')
    expect(() => resolveCell(scope(), 'FCF', 'B2:C3')).toThrow(/is the range FCF!B2:C3; give one cell/)
    expect(() => resolveRange(scope(), 'FCF', 'B-7')).toThrow(/"B-7" is not an A1 address or range, a defined name or a row label on FCF/)
  })

  it('cuts whole rows and columns to the used cells', () => {
    expect(resolveRange(scope(), 'FCF', 'B:B').ref).toBe('FCF!B1:B5')
    expect(resolveRange(scope(), 'FCF', '3:3').ref).toBe('FCF!A3:E3')
  })

  it('reads a labelled row or column as a range of its figures', () => {
    expect(resolveRange(scope(), 'FCF', { row: 'Revenue' }).ref).toBe('FCF!B2:E2')
    expect(resolveRange(scope(), 'FCF', { column: 'FY2025' }).ref).toBe('FCF!C2:C5')
    expect(resolveRange(scope(), 'FCF', 'Free cash flow').ref).toBe('FCF!B5:E5')
  })

  it('refuses a label that names several rows equally well', () => {
    const state = modelWorkbook()
    edit(state, [{ type: 'set-cells', sheet: 'FCF', cells: [{ address: 'A7', input: 'EBITDA' }, { address: 'B7', input: '1' }] }])
    const session = DraftSession.open(state, { id: 'twice', commands: [], written: [] })
    expect(() => resolveCell({ state, layout: (sheet) => session.layout(sheet) }, 'FCF', { row: 'EBITDA', column: 'FY2024' })).toThrow(/"EBITDA" labels several rows on FCF: "EBITDA" \(A3\), "EBITDA" \(A7\)/)
  })
})
