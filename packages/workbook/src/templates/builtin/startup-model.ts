import { baseYearParameter, COMMON_PARAMETERS, type ModelParameter } from '../parameters.js'
import { SheetBuilder, text } from '../model-builder.js'
import type { FinancialModelBuilder, ModelRequest } from '../model-types.js'
import type { TemplateDefinition } from '../template.js'
import { DECIMAL_1, HEADER, HIGHLIGHT, MONEY, PERCENT, TOTAL, WHOLE } from './styles.js'

export const STARTUP_PARAMETERS: readonly ModelParameter[] = [
  ...COMMON_PARAMETERS,
  baseYearParameter('The year before the first projected one'),
  { name: 'startingCash', description: 'Cash at the start', kind: 'number', default: 500_000, min: 0, max: 1e12 },
  { name: 'seedFunding', description: 'Funding received in the first year', kind: 'number', default: 3_000_000, min: 0, max: 1e12 },
  { name: 'startingCustomers', description: 'Customers at the start', kind: 'integer', default: 100, min: 0, max: 1e9 },
  { name: 'newCustomers', description: 'New customers in the first year', kind: 'integer', default: 400, min: 0, max: 1e9 },
  { name: 'newCustomerGrowth', description: 'Growth in new customers a year, in percent', kind: 'percent', default: 60, min: -90, max: 500 },
  { name: 'churn', description: 'Customers lost a year, in percent of those at the start of the year', kind: 'percent', default: 15, min: 0, max: 100 },
  { name: 'revenuePerCustomer', description: 'Revenue per customer a year', kind: 'number', default: 2400, min: 0, max: 1e9 },
  { name: 'grossMargin', description: 'Gross margin, in percent', kind: 'percent', default: 75, min: -100, max: 100 },
  { name: 'headcount', description: 'Employees in the first year', kind: 'integer', default: 8, min: 0, max: 1e6 },
  { name: 'headcountGrowth', description: 'Headcount growth a year, in percent', kind: 'percent', default: 35, min: -90, max: 500 },
  { name: 'costPerEmployee', description: 'Cost per employee a year', kind: 'number', default: 90_000, min: 0, max: 1e9 },
  { name: 'acquisitionCost', description: 'Sales and marketing cost per new customer', kind: 'number', default: 800, min: 0, max: 1e9 },
  { name: 'otherExpenses', description: 'Other operating expenses a year', kind: 'number', default: 120_000, min: 0, max: 1e12 },
]

/**
 * A subscription startup year by year: customers from acquisition and churn, revenue, team and
 * marketing costs, burn, funding and cash, with runway and the first profitable year.
 */
