/**
 * What a PDF's extracted figures say: the statement lines recognised by their labels and the ratios
 * they give. analyze-document answers with it, and the assistant reads it to answer questions about
 * an uploaded document.
 */
import type { PdfEntry } from '@finsheet/contracts'

/** Statement lines recognised by their labels, first match wins. */
const KEY_LINES: Array<[key: string, pattern: RegExp]> = [
  ['grossProfit', /^gross (profit|margin)$/i],
  ['costOfRevenue', /^(total )?(cost of (revenue|sales|goods sold)|cogs)$/i],
  ['revenue', /^(total |net )?(revenue|revenues|sales|turnover)$/i],
  ['ebitda', /^ebitda$/i],
  ['operatingIncome', /^(operating (income|profit)|ebit|income from operations)$/i],
  ['netIncome', /^net (income|profit|earnings)( attributable.*)?$/i],
  ['totalAssets', /^total assets$/i],
  ['totalLiabilities', /^total liabilities$/i],
  ['equity', /^(total )?(shareholders'?|stockholders'?)? ?equity$/i],
  ['cash', /^cash( and (cash )?equivalents)?$/i],
  ['debt', /^(total )?(debt|borrowings)$/i],
]

export function analyseEntries(data: PdfEntry[], pages: number) {
  const keyFigures: Record<string, number> = {}
  for (const entry of data) {
    const label = entry.label.replace(/\s+/g, ' ').trim()
    for (const [key, pattern] of KEY_LINES) {
      if (keyFigures[key] === undefined && pattern.test(label)) {
        keyFigures[key] = entry.value
        break
      }
    }
  }
  if (keyFigures.grossProfit === undefined && keyFigures.revenue !== undefined && keyFigures.costOfRevenue !== undefined) {
    keyFigures.grossProfit = keyFigures.revenue - Math.abs(keyFigures.costOfRevenue)
  }
  const ratios: Record<string, number> = {}
  const share = (numerator: string, denominator: string, name: string) => {
    const top = keyFigures[numerator]
    const bottom = keyFigures[denominator]
    if (top !== undefined && bottom !== undefined && bottom !== 0) ratios[name] = top / bottom
  }
  share('grossProfit', 'revenue', 'grossMargin')
  share('operatingIncome', 'revenue', 'operatingMargin')
  share('ebitda', 'revenue', 'ebitdaMargin')
  share('netIncome', 'revenue', 'netMargin')
  share('debt', 'equity', 'debtToEquity')
  share('netIncome', 'equity', 'returnOnEquity')
  share('netIncome', 'totalAssets', 'returnOnAssets')
  const described = Object.entries(keyFigures).map(([key, value]) => `${key} ${value.toLocaleString('en-US')}`)
  const summary =
    `Extracted ${data.length} ${data.length === 1 ? 'entry' : 'entries'} from ${pages} ${pages === 1 ? 'page' : 'pages'}` +
    (described.length > 0 ? `; key figures: ${described.join(', ')}` : '; no standard statement lines recognised') +
    (Object.keys(ratios).length > 0 ? `; ${Object.entries(ratios).map(([name, value]) => `${name} ${(value * 100).toFixed(1)}%`).join(', ')}` : '') +
    '.'
  return { entries: data.length, summary, keyFigures, ratios }
}
