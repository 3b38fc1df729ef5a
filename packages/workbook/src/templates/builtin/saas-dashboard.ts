import { columnToLetters } from '@finsheet/formula'
import { baseYearParameter, COMMON_PARAMETERS, type ModelParameter } from '../parameters.js'
import { SheetBuilder, text } from '../model-builder.js'
import type { FinancialModelBuilder, ModelRequest } from '../model-types.js'
import type { TemplateDefinition } from '../template.js'
import { DECIMAL_1, HEADER, HIGHLIGHT, MONEY, MULTIPLE, PERCENT, TOTAL, WHOLE } from './styles.js'

export const SAAS_PARAMETERS: readonly ModelParameter[] = [
  ...COMMON_PARAMETERS,
  baseYearParameter('The year before the first projected one'),
  { name: 'startingCustomers', description: 'Customers at the start', kind: 'integer', default: 250, min: 0, max: 1e9 },
  { name: 'newCustomers', description: 'Customers won in the first year', kind: 'integer', default: 480, min: 0, max: 1e9 },
  { name: 'newCustomerGrowth', description: 'Growth in customers won a year, in percent', kind: 'percent', default: 25, min: -90, max: 500 },
  { name: 'churn', description: 'Customers of each cohort lost a year (logo churn), in percent', kind: 'percent', default: 12, min: 0, max: 100 },
  { name: 'annualContractValue', description: 'Annual contract value per customer in the first year (ARPA)', kind: 'number', default: 12_000, min: 0, max: 1e9 },
  { name: 'priceIncrease', description: 'Price increase and expansion per customer a year, in percent', kind: 'percent', default: 5, min: -50, max: 100 },
  { name: 'grossMargin', description: 'Gross margin, in percent', kind: 'percent', default: 80, min: -100, max: 100 },
  { name: 'salesMarketing', description: 'Sales and marketing spend in the first year', kind: 'number', default: 2_400_000, min: 0, max: 1e12 },
  { name: 'salesMarketingGrowth', description: 'Growth in sales and marketing spend a year, in percent', kind: 'percent', default: 20, min: -90, max: 500 },
  { name: 'otherExpenses', description: 'Other operating expenses (R&D, G&A), in percent of revenue', kind: 'percent', default: 45, min: 0, max: 500 },
]

/**
 * Subscription metrics year by year from annual customer cohorts: each year's new customers decay by
 * the churn rate, and their sum gives customers, ARR and MRR; with revenue, margins and acquisition
 * spend come CAC, lifetime value, LTV to CAC, CAC payback and net revenue retention.
 */
