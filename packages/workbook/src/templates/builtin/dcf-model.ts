import { acrossYears, eachYear, type TemplateDefinition } from '../template.js'
import { HEADER, HIGHLIGHT, INPUT, MODEL_WIDTHS, MONEY, MONEY_2, NOTE, PERCENT, TITLE, TOTAL, DECIMAL_1 } from './styles.js'

const A = (cell: string) => `Assumptions!$${cell.replace(/(\d+)$/, '$$$1')}`

/**
 * Unlevered free cash flow for five years from revenue, margin, reinvestment and tax assumptions,
 * discounted at the WACC, with a Gordon-growth terminal value; enterprise value bridged to a value
 * per share.
 */
export const dcfModel: TemplateDefinition = {
  id: 'dcf-model',
  name: 'DCF Model',
  description:
    'Discounted cash flow valuation: five years of unlevered free cash flow from revenue growth, margins and reinvestment, discounted at the WACC with a Gordon-growth terminal value, bridged from enterprise value to equity value per share.',
  category: 'Valuation',
  difficulty: 'Advanced',
  tags: ['Valuation', 'Investment', 'Cash Flow'],
  sheets: [
    {
      name: 'Assumptions',
      rows: [
        ['DCF Model — Key Assumptions'],
        ['Currency in millions; blue cells are inputs'],
        ['Assumption', 'Value'],
        ['Base year revenue', 1000],
        ['Revenue growth rate', 0.08],
        ['EBITDA margin', 0.25],
        ['Depreciation & amortisation (% of revenue)', 0.04],
        ['Capital expenditure (% of revenue)', 0.05],
        ['Net working capital (% of revenue increase)', 0.1],
        ['Tax rate', 0.25],
        ['Discount rate (WACC)', 0.09],
        ['Terminal growth rate', 0.025],
        ['Net debt', 300],
        ['Diluted shares outstanding (millions)', 100],
      ],
      formats: [
        ['B4', MONEY],
        ['B5:B12', PERCENT],
        ['B13', MONEY],
        ['B14', DECIMAL_1],
      ],
      styles: [
        ['A1', TITLE],
        ['A2', NOTE],
        ['A3:B3', HEADER],
        ['B4:B14', INPUT],
      ],
      columnWidths: { '0': 340, '1': 120 },
    },
    {
      name: 'Valuation',
      rows: [
        ['Discounted Cash Flow Valuation'],
        ['Currency in millions'],
        ['Year', ...acrossYears(1, (_column, previous) => `=${previous}3+1`)],
        ['Revenue', ...acrossYears(`=${A('B4')}*(1+${A('B5')})`, (_column, previous) => `=${previous}4*(1+${A('B5')})`)],
        ['EBITDA', ...eachYear((c) => `=${c}4*${A('B6')}`)],
        ['Depreciation & amortisation', ...eachYear((c) => `=${c}4*${A('B7')}`)],
        ['EBIT', ...eachYear((c) => `=${c}5-${c}6`)],
        ['Taxes on EBIT', ...eachYear((c) => `=${c}7*${A('B10')}`)],
        ['NOPAT', ...eachYear((c) => `=${c}7-${c}8`)],
        ['Capital expenditure', ...eachYear((c) => `=${c}4*${A('B8')}`)],
        ['Increase in net working capital', ...acrossYears(`=(B4-${A('B4')})*${A('B9')}`, (c, p) => `=(${c}4-${p}4)*${A('B9')}`)],
        ['Unlevered free cash flow', ...eachYear((c) => `=${c}9+${c}6-${c}10-${c}11`)],
        ['Discount factor', ...eachYear((c) => `=1/(1+${A('B11')})^${c}3`)],
        ['Present value of free cash flow', ...eachYear((c) => `=${c}12*${c}13`)],
        [],
        ['Sum of present values of free cash flow', '=SUM(B14:F14)'],
        ['Terminal value (Gordon growth)', `=F12*(1+${A('B12')})/(${A('B11')}-${A('B12')})`],
        ['Present value of terminal value', '=B17*F13'],
        ['Enterprise value', '=B16+B18'],
        ['Less: net debt', '=Assumptions!B13'],
        ['Equity value', '=B19-B20'],
        ['Diluted shares outstanding (millions)', '=Assumptions!B14'],
        ['Implied value per share', '=B21/B22'],
        ['Terminal value as % of enterprise value', '=B18/B19'],
      ],
      formats: [
        ['B3:F3', '0'],
        ['B4:F12', MONEY],
        ['B13:F13', '0.0000'],
        ['B14:F14', MONEY],
        ['B16:B21', MONEY],
        ['B22', DECIMAL_1],
        ['B23', MONEY_2],
        ['B24', PERCENT],
      ],
      styles: [
        ['A1', TITLE],
        ['A2', NOTE],
        ['A3:F3', HEADER],
        ['A12:F12', TOTAL],
        ['A19:B19', HIGHLIGHT],
        ['A21:B21', TOTAL],
        ['A23:B23', HIGHLIGHT],
      ],
      columnWidths: MODEL_WIDTHS,
    },
  ],
  keyOutputs: [
    { label: 'Enterprise value', sheet: 'Valuation', address: 'B19' },
    { label: 'Equity value', sheet: 'Valuation', address: 'B21' },
    { label: 'Implied value per share', sheet: 'Valuation', address: 'B23' },
  ],
}
