/** The number-format menu's choices, as Excel format codes the engine renders. */
export const NUMBER_FORMATS: readonly { label: string; format: string | null; example: string }[] = [
  { label: 'General', format: null, example: '1234.5' },
  { label: 'Number', format: '#,##0.00', example: '1,234.50' },
  { label: 'Currency', format: '$#,##0.00', example: '$1,234.50' },
  { label: 'Percent', format: '0.00%', example: '12.35%' },
  { label: 'Thousands, negatives in parentheses', format: '#,##0;(#,##0)', example: '(1,235)' },
  { label: 'Date', format: 'yyyy-mm-dd', example: '2025-03-31' },
  { label: 'Month', format: 'mmm-yy', example: 'Mar-25' },
]

export const CURRENCY_FORMAT = '$#,##0.00'
export const PERCENT_FORMAT = '0.00%'

const MAX_DECIMALS = 10

/**
 * The format after Increase (+1) or Decrease (-1) Decimal. A General cell starts from the
 * decimals it shows; every section of the code (positive;negative;zero) changes alike, and text
 * around the number (currency signs, %, parentheses) stays.
 */
export function adjustDecimals(format: string | null | undefined, delta: number, shownText = ''): string {
  if (!format || format === 'General') {
    const match = /\.(\d+)/.exec(shownText)
    const decimals = Math.max(0, Math.min(MAX_DECIMALS, (match ? match[1].length : 0) + delta))
    return decimals === 0 ? '0' : `0.${'0'.repeat(decimals)}`
  }
  return format
    .split(';')
    .map((section) => {
      const number = /([#0,]*0)(\.0*)?/.exec(section)
      if (!number) return section
      const current = number[2] ? number[2].length - 1 : 0
      const next = Math.max(0, Math.min(MAX_DECIMALS, current + delta))
      const replacement = number[1] + (next > 0 ? `.${'0'.repeat(next)}` : '')
      return section.slice(0, number.index) + replacement + section.slice(number.index + number[0].length)
    })
    .join(';')
}