export function buildSaasModel({ company, parameters: p }: ModelRequest): TemplateDefinition {
  const years = p.projectionYears
  const a = new SheetBuilder('Inputs', years)
  a.title(text(`${company} — SaaS Metrics`))
  a.note('Blue cells are inputs; every other number is a formula.')
  a.header(['Input', 'Value'])
  a.input('Company', text(company), '@')
  const baseYear = a.input('Year before the plan starts', p.baseYear, '0')
  const startingCustomers = a.input('Customers at start', p.startingCustomers, WHOLE)
  const newCustomers = a.input('New customers in year 1', p.newCustomers, WHOLE)
  const newGrowth = a.input('Annual growth in new customers', p.newCustomerGrowth, PERCENT)
  const churn = a.input('Annual logo churn (per cohort)', p.churn, PERCENT)
  const arpa = a.input('Annual contract value per customer in year 1 (ARPA)', p.annualContractValue, MONEY)
  const priceIncrease = a.input('Annual price increase and expansion', p.priceIncrease, PERCENT)
  const grossMargin = a.input('Gross margin', p.grossMargin, PERCENT)
  const salesMarketing = a.input('Sales & marketing spend in year 1', p.salesMarketing, MONEY)
  const salesGrowth = a.input('Annual growth in sales & marketing', p.salesMarketingGrowth, PERCENT)
  const otherShare = a.input('Other operating expenses (% of revenue)', p.otherExpenses, PERCENT)

  // Cohorts: column B the year a cohort was won, C how many, D on the customers left at each year end.
  const cohorts = new SheetBuilder('Cohorts', years, 3)
  cohorts.title('Customer Cohorts')
  cohorts.note('Customers left at each year end, by the year they were won')
  const yearRow = cohorts.nextRow
  cohorts.cells(['Cohort', 'Won in', 'Customers won', ...Array.from({ length: years }, (_v, index) => (index === 0 ? `=${baseYear}+1` : `=${cohorts.column(index - 1)}${yearRow}+1`))], {
    style: HEADER,
    lastColumn: 2 + years,
  })
  cohorts.format(`B${yearRow}:${cohorts.lastColumn}${yearRow}`, '0')
  const survivors = (won: string, count: string) => (c: string) => `=IF(${c}$${yearRow}<${won},0,${count}*(1-${churn})^(${c}$${yearRow}-${won}))`
  const base = cohorts.nextRow
  cohorts.cells(['Customers at start', `=${baseYear}`, `=${startingCustomers}`, ...Array.from({ length: years }, (_v, index) => survivors(`$B${base}`, `$C${base}`)(cohorts.column(index)))])
  for (let k = 1; k <= years; k++) {
    const row = cohorts.nextRow
    cohorts.cells([
      `Cohort ${k}`,
      `=B${row - 1}+1`,
      k === 1 ? `=${newCustomers}` : `=C${row - 1}*(1+${newGrowth})`,
      ...Array.from({ length: years }, (_v, index) => survivors(`$B${row}`, `$C${row}`)(cohorts.column(index))),
    ])
  }
  const lastCohort = cohorts.nextRow - 1
  const total = cohorts.line('Customers at end of year', (c) => `=SUM(${c}${base}:${c}${lastCohort})`, { style: TOTAL })
  cohorts.format(`B${base}:B${lastCohort}`, '0')
  cohorts.format(`C${base}:${cohorts.lastColumn}${total}`, DECIMAL_1)
  cohorts.columnWidths['0'] = 220
  cohorts.columnWidths['1'] = 80
  cohorts.columnWidths['2'] = 120

  const m = new SheetBuilder('Metrics', years)
  m.title('SaaS Metrics')
  const year = m.line('Year', (c, index) => `=Cohorts!${cohorts.column(index)}${yearRow}`, { format: '0', style: HEADER })
  const END = m.nextRow + 3
  const opening = m.chain('Customers at start of year', () => `=${startingCustomers}`, (_c, prev) => `=${prev}${END}`, { format: DECIMAL_1 })
  const won = m.line('New customers', (c) => `=SUMIF(Cohorts!$B$${base + 1}:$B$${lastCohort},${c}${year},Cohorts!$C$${base + 1}:$C$${lastCohort})`, { format: DECIMAL_1 })
  const churned = m.line('Churned customers', (c) => `=${c}${opening}+${c}${won}-${c}${END}`, { format: DECIMAL_1 })
  const closing = m.line('Customers at end of year', (_c, index) => `=Cohorts!${cohorts.column(index)}${total}`, { format: DECIMAL_1, style: TOTAL })
  const acv = m.chain('Annual contract value per customer (ARPA)', () => `=${arpa}`, (_c, prev) => `=${prev}${m.nextRow}*(1+${priceIncrease})`, { format: MONEY })
  const ARR = m.nextRow + 1
  const openingArr = m.chain('Opening ARR', () => `=${startingCustomers}*${arpa}`, (_c, prev) => `=${prev}${ARR}`, { format: MONEY })
  const arr = m.line('ARR (end of year)', (c) => `=${c}${closing}*${c}${acv}`, { format: MONEY, style: HIGHLIGHT })
  m.line('MRR (end of year)', (c) => `=${c}${arr}/12`, { format: MONEY })
  m.line('Net new ARR', (c) => `=${c}${arr}-${c}${openingArr}`, { format: MONEY })
  m.line('ARR growth', (c) => `=IF(${c}${openingArr}=0,"n/a",${c}${arr}/${c}${openingArr}-1)`, { format: PERCENT })
  m.line('Net revenue retention', (c) => `=IF(${c}${openingArr}=0,"n/a",(${c}${arr}-${c}${won}*${c}${acv})/${c}${openingArr})`, { format: PERCENT })
  const revenue = m.line('Revenue', (c) => `=AVERAGE(${c}${openingArr},${c}${arr})`, { format: MONEY, style: TOTAL })
  const grossProfit = m.line('Gross profit', (c) => `=${c}${revenue}*${grossMargin}`, { format: MONEY })
  const spend = m.chain('Sales & marketing', () => `=${salesMarketing}`, (_c, prev) => `=${prev}${m.nextRow}*(1+${salesGrowth})`, { format: MONEY })
  const other = m.line('Other operating expenses', (c) => `=${c}${revenue}*${otherShare}`, { format: MONEY })
  m.line('EBITDA', (c) => `=${c}${grossProfit}-${c}${spend}-${c}${other}`, { format: MONEY, style: TOTAL })
  m.line('Logo churn rate', (c) => `=IF(${c}${opening}=0,"n/a",${c}${churned}/${c}${opening})`, { format: PERCENT })
  const cac = m.line('Customer acquisition cost (CAC)', (c) => `=IF(${c}${won}=0,"n/a",${c}${spend}/${c}${won})`, { format: MONEY })
  const ltv = m.line('Customer lifetime value (LTV)', (c) => `=IF(${churn}=0,"n/a",${c}${acv}*${grossMargin}/${churn})`, { format: MONEY })
  const ratio = m.line('LTV to CAC ratio', (c) => `=IF(ISNUMBER(${c}${ltv})*ISNUMBER(${c}${cac}),IF(${c}${cac}=0,"n/a",${c}${ltv}/${c}${cac}),"n/a")`, { format: MULTIPLE, style: HIGHLIGHT })
  const payback = m.line('CAC payback (months)', (c) => `=IF(ISNUMBER(${c}${cac}),IF(${c}${acv}*${grossMargin}<=0,"n/a",${c}${cac}/(${c}${acv}*${grossMargin}/12)),"n/a")`, { format: DECIMAL_1 })
  if (closing !== END || arr !== ARR) throw new Error('The SaaS metrics rows moved')

  const last = m.lastColumn
  return {
    id: 'saas-metrics-dashboard',
    name: 'SaaS Metrics Dashboard',
    description:
      'Subscription metrics year by year from customer cohorts: customers, churn, ARR and MRR, net revenue retention, revenue and EBITDA, CAC, customer lifetime value, LTV to CAC and CAC payback.',
    category: 'SaaS',
    difficulty: 'Beginner',
    tags: ['SaaS', 'Metrics', 'KPIs'],
    sheets: [a.build(), cohorts.build(), m.build()],
    inputSheet: 'Inputs',
    keyOutputs: [
      { label: 'ARR, final year', sheet: 'Metrics', address: `${last}${arr}` },
      { label: 'Customers at end of final year', sheet: 'Metrics', address: `${last}${closing}` },
      { label: 'LTV to CAC ratio, final year', sheet: 'Metrics', address: `${last}${ratio}` },
      { label: 'CAC payback, final year', sheet: 'Metrics', address: `${last}${payback}` },
      { label: 'Customers by cohort', sheet: 'Cohorts', address: `D${base}:${columnToLetters(2 + years)}${lastCohort}` },
    ],
  }
}

export const saasBuilder: FinancialModelBuilder = { type: 'saas', name: 'SaaS Metrics Model', parameters: SAAS_PARAMETERS, build: buildSaasModel }
