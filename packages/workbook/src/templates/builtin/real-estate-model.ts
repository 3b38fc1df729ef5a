import { baseYearParameter, COMMON_PARAMETERS, type ModelParameter } from '../parameters.js'
import { SheetBuilder, text } from '../model-builder.js'
import type { FinancialModelBuilder, ModelRequest } from '../model-types.js'
import type { TemplateDefinition } from '../template.js'
import { HEADER, HIGHLIGHT, MONEY, MONEY_2, MULTIPLE, PERCENT, TOTAL } from './styles.js'

export const REAL_ESTATE_PARAMETERS: readonly ModelParameter[] = [
  ...COMMON_PARAMETERS,
  baseYearParameter('The year the property is bought at the end of; the holding period starts the year after'),
  { name: 'purchasePrice', description: 'Purchase price', kind: 'number', default: 1_000_000, min: 1, max: 1e12 },
  { name: 'closingCosts', description: 'Closing costs, in percent of the price', kind: 'percent', default: 3, min: 0, max: 50 },
  { name: 'downPayment', description: 'Down payment, in percent of the price', kind: 'percent', default: 25, min: 0, max: 100 },
  { name: 'mortgageRate', description: 'Mortgage interest rate a year, in percent', kind: 'percent', default: 6.5, min: 0.01, max: 30 },
  { name: 'loanTerm', description: 'Loan term, in years', kind: 'integer', default: 30, min: 1, max: 50 },
  { name: 'grossRent', description: 'Gross rent in the first year', kind: 'number', default: 96_000, min: 0, max: 1e12 },
  { name: 'vacancy', description: 'Vacancy, in percent of gross rent', kind: 'percent', default: 5, min: 0, max: 100 },
  { name: 'operatingExpenses', description: 'Operating expenses, in percent of effective rent', kind: 'percent', default: 35, min: 0, max: 100 },
  { name: 'rentGrowth', description: 'Rent growth a year, in percent', kind: 'percent', default: 3, min: -50, max: 100 },
  { name: 'appreciation', description: 'Property appreciation a year, in percent', kind: 'percent', default: 4, min: -50, max: 100 },
  { name: 'sellingCosts', description: 'Selling costs, in percent of the sale price', kind: 'percent', default: 6, min: 0, max: 50 },
]

/**
 * A rental property bought with a mortgage, held for the projection years and sold: net operating
 * income, debt service, cash flow, cap rate, cash-on-cash return and DSCR by year, the sale, and the
 * equity multiple and IRR.
 */
