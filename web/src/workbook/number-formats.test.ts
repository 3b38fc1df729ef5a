import { describe, expect, it } from 'vitest'
import { adjustDecimals } from './number-formats'

describe('adjustDecimals', () => {
  it('starts a General cell from the decimals it shows', () => {
    expect(adjustDecimals(null, 1, '1.5')).toBe('0.00')
    expect(adjustDecimals(null, 1, '12')).toBe('0.0')
    expect(adjustDecimals(null, -1, '3.14')).toBe('0.0')
    expect(adjustDecimals(undefined, -1, '3')).toBe('0')
  })

  it('keeps the text around the number', () => {
    expect(adjustDecimals('$#,##0.00', 1)).toBe('$#,##0.000')
    expect(adjustDecimals('$#,##0.00', -2)).toBe('$#,##0')
    expect(adjustDecimals('0%', 1)).toBe('0.0%')
    expect(adjustDecimals('0.0%', -1)).toBe('0%')
  })

  it('changes every section alike and stops at zero', () => {
    expect(adjustDecimals('#,##0;(#,##0)', 1)).toBe('#,##0.0;(#,##0.0)')
    expect(adjustDecimals('0', -1)).toBe('0')
  })

  it('leaves date codes alone', () => {
    expect(adjustDecimals('yyyy-mm-dd', 1)).toBe('yyyy-mm-dd')
  })
})
