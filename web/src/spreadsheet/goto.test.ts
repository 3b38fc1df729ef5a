import { describe, expect, it } from 'vitest'
import { rangeAddress } from '../grid/address'
import { parseGoToReference } from './goto'

const sheets = ['Sheet1', 'My Sheet', "Bob's"]

describe('parseGoToReference', () => {
  it('reads cells and ranges on the current sheet', () => {
    const result = parseGoToReference(' b12 ', sheets)
    expect('range' in result && rangeAddress(result.range)).toBe('B12')
    expect('sheet' in result && result.sheet).toBeNull()
  })

  it('reads sheet-qualified references, quoted or not, in any case', () => {
    const a = parseGoToReference("'My Sheet'!C3:A1", sheets)
    expect(a).toMatchObject({ sheet: 'My Sheet' })
    expect('range' in a && rangeAddress(a.range)).toBe('A1:C3')
    expect(parseGoToReference('sheet1!A1', sheets)).toMatchObject({ sheet: 'Sheet1' })
    expect(parseGoToReference("'Bob''s'!A1", sheets)).toMatchObject({ sheet: "Bob's" })
  })

  it('explains what it cannot reach', () => {
    expect(parseGoToReference('', sheets)).toEqual({ error: 'Enter a cell reference such as B12' })
    expect(parseGoToReference('Nope!A1', sheets)).toEqual({ error: 'There is no sheet named Nope' })
    expect(parseGoToReference('hello', sheets)).toEqual({ error: 'hello is not a cell reference' })
  })
})

describe('parseGoToReference with defined names', () => {
  const defined = [
    { name: 'Revenue', formula: "='My Sheet'!$B$2:$B$9" },
    { name: 'Rate', formula: '=Sheet1!$C$1', sheet: 'Sheet1' },
    { name: 'Rate', formula: "='Bob''s'!$D$4" },
    { name: 'TaxRate', formula: '=0.21' },
  ]

  it('goes to the range a name refers to, in any case, the sheet’s own name first', () => {
    const revenue = parseGoToReference('revenue', sheets, { defined, activeSheet: 'Sheet1' })
    expect(revenue).toMatchObject({ sheet: 'My Sheet' })
    expect('range' in revenue && rangeAddress(revenue.range)).toBe('B2:B9')
    const local = parseGoToReference('Rate', sheets, { defined, activeSheet: 'Sheet1' })
    expect(local).toMatchObject({ sheet: 'Sheet1' })
    expect('range' in local && rangeAddress(local.range)).toBe('C1')
    expect(parseGoToReference('Rate', sheets, { defined, activeSheet: 'My Sheet' })).toMatchObject({ sheet: "Bob's" })
  })

  it('says when a name is a value, not cells, and reads $ in addresses', () => {
    expect(parseGoToReference('TaxRate', sheets, { defined, activeSheet: 'Sheet1' })).toEqual({ error: 'TaxRate does not refer to a range of cells' })
    const absolute = parseGoToReference('$B$3', sheets)
    expect('range' in absolute && rangeAddress(absolute.range)).toBe('B3')
  })
})