export function buildStartupModel({ company, parameters: p }: ModelRequest): TemplateDefinition {
  const years = p.projectionYears
  const a = new SheetBuilder('Assumptions', years)
  a.title(text(`${company} — Startup Financial Model`))
  a.note('Blue cells are inputs; every other number is a formula.')
  a.header(['Input', 'Value'])
  a.input('Company', text(company), '@')
  const baseYear = a.input('Year before the plan starts', p.baseYear, '0')
  const startingCash = a.input('Starting cash', p.startingCash, MONEY)
  const seed = a.input('Seed funding received in year 1', p.seedFunding, MONEY)
  const startingCustomers = a.input('Customers at start', p.startingCustomers, WHOLE)
  const newCustomers = a.input('New customers in year 1', p.newCustomers, WHOLE)
  const newGrowth = a.input('Annual growth in new customers', p.newCustomerGrowth, PERCENT)
  const churn = a.input('Annual customer churn', p.churn, PERCENT)
  const revenuePerCustomer = a.input('Annual revenue per customer', p.revenuePerCustomer, MONEY)
  const grossMargin = a.input('Gross margin', p.grossMargin, PERCENT)
  const headcount = a.input('Headcount in year 1', p.headcount, WHOLE)
  const headcountGrowth = a.input('Annual headcount growth', p.headcountGrowth, PERCENT)
  const costPerEmployee = a.input('Cost per employee', p.costPerEmployee, MONEY)
  const acquisitionCost = a.input('Customer acquisition cost', p.acquisitionCost, MONEY)
  const otherExpenses = a.input('Other operating expenses per year', p.otherExpenses, MONEY)

  const s = new SheetBuilder('Projections', years)
  s.title('Startup Projections')
  const year = s.chain('Year', () => `=${baseYear}+1`, (_c, prev) => `=${prev}${s.nextRow}+1`, { format: '0', style: HEADER })
  const END_CUSTOMERS = s.nextRow + 3
  const atStart = s.chain('Customers at start of year', () => `=${startingCustomers}`, (_c, prev) => `=${prev}${END_CUSTOMERS}`, { format: WHOLE })
  const added = s.chain('New customers', () => `=${newCustomers}`, (_c, prev) => `=ROUND(${prev}${s.nextRow}*(1+${newGrowth}),0)`, { format: WHOLE })
  const churned = s.line('Churned customers', (c) => `=ROUND(${c}${atStart}*${churn},0)`, { format: WHOLE })
  const atEnd = s.line('Customers at end of year', (c) => `=${c}${atStart}+${c}${added}-${c}${churned}`, { format: WHOLE })
  const revenue = s.line('Revenue', (c) => `=AVERAGE(${c}${atStart},${c}${atEnd})*${revenuePerCustomer}`, { format: MONEY })
  const grossProfit = s.line('Gross profit', (c) => `=${c}${revenue}*${grossMargin}`, { format: MONEY })
  const staff = s.line('Headcount', (c) => `=ROUND(${headcount}*(1+${headcountGrowth})^(${c}${year}-${baseYear}-1),0)`, { format: WHOLE })
  const payroll = s.line('Payroll', (c) => `=${c}${staff}*${costPerEmployee}`, { format: MONEY })
  s.line('Sales & marketing', (c) => `=${c}${added}*${acquisitionCost}`, { format: MONEY })
  const other = s.line('Other operating expenses', () => `=${otherExpenses}`, { format: MONEY })
  const opex = s.line('Total operating expenses', (c) => `=SUM(${c}${payroll}:${c}${other})`, { format: MONEY, style: TOTAL })
  const ebitda = s.line('EBITDA (burn when negative)', (c) => `=${c}${grossProfit}-${c}${opex}`, { format: MONEY, style: TOTAL })
  const funding = s.line('Funding received', (c) => `=IF(${c}${year}=${baseYear}+1,${seed},0)`, { format: MONEY })
  const netCash = s.line('Net cash flow', (c) => `=${c}${ebitda}+${c}${funding}`, { format: MONEY })
  const CASH_END = s.nextRow + 1
  const cashStart = s.chain('Cash at start of year', () => `=${startingCash}`, (_c, prev) => `=${prev}${CASH_END}`, { format: MONEY })
  const cashEnd = s.line('Cash at end of year', (c) => `=${c}${cashStart}+${c}${netCash}`, { format: MONEY, style: HIGHLIGHT })
  s.line('Runway at year end (months)', (c) => `=IF(${c}${ebitda}>=0,"Cash-flow positive",MAX(0,${c}${cashEnd})/(-${c}${ebitda}/12))`, { format: DECIMAL_1 })
  if (atEnd !== END_CUSTOMERS || cashEnd !== CASH_END) throw new Error('The startup model rows moved')
  s.blank()
  const profitable = s.cells(['First profitable year', `=IF(COUNTIF(${s.span(ebitda)},">0")=0,"Not within ${years} years",MINIFS(${s.span(year)},${s.span(ebitda)},">0"))`], { format: '0', style: TOTAL })
  const finalRevenue = s.cells(['Revenue in the final year', `=${s.lastColumn}${revenue}`], { format: MONEY, style: TOTAL })
  const lowest = s.cells(['Lowest year-end cash', `=MIN(${s.span(cashEnd)})`], { format: MONEY, style: TOTAL })
  s.cells(['Total funding required to stay above zero', `=MAX(0,-B${lowest})`], { format: MONEY, style: TOTAL })

  return {
    id: 'startup-financial-model',
    name: 'Startup Financial Model',
    description:
      'A plan for an early-stage subscription startup: customer growth and churn, revenue, hiring and acquisition costs, burn rate, funding, cash runway and the first profitable year.',
    category: 'Entrepreneurship',
    difficulty: 'Intermediate',
    tags: ['Startup', 'Fundraising', 'Venture Capital', 'Forecasting'],
    sheets: [a.build(), s.build()],
    inputSheet: 'Assumptions',
    keyOutputs: [
      { label: 'Revenue in the final year', sheet: 'Projections', address: `B${finalRevenue}` },
      { label: 'Cash at the end of the final year', sheet: 'Projections', address: `${s.lastColumn}${cashEnd}` },
      { label: 'Lowest year-end cash', sheet: 'Projections', address: `B${lowest}` },
      { label: 'First profitable year', sheet: 'Projections', address: `B${profitable}` },
    ],
  }
}

export const startupBuilder: FinancialModelBuilder = { type: 'startup', name: 'Startup Financial Model', parameters: STARTUP_PARAMETERS, build: buildStartupModel }
