import { describe, expect, it } from 'vitest'
import type { CellPosition } from '../grid/address'
import { cellAddress, parseCellAddress, rangeAddress } from '../grid/address'
import type { FormulaSource, NameDefinition, SheetRange } from './trace-cells'
import { dependentsOf, precedentsOf } from './trace-cells'

const written = (ranges: SheetRange[]) => ranges.map((r) => `${r.sheet}!${rangeAddress(r.range)}`)

function workbook(sheets: Record<string, Record<string, string>>, names: NameDefinition[] = []): FormulaSource {
  return {
    sheetNames: Object.keys(sheets),
    names,
    forEachFormula(sheet: string, visit: (pos: CellPosition, formula: string) => void) {
      for (const [address, input] of Object.entries(sheets[sheet] ?? {})) if (input.startsWith('=')) visit(parseCellAddress(address)!, input)
    },
  }
}

describe('precedentsOf (Ctrl+[)', () => {
  it('lists the cells and ranges a formula reads, in its order, each once', () => {
    expect(written(precedentsOf('=A1+SUM(C3:C10)*A1', 'Model', ['Model']))).toEqual(['Model!A1', 'Model!C3:C10'])
  })

  it('finds references to other sheets, whatever the case they are written in, and skips missing sheets', () => {
    expect(written(precedentsOf("=inputs!B2*'Cost Base'!$D$4+Gone!A1", 'Model', ['Model', 'Inputs', 'Cost Base']))).toEqual(['Inputs!B2', 'Cost Base!D4'])
  })

  it('follows the defined names a formula uses, the sheet’s own name before the workbook’s', () => {
    const names = [
      { name: 'TaxRate', formula: '=Inputs!$B$2' },
      { name: 'Growth', formula: '=Inputs!$B$3' },
      { name: 'Growth', formula: '=Model!$Z$1', sheet: 'Model' },
      { name: 'Costs', formula: '=Inputs!$C$1:$C$9' },
    ]
    expect(written(precedentsOf('=A1*(1-taxrate)+SUM(Costs)*Growth+"TaxRate"', 'Model', ['Model', 'Inputs'], names))).toEqual([
      'Model!A1',
      'Inputs!B2',
      'Inputs!C1:C9',
      'Model!Z1',
    ])
    // a function whose name is a defined name's is still the function
    expect(precedentsOf('=Costs(1)', 'Model', ['Model', 'Inputs'], names)).toEqual([])
  })

  it('is empty for a formula of constants', () => {
    expect(precedentsOf('=1+2', 'Model', ['Model'])).toEqual([])
  })
})

describe('dependentsOf (Ctrl+])', () => {
  const book = workbook({
    Inputs: { B2: '0.05', C9: '=B2*2' },
    Model: { A1: '=Inputs!B2*100', D5: '=SUM(Inputs!B1:B3)', B1: '=A1', C1: '=Inputs!C2' },
  })

  it('finds the formulas reading the cell directly or through a range, its own sheet first', () => {
    expect(written(dependentsOf(book, 'Inputs', parseCellAddress('B2')!))).toEqual(['Inputs!C9', 'Model!A1', 'Model!D5'])
  })

  it('finds the formulas that read the cell through a defined name', () => {
    const named = workbook({ Inputs: { B2: '0.05' }, Model: { C3: '=100*Rate' } }, [{ name: 'Rate', formula: '=Inputs!$B$2' }])
    expect(written(dependentsOf(named, 'Inputs', parseCellAddress('B2')!))).toEqual(['Model!C3'])
  })

  it('finds none for a cell nothing reads', () => {
    expect(dependentsOf(book, 'Model', parseCellAddress('B1')!).map((d) => cellAddress({ col: d.range.startCol, row: d.range.startRow }))).toEqual([])
  })
})
