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