export function buildRealEstateModel({ company, parameters: p }: ModelRequest): TemplateDefinition {
  const years = p.projectionYears
  const i = new SheetBuilder('Inputs', years)
  i.title(text(`${company} — Real Estate Investment Analysis`))
  i.note('Blue cells are inputs; every other number is a formula.')
  i.header(['Input', 'Value'])
  i.input('Company', text(company), '@')
  const purchaseYear = i.input('Purchase year (bought at its end)', p.baseYear, '0')
  const price = i.input('Purchase price', p.purchasePrice, MONEY)
  const closingCosts = i.input('Closing costs (% of price)', p.closingCosts, PERCENT)
  const downPayment = i.input('Down payment (% of price)', p.downPayment, PERCENT)
  const rate = i.input('Mortgage interest rate (annual)', p.mortgageRate, PERCENT)
  const term = i.input('Loan term (years)', p.loanTerm, '0')
  const rent = i.input('Gross annual rent in year 1', p.grossRent, MONEY)
  const vacancy = i.input('Vacancy rate', p.vacancy, PERCENT)
  const expenses = i.input('Operating expenses (% of effective rent)', p.operatingExpenses, PERCENT)
  const rentGrowth = i.input('Annual rent growth', p.rentGrowth, PERCENT)
  const appreciation = i.input('Annual property appreciation', p.appreciation, PERCENT)
  const selling = i.input('Selling costs (% of sale price)', p.sellingCosts, PERCENT)
  const monthlyRate = `(${rate}/12)`

  const s = new SheetBuilder('Analysis', years)
  s.title('Investment Analysis')
  s.header(['Financing', 'Value'])
  const loan = s.cells(['Loan amount', `=${price}*(1-${downPayment})`], { format: MONEY })
  const equity = s.cells(['Equity invested (down payment and closing costs)', `=${price}*${downPayment}+${price}*${closingCosts}`], { format: MONEY })
  const payment = s.cells(['Monthly mortgage payment', `=PMT(${monthlyRate},${term}*12,-B${loan})`], { format: MONEY_2 })
  const service = s.cells(['Annual debt service', `=B${payment}*12`], { format: MONEY })
  s.blank()
  const year = s.chain('Year', () => `=${purchaseYear}+1`, (_c, prev) => `=${prev}${s.nextRow}+1`, { format: '0', style: HEADER })
  const held = (c: string) => `(${c}${year}-${purchaseYear})`
  const gross = s.chain('Gross rent', () => `=${rent}`, (_c, prev) => `=${prev}${s.nextRow}*(1+${rentGrowth})`, { format: MONEY })
  const loss = s.line('Vacancy loss', (c) => `=${c}${gross}*${vacancy}`, { format: MONEY })
  const effective = s.line('Effective rent', (c) => `=${c}${gross}-${c}${loss}`, { format: MONEY })
  const opex = s.line('Operating expenses', (c) => `=${c}${effective}*${expenses}`, { format: MONEY })
  const noi = s.line('Net operating income (NOI)', (c) => `=${c}${effective}-${c}${opex}`, { format: MONEY, style: TOTAL })
  const debtService = s.line('Debt service', (c) => `=IF(${held(c)}<=${term},$B$${service},0)`, { format: MONEY })
  const cashFlow = s.line('Cash flow before tax', (c) => `=${c}${noi}-${c}${debtService}`, { format: MONEY, style: TOTAL })
  s.line('Cap rate on purchase price', (c) => `=${c}${noi}/${price}`, { format: PERCENT })
  s.line('Cash-on-cash return', (c) => `=IF($B$${equity}=0,"n/a",${c}${cashFlow}/$B$${equity})`, { format: PERCENT })
  s.line('Debt service coverage ratio', (c) => `=IF(${c}${debtService}=0,"n/a",${c}${noi}/${c}${debtService})`, { format: MULTIPLE })
  const balance = s.line('Loan balance at year end', (c) => `=MAX(0,-FV(${monthlyRate},MIN(${held(c)},${term})*12,-$B$${payment},$B$${loan}))`, { format: MONEY })
  const value = s.line('Property value at year end', (c) => `=${price}*(1+${appreciation})^${held(c)}`, { format: MONEY })
  s.blank()
  s.header(['Sale at the end of the holding period', 'Value'])
  const salePrice = s.cells(['Sale price', `=${s.lastColumn}${value}`], { format: MONEY })
  const sellingCosts = s.cells(['Selling costs', `=B${salePrice}*${selling}`], { format: MONEY })
  const payoff = s.cells(['Loan payoff', `=${s.lastColumn}${balance}`], { format: MONEY })
  const proceeds = s.cells(['Net sale proceeds', `=B${salePrice}-B${sellingCosts}-B${payoff}`], { format: MONEY, style: TOTAL })
  s.blank()
  // Year 0 in column B, then one column a year: each year's cash flow sits one column left of it above.
  const flowColumns = new SheetBuilder('Analysis', years + 1)
  const flowYear = s.nextRow
  s.cells(['Equity cash flows', ...Array.from({ length: years + 1 }, (_v, k) => (k === 0 ? `=${purchaseYear}` : `=${flowColumns.column(k - 1)}${flowYear}+1`))], { format: '0', style: HEADER })
  const flows = s.nextRow
  const lastYear = `$${s.lastColumn}$${year}`
  s.cells(
    ['Cash flow to (−) and from (+) the investor', ...Array.from({ length: years + 1 }, (_v, k) => (k === 0 ? `=-$B$${equity}` : `=${s.column(k - 1)}${cashFlow}+IF(${flowColumns.column(k)}${flowYear}=${lastYear},$B$${proceeds},0)`))],
    { format: MONEY },
  )
  s.blank()
  const flowRange = flowColumns.span(flows)
  s.cells(['Total profit', `=SUM(${flowRange})`], { format: MONEY, style: TOTAL })
  const multiple = s.cells(['Equity multiple', `=SUM(C${flows}:${flowColumns.lastColumn}${flows})/-B${flows}`], { format: MULTIPLE, style: TOTAL })
  const irr = s.cells(['Internal rate of return (IRR)', `=IRR(${flowRange})`], { format: PERCENT, style: HIGHLIGHT })

  return {
    id: 'real-estate-investment-analysis',
    name: 'Real Estate Investment Analysis',
    description:
      'A rental property bought with a mortgage, held and sold: net operating income, debt service, cash flow, cap rate, cash-on-cash return, debt service coverage, sale proceeds, equity multiple and IRR.',
    category: 'Real Estate',
    difficulty: 'Intermediate',
    tags: ['Real Estate', 'ROI', 'Investments', 'Cash Flow'],
    sheets: [i.build(), s.build()],
    inputSheet: 'Inputs',
    keyOutputs: [
      { label: 'Monthly mortgage payment', sheet: 'Analysis', address: `B${payment}` },
      { label: 'Net operating income, year 1', sheet: 'Analysis', address: `B${noi}` },
      { label: 'Net sale proceeds', sheet: 'Analysis', address: `B${proceeds}` },
      { label: 'Equity multiple', sheet: 'Analysis', address: `B${multiple}` },
      { label: 'Internal rate of return', sheet: 'Analysis', address: `B${irr}` },
      { label: 'Equity cash flows', sheet: 'Analysis', address: flowRange },
    ],
  }
}

export const realEstateBuilder: FinancialModelBuilder = {
  type: 'real-estate',
  name: 'Real Estate Investment Analysis',
  parameters: REAL_ESTATE_PARAMETERS,
  build: buildRealEstateModel,
}
