/** The Format Cells dialog's categories, in its order. */
export const FORMAT_CATEGORIES = ['General', 'Number', 'Currency', 'Accounting', 'Percentage', 'Date', 'Thousands', 'Millions', 'Multiple', 'Custom'] as const
export type FormatCategory = (typeof FORMAT_CATEGORIES)[number]

/** How negative numbers show in the Number and Currency categories. */
export const NEGATIVE_STYLES = ['minus', 'parentheses', 'red'] as const
export type NegativeStyle = (typeof NEGATIVE_STYLES)[number]

/** The Date category's codes. */
export const DATE_FORMATS = ['yyyy-mm-dd', 'dd/mm/yyyy', 'mm/dd/yyyy', 'd-mmm-yy', 'mmm-yy', 'mmmm d, yyyy', 'yyyy-mm-dd hh:mm'] as const

/** The currency symbols the Currency and Accounting categories offer. */
export const CURRENCY_SYMBOLS = ['$', '€', '£', '¥'] as const

export interface FormatChoice {
  category: FormatCategory
  decimals: number
  thousands: boolean
  negative: NegativeStyle
  symbol: string
  date: string
  /** the code typed in the Custom category */
  custom: string
}

export const MAX_DECIMALS = 10

const decimalPart = (decimals: number) => (decimals > 0 ? `.${'0'.repeat(Math.min(decimals, MAX_DECIMALS))}` : '')

function withNegatives(positive: string, negative: NegativeStyle): string {
  if (negative === 'parentheses') return `${positive};(${positive})`
  if (negative === 'red') return `${positive};[Red]-${positive}`
  return positive
}

/** Excel's Accounting format: the symbol at the cell's left, negatives in parentheses, zero as a dash. */
export function accountingFormat(decimals: number, symbol: string): string {
  const digits = `#,##0${decimalPart(decimals)}`
  const dash = decimals > 0 ? `"-"${'?'.repeat(decimals)}` : '"-"'
  const sign = `"${symbol}"`
  return `_(${sign}* ${digits}_);_(${sign}* (${digits});_(${sign}* ${dash}_);_(@_)`
}

/** The format code a choice of the Format Cells dialog stands for; null is General. */
export function formatOfChoice(choice: FormatChoice): string | null {
  const { decimals, thousands, negative, symbol } = choice
  switch (choice.category) {
    case 'General':
      return null
    case 'Number':
      return withNegatives(`${thousands ? '#,##0' : '0'}${decimalPart(decimals)}`, negative)
    case 'Currency':
      return withNegatives(`${symbol}#,##0${decimalPart(decimals)}`, negative)
    case 'Accounting':
      return accountingFormat(decimals, symbol)
    case 'Percentage':
      return `0${decimalPart(decimals)}%`
    case 'Date':
      return choice.date
    case 'Thousands':
      return withNegatives(`#,##0${decimalPart(decimals)},"K"`, negative)
    case 'Millions':
      return withNegatives(`#,##0${decimalPart(decimals)},,"M"`, negative)
    case 'Multiple':
      return `0${decimalPart(decimals)}x`
    case 'Custom':
      return choice.custom.trim() === '' ? null : choice.custom
  }
}

/** The decimals each category starts with when picked. */
export const DEFAULT_DECIMALS: Record<FormatCategory, number> = {
  General: 0,
  Number: 2,
  Currency: 2,
  Accounting: 2,
  Percentage: 2,
  Date: 0,
  Thousands: 0,
  Millions: 1,
  Multiple: 1,
  Custom: 0,
}

/**
 * The dialog's choice for a cell's format code, so it opens on what the cell has: a code one of the
 * categories writes selects that category with its options; any other code opens as Custom.
 */
export function choiceOfFormat(format: string | null | undefined): FormatChoice {
  const base: FormatChoice = { category: 'General', decimals: 2, thousands: true, negative: 'minus', symbol: '$', date: DATE_FORMATS[0], custom: format ?? '' }
  if (!format || format === 'General') return base
  if ((DATE_FORMATS as readonly string[]).includes(format)) return { ...base, category: 'Date', date: format }
  for (const category of FORMAT_CATEGORIES) {
    if (category === 'General' || category === 'Date' || category === 'Custom') continue
    for (let decimals = 0; decimals <= MAX_DECIMALS; decimals++) {
      for (const thousands of [true, false]) {
        for (const negative of NEGATIVE_STYLES) {
          for (const symbol of CURRENCY_SYMBOLS) {
            const choice = { ...base, category, decimals, thousands, negative, symbol }
            if (formatOfChoice(choice) === format) return choice
          }
        }
      }
    }
  }
  return { ...base, category: 'Custom' }
}

/** The number-format menu's choices, as Excel format codes the engine renders. */
export const NUMBER_FORMATS: readonly { label: string; format: string | null; example: string }[] = [
  { label: 'General', format: null, example: '1234.5' },
  { label: 'Number', format: '#,##0.00', example: '1,234.50' },
  { label: 'Currency', format: '$#,##0.00', example: '$1,234.50' },
  { label: 'Accounting', format: accountingFormat(2, '$'), example: '$ (1,234.50)' },
  { label: 'Percent', format: '0.00%', example: '12.35%' },
  { label: 'Percent, one decimal', format: '0.0%', example: '12.3%' },
  { label: 'Thousands, negatives in parentheses', format: '#,##0;(#,##0)', example: '(1,235)' },
  { label: 'In thousands (K)', format: '#,##0,"K"', example: '1,235K' },
  { label: 'In millions (M)', format: '#,##0.0,,"M"', example: '1.2M' },
  { label: 'Multiple', format: '0.0x', example: '8.5x' },
  { label: 'Date', format: 'yyyy-mm-dd', example: '2025-03-31' },
  { label: 'Month', format: 'mmm-yy', example: 'Mar-25' },
]

export const CURRENCY_FORMAT = '$#,##0.00'
export const PERCENT_FORMAT = '0.00%'


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
