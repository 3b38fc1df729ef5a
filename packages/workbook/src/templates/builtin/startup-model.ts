import { acrossYears, eachYear, type TemplateDefinition } from '../template.js'
import { HEADER, HIGHLIGHT, INPUT, MODEL_WIDTHS, MONEY, PERCENT, TITLE, TOTAL, WHOLE, DECIMAL_1 } from './styles.js'

const A = (cell: string) => `Assumptions!$${cell.replace(/(\d+)$/, '$$$1')}`

/**
 * Five years of a subscription startup: customers from acquisition and churn, revenue, team and
 * marketing costs, burn, funding and cash, with runway and the first profitable year.
 */
export const startupModel: TemplateDefinition = {
  id: 'startup-financial-model',
  name: 'Startup Financial Model',
  description:
    'Five-year plan for an early-stage subscription startup: customer growth and churn, revenue, hiring and acquisition costs, burn rate, funding, cash runway and the first profitable year.',
  category: 'Entrepreneurship',
  difficulty: 'Intermediate',
  tags: ['Startup', 'Fundraising', 'Venture Capital', 'Forecasting'],
  sheets: [
    {
      name: 'Assumptions',
      rows: [
        ['Startup Financial Model — Assumptions'],
        ['Input', 'Value'],
        ['Starting cash', 500000],
        ['Seed funding received in year 1', 3000000],
        ['Customers at start', 100],
        ['New customers in year 1', 400],
        ['Annual growth in new customers', 0.6],
        ['Annual customer churn', 0.15],
        ['Annual revenue per customer', 2400],
        ['Gross margin', 0.75],
        ['Headcount in year 1', 8],
        ['Annual headcount growth', 0.35],
        ['Cost per employee', 90000],
        ['Customer acquisition cost', 800],
        ['Other operating expenses per year', 120000],
      ],
      formats: [
        ['B3:B4', MONEY],
        ['B5:B6', WHOLE],
        ['B7:B8', PERCENT],
        ['B9', MONEY],
        ['B10', PERCENT],
        ['B11', WHOLE],
        ['B12', PERCENT],
        ['B13:B15', MONEY],
      ],
      styles: [
        ['A1', TITLE],
        ['A2:B2', HEADER],
        ['B3:B15', INPUT],
      ],
      columnWidths: { '0': 320, '1': 120 },
    },
    {
      name: 'Projections',
      rows: [
        ['Startup Projections'],
        ['Year', ...acrossYears(1, (_c, p) => `=${p}2+1`)],
        ['Customers at start of year', ...acrossYears(`=${A('B5')}`, (_c, p) => `=${p}6`)],
        ['New customers', ...acrossYears(`=${A('B6')}`, (_c, p) => `=ROUND(${p}4*(1+${A('B7')}),0)`)],
        ['Churned customers', ...eachYear((c) => `=ROUND(${c}3*${A('B8')},0)`)],
        ['Customers at end of year', ...eachYear((c) => `=${c}3+${c}4-${c}5`)],
        ['Revenue', ...eachYear((c) => `=AVERAGE(${c}3,${c}6)*${A('B9')}`)],
        ['Gross profit', ...eachYear((c) => `=${c}7*${A('B10')}`)],
        ['Headcount', ...eachYear((c) => `=ROUND(${A('B11')}*(1+${A('B12')})^(${c}2-1),0)`)],
        ['Payroll', ...eachYear((c) => `=${c}9*${A('B13')}`)],
        ['Sales & marketing', ...eachYear((c) => `=${c}4*${A('B14')}`)],
        ['Other operating expenses', ...eachYear(() => `=${A('B15')}`)],
        ['Total operating expenses', ...eachYear((c) => `=SUM(${c}10:${c}12)`)],
        ['EBITDA (burn when negative)', ...eachYear((c) => `=${c}8-${c}13`)],
        ['Funding received', ...acrossYears(`=${A('B4')}`, () => 0)],
        ['Net cash flow', ...eachYear((c) => `=${c}14+${c}15`)],
        ['Cash at start of year', ...acrossYears(`=${A('B3')}`, (_c, p) => `=${p}18`)],
        ['Cash at end of year', ...eachYear((c) => `=${c}17+${c}16`)],
        ['Runway at year end (months)', ...eachYear((c) => `=IF(${c}14>=0,"Cash-flow positive",MAX(0,${c}18)/(-${c}14/12))`)],
        [],
        ['First profitable year', '=IF(COUNTIF(B14:F14,">0")=0,"Not within 5 years",MINIFS(B2:F2,B14:F14,">0"))'],
        ['Revenue in year 5', '=F7'],
        ['Lowest year-end cash', '=MIN(B18:F18)'],
        ['Total funding required to stay above zero', '=MAX(0,-B23)'],
      ],
      formats: [
        ['B2:F2', '0'],
        ['B3:F6', WHOLE],
        ['B7:F8', MONEY],
        ['B9:F9', WHOLE],
        ['B10:F18', MONEY],
        ['B19:F19', DECIMAL_1],
        ['B21', '0'],
        ['B22:B24', MONEY],
      ],
      styles: [
        ['A1', TITLE],
        ['A2:F2', HEADER],
        ['A14:F14', TOTAL],
        ['A18:F18', HIGHLIGHT],
        ['A21:B24', TOTAL],
      ],
      columnWidths: MODEL_WIDTHS,
    },
  ],
  keyOutputs: [
    { label: 'Revenue in year 5', sheet: 'Projections', address: 'B22' },
    { label: 'Cash at end of year 5', sheet: 'Projections', address: 'F18' },
    { label: 'Lowest year-end cash', sheet: 'Projections', address: 'B23' },
    { label: 'First profitable year', sheet: 'Projections', address: 'B21' },
  ],
}
