import { ModelParameterError, baseYearParameter, COMMON_PARAMETERS, type ModelParameter } from '../parameters.js'
import { SheetBuilder, at, text } from '../model-builder.js'
import type { FinancialModelBuilder, ModelRequest } from '../model-types.js'
import type { TemplateDefinition } from '../template.js'
import { HEADER, HIGHLIGHT, MONEY, MULTIPLE, PERCENT, TOTAL } from './styles.js'

export const LBO_PARAMETERS: readonly ModelParameter[] = [
  ...COMMON_PARAMETERS,
  baseYearParameter('The fiscal year the deal closes at the end of; projections start the year after'),
  { name: 'ltmRevenue', description: 'Revenue of the last twelve months before closing, in millions', kind: 'number', default: 500, min: 0.001, max: 1e9 },
  { name: 'ltmEbitdaMargin', description: 'EBITDA margin of the last twelve months, in percent', kind: 'percent', default: 20, min: 0.1, max: 100 },
  { name: 'entryMultiple', description: 'Purchase price as a multiple of LTM EBITDA', kind: 'number', default: 9, min: 0.5, max: 50 },
  { name: 'transactionFees', description: 'Transaction fees, in percent of the purchase enterprise value', kind: 'percent', default: 2, min: 0, max: 20 },
  { name: 'minimumCash', description: 'Cash kept on the balance sheet, in millions', kind: 'number', default: 25, min: 0, max: 1e9 },
  { name: 'seniorLeverage', description: 'Senior term loan as a multiple of LTM EBITDA', kind: 'number', default: 4, min: 0, max: 20 },
  { name: 'subordinatedLeverage', description: 'Subordinated notes as a multiple of LTM EBITDA', kind: 'number', default: 1.5, min: 0, max: 20 },
  { name: 'seniorRate', description: 'Senior term loan interest rate, in percent', kind: 'percent', default: 7, min: 0, max: 30 },
  { name: 'seniorAmortization', description: 'Mandatory senior repayment a year, in percent of the original loan', kind: 'percent', default: 5, min: 0, max: 100 },
  { name: 'cashSweep', description: 'Share of excess cash swept to repay the senior loan, in percent', kind: 'percent', default: 100, min: 0, max: 100 },
  { name: 'subordinatedRate', description: 'Subordinated notes interest rate, in percent', kind: 'percent', default: 10, min: 0, max: 30 },
  { name: 'interestIncomeRate', description: 'Interest earned on cash, in percent', kind: 'percent', default: 2, min: 0, max: 20 },
  { name: 'averageBalanceInterest', description: 'Interest on average balances (circular, iterated) rather than opening ones', kind: 'flag', default: 1, min: 0, max: 1 },
  { name: 'revenueGrowthRate', description: 'Revenue growth a year, in percent', kind: 'percent', default: 6, min: -50, max: 100 },
  { name: 'ebitdaMargin', description: 'EBITDA margin in the projection years, in percent', kind: 'percent', default: 21, min: -50, max: 100 },
  { name: 'depreciation', description: 'Depreciation and amortisation, in percent of revenue', kind: 'percent', default: 3, min: 0, max: 50 },
  { name: 'capex', description: 'Capital expenditure, in percent of revenue', kind: 'percent', default: 3.5, min: 0, max: 50 },
  { name: 'workingCapital', description: 'Net working capital, in percent of revenue', kind: 'percent', default: 10, min: -50, max: 100 },
  { name: 'taxRate', description: 'Tax rate, in percent', kind: 'percent', default: 25, min: 0, max: 60 },
  { name: 'exitMultiple', description: 'Exit enterprise value as a multiple of final-year EBITDA', kind: 'number', default: 9, min: 0.5, max: 50 },
]

/**
 * A leveraged buyout: sources and uses, an operating case, a debt schedule whose interest is charged
 * on average balances (a circular model, so the workbook calculates iteratively), a cash sweep of
 * the senior loan, and the exit with the sponsor's IRR and multiple of invested capital.
 */
export function buildLboModel({ company, parameters: p }: ModelRequest): TemplateDefinition {
  const years = p.projectionYears
  const uses = p.entryMultiple * (1 + p.transactionFees) + p.minimumCash / (p.ltmRevenue * p.ltmEbitdaMargin)
  if (p.seniorLeverage + p.subordinatedLeverage >= uses) {
    throw new ModelParameterError(
      'seniorLeverage',
      `The debt (${(p.seniorLeverage + p.subordinatedLeverage).toFixed(2)}x EBITDA) must be less than what the deal uses (${uses.toFixed(2)}x EBITDA), leaving the sponsor equity to invest`,
    )
  }

  // ---- Assumptions ----
  const a = new SheetBuilder('Assumptions', years)
  a.title(text(`${company} — LBO Model`))
  a.note('Currency in millions. Blue cells are inputs; every other number is a formula. The debt schedule is circular and calculated iteratively.')
  a.header(['General', 'Value'])
  a.input('Company', text(company), '@')
  const baseYear = a.input('Closing fiscal year', p.baseYear, '0')
  const ltmRevenue = a.input('LTM revenue', p.ltmRevenue, MONEY)
  const ltmMargin = a.input('LTM EBITDA margin', p.ltmEbitdaMargin, PERCENT)
  a.blank()
  a.header(['Transaction', 'Value'])
  const entryMultiple = a.input('Entry EV/EBITDA multiple', p.entryMultiple, MULTIPLE)
  const fees = a.input('Transaction fees (% of enterprise value)', p.transactionFees, PERCENT)
  const minimumCash = a.input('Minimum cash balance', p.minimumCash, MONEY)
  const seniorLeverage = a.input('Senior term loan (x LTM EBITDA)', p.seniorLeverage, MULTIPLE)
  const subLeverage = a.input('Subordinated notes (x LTM EBITDA)', p.subordinatedLeverage, MULTIPLE)
  a.blank()
  a.header(['Debt terms', 'Value'])
  const seniorRate = a.input('Senior term loan interest rate', p.seniorRate, PERCENT)
  const amortization = a.input('Senior mandatory amortisation (% of original a year)', p.seniorAmortization, PERCENT)
  const sweepShare = a.input('Cash sweep (% of excess cash)', p.cashSweep, PERCENT)
  const subRate = a.input('Subordinated notes interest rate', p.subordinatedRate, PERCENT)
  const incomeRate = a.input('Interest income on cash', p.interestIncomeRate, PERCENT)
  const average = a.input('Interest on average balances (1 = yes, circular; 0 = opening balances)', p.averageBalanceInterest, '0')
  a.blank()
  a.header(['Operating case', 'Value'])
  const growth = a.input('Revenue growth', p.revenueGrowthRate, PERCENT)
  const margin = a.input('EBITDA margin', p.ebitdaMargin, PERCENT)
  const daShare = a.input('Depreciation & amortisation (% of revenue)', p.depreciation, PERCENT)
  const capexShare = a.input('Capital expenditure (% of revenue)', p.capex, PERCENT)
  const nwcShare = a.input('Net working capital (% of revenue)', p.workingCapital, PERCENT)
  const taxRate = a.input('Tax rate', p.taxRate, PERCENT)
  a.blank()
  a.header(['Exit', 'Value'])
  const exitMultiple = a.input('Exit EV/EBITDA multiple', p.exitMultiple, MULTIPLE)

  // ---- Sources & Uses ----
  const su = new SheetBuilder('Sources & Uses', 3)
  su.title('Sources & Uses')
  su.note('Currency in millions, at closing')
  su.header(['Entry', 'Value'])
  const ltmEbitda = su.cells(['LTM EBITDA', `=${ltmRevenue}*${ltmMargin}`], { format: MONEY })
  const entryValue = su.cells(['Purchase enterprise value', `=B${ltmEbitda}*${entryMultiple}`], { format: MONEY })
  su.blank()
  su.header(['Uses', 'Amount', '% of total'], 2)
  // Each amount is shown with its share of the total (and, for sources, as a multiple of EBITDA).
  const TOTAL_USES = su.nextRow + 3
  const ofUses = (label: string, amount: string, options = {}) => su.cells([label, amount, `=B${su.nextRow}/B$${TOTAL_USES}`], { format: MONEY, ...options })
  const usesTop = ofUses('Purchase of the business', `=B${entryValue}`)
  ofUses('Transaction fees', `=B${entryValue}*${fees}`)
  const cashToBalanceSheet = ofUses('Cash to balance sheet', `=${minimumCash}`)
  const totalUses = ofUses('Total uses', `=SUM(B${usesTop}:B${cashToBalanceSheet})`, { style: TOTAL })
  su.blank()
  su.header(['Sources', 'Amount', '% of total', 'x LTM EBITDA'], 3)
  const TOTAL_SOURCES = su.nextRow + 3
  const ofSources = (label: string, amount: string, options = {}) =>
    su.cells([label, amount, `=B${su.nextRow}/B$${TOTAL_SOURCES}`, `=B${su.nextRow}/$B$${ltmEbitda}`], { format: MONEY, ...options })
  const senior = ofSources('Senior term loan', `=B${ltmEbitda}*${seniorLeverage}`)
  const subordinated = ofSources('Subordinated notes', `=B${ltmEbitda}*${subLeverage}`)
  const sponsorEquity = ofSources('Sponsor equity', `=B${totalUses}-B${senior}-B${subordinated}`, { style: HIGHLIGHT })
  const totalSources = ofSources('Total sources', `=SUM(B${senior}:B${sponsorEquity})`, { style: TOTAL })
  su.cells(['Sources less uses', `=B${totalSources}-B${totalUses}`], { format: MONEY })
  if (totalUses !== TOTAL_USES || totalSources !== TOTAL_SOURCES) throw new Error('The LBO sources and uses rows moved')
  su.format(`C${usesTop}:C${totalUses}`, PERCENT)
  su.format(`C${senior}:C${totalSources}`, PERCENT)
  su.format(`D${senior}:D${totalSources}`, MULTIPLE)
  su.columnWidths['1'] = 120
  const S = (row: number) => `'Sources & Uses'!$B$${row}`

  // ---- Operating ----
  const op = new SheetBuilder('Operating', years)
  op.title('Operating Case')
  op.note('Currency in millions')
  const opYear = op.chain('Fiscal year', () => `=${baseYear}+1`, (_c, prev) => `=${prev}${op.nextRow}+1`, { format: '0', style: HEADER })
  const revenue = op.chain('Revenue', () => `=${ltmRevenue}*(1+${growth})`, (_c, prev) => `=${prev}${op.nextRow}*(1+${growth})`, { format: MONEY })
  const ebitda = op.line('EBITDA', (c) => `=${c}${revenue}*${margin}`, { format: MONEY, style: TOTAL })
  const da = op.line('Depreciation & amortisation', (c) => `=${c}${revenue}*${daShare}`, { format: MONEY })
  const ebit = op.line('EBIT', (c) => `=${c}${ebitda}-${c}${da}`, { format: MONEY })
  // The Debt sheet's net interest row; checked once the Debt sheet is built.
  const NET_INTEREST_ROW = 25
  const interest = op.line('Net interest expense', (c) => `=Debt!${c}${NET_INTEREST_ROW}`, { format: MONEY })
  const pretax = op.line('Profit before tax', (c) => `=${c}${ebit}-${c}${interest}`, { format: MONEY })
  const taxes = op.line('Taxes', (c) => `=MAX(0,${c}${pretax}*${taxRate})`, { format: MONEY })
  const netIncome = op.line('Net income', (c) => `=${c}${pretax}-${c}${taxes}`, { format: MONEY, style: TOTAL })
  const addBack = op.line('Plus: depreciation & amortisation', (c) => `=${c}${da}`, { format: MONEY })
  const capex = op.line('Less: capital expenditure', (c) => `=${c}${revenue}*${capexShare}`, { format: MONEY })
  const nwc = op.line('Net working capital', (c) => `=${c}${revenue}*${nwcShare}`, { format: MONEY })
  const nwcIncrease = op.chain('Less: increase in net working capital', (c) => `=${c}${nwc}-${ltmRevenue}*${nwcShare}`, (c, prev) => `=${c}${nwc}-${prev}${nwc}`, { format: MONEY })
  const freeCash = op.line('Free cash flow for debt repayment', (c) => `=${c}${netIncome}+${c}${addBack}-${c}${capex}-${c}${nwcIncrease}`, { format: MONEY, style: HIGHLIGHT })

  // ---- Debt ----
  const d = new SheetBuilder('Debt', years)
  d.title('Debt Schedule')
  d.note('Currency in millions. Interest on average balances makes the schedule circular: the workbook calculates iteratively.')
  const debtYear = d.line('Fiscal year', (c) => `=${at(op, c, opYear)}`, { format: '0', style: HEADER })
  d.header(['Cash'])
  const CLOSING_CASH = d.nextRow + 5
  const openingCash = d.chain('Opening cash', () => `=${S(cashToBalanceSheet)}`, (_c, prev) => `=${prev}${CLOSING_CASH}`, { format: MONEY })
  const cashFlow = d.line('Plus: free cash flow', (c) => `=${at(op, c, freeCash)}`, { format: MONEY })
  const MANDATORY = CLOSING_CASH + 4
  const SWEEP = MANDATORY + 1
  const mandatoryPaid = d.line('Less: mandatory amortisation', (c) => `=${c}${MANDATORY}`, { format: MONEY })
  const available = d.line('Cash available for the sweep', (c) => `=MAX(0,${c}${openingCash}+${c}${cashFlow}-${c}${mandatoryPaid}-${minimumCash})`, { format: MONEY })
  const sweepPaid = d.line('Less: cash sweep', (c) => `=${c}${SWEEP}`, { format: MONEY })
  const closingCash = d.line('Closing cash', (c) => `=${c}${openingCash}+${c}${cashFlow}-${c}${mandatoryPaid}-${c}${sweepPaid}`, { format: MONEY, style: TOTAL })
  d.blank()
  d.header(['Senior term loan'])
  const seniorOpening = d.chain('Opening balance', () => `=${S(senior)}`, (_c, prev) => `=${prev}${d.nextRow + 3}`, { format: MONEY })
  const mandatory = d.line('Mandatory amortisation', (c) => `=MIN(${c}${seniorOpening},${S(senior)}*${amortization})`, { format: MONEY })
  const sweep = d.line('Cash sweep', (c) => `=MIN(${c}${seniorOpening}-${c}${mandatory},${c}${available}*${sweepShare})`, { format: MONEY })
  const seniorClosing = d.line('Closing balance', (c) => `=${c}${seniorOpening}-${c}${mandatory}-${c}${sweep}`, { format: MONEY, style: TOTAL })
  const seniorInterest = d.line('Interest expense', (c) => `=${seniorRate}*IF(${average}=1,AVERAGE(${c}${seniorOpening},${c}${seniorClosing}),${c}${seniorOpening})`, { format: MONEY })
  d.blank()
  d.header(['Subordinated notes'])
  const subOpening = d.chain('Opening balance', () => `=${S(subordinated)}`, (_c, prev) => `=${prev}${d.nextRow + 1}`, { format: MONEY })
  const subClosing = d.line('Closing balance (repaid at exit)', (c) => `=${c}${subOpening}`, { format: MONEY, style: TOTAL })
  const subInterest = d.line('Interest expense', (c) => `=${subRate}*IF(${average}=1,AVERAGE(${c}${subOpening},${c}${subClosing}),${c}${subOpening})`, { format: MONEY })
  d.blank()
  const income = d.line('Interest income on cash', (c) => `=${incomeRate}*IF(${average}=1,AVERAGE(${c}${openingCash},${c}${closingCash}),${c}${openingCash})`, { format: MONEY })
  const netInterest = d.line('Net interest expense', (c) => `=${c}${seniorInterest}+${c}${subInterest}-${c}${income}`, { format: MONEY, style: TOTAL })
  const totalDebt = d.line('Total debt', (c) => `=${c}${seniorClosing}+${c}${subClosing}`, { format: MONEY })
  const netDebt = d.line('Net debt', (c) => `=${c}${totalDebt}-${c}${closingCash}`, { format: MONEY, style: TOTAL })
  d.line('Net debt / EBITDA', (c) => `=${c}${netDebt}/${at(op, c, ebitda)}`, { format: MULTIPLE })
  if (closingCash !== CLOSING_CASH || mandatory !== MANDATORY || sweep !== SWEEP || netInterest !== NET_INTEREST_ROW) {
    throw new Error('The LBO debt schedule rows moved')
  }

  // ---- Returns ----
  const last = d.lastColumn
  const r = new SheetBuilder('Returns', years + 1)
  r.title('Returns')
  r.note('Currency in millions; the sponsor invests at closing and sells at the end of the final year')
  r.header(['Exit', 'Value'])
  const exitYear = r.cells(['Exit year', `=${at(d, last, debtYear)}`], { format: '0' })
  const exitEbitda = r.cells(['Final-year EBITDA', `=${at(op, last, ebitda)}`], { format: MONEY })
  const multiple = r.cells(['Exit EV/EBITDA multiple', `=${exitMultiple}`], { format: MULTIPLE })
  const exitValue = r.cells(['Enterprise value at exit', `=B${exitEbitda}*B${multiple}`], { format: MONEY })
  const exitNetDebt = r.cells(['Less: net debt at exit', `=${at(d, last, netDebt)}`], { format: MONEY })
  const exitEquity = r.cells(['Equity value at exit', `=B${exitValue}-B${exitNetDebt}`], { format: MONEY, style: TOTAL })
  const invested = r.cells(['Sponsor equity invested', `=${S(sponsorEquity)}`], { format: MONEY })
  const moic = r.cells(['Multiple of invested capital (MOIC)', `=B${exitEquity}/B${invested}`], { format: MULTIPLE, style: HIGHLIGHT })
  const IRR_ROW = r.nextRow
  const FLOWS = IRR_ROW + 3
  const irr = r.cells(['Internal rate of return (IRR)', `=IRR(${r.span(FLOWS)})`], { format: PERCENT, style: HIGHLIGHT })
  r.blank()
  const flowYear = r.chain('Sponsor cash flows', () => `=${baseYear}`, (_c, prev) => `=${prev}${r.nextRow}+1`, { format: '0', style: HEADER })
  const flows = r.chain('Cash flow to (−) and from (+) the sponsor', () => `=-$B$${invested}`, (c) => `=IF(${c}${flowYear}=$B$${exitYear},$B$${exitEquity},0)`, { format: MONEY })
  if (flows !== FLOWS || irr !== IRR_ROW) throw new Error('The LBO returns rows moved')

  return {
    id: 'lbo-model',
    name: 'LBO Model',
    description:
      'Leveraged buyout: sources and uses, an operating case, a debt schedule with interest on average balances (circular, calculated iteratively) and a cash sweep, and the exit with the sponsor’s IRR and multiple of invested capital.',
    category: 'Valuation',
    difficulty: 'Advanced',
    tags: ['Valuation', 'Investment', 'Cash Flow'],
    sheets: [a.build(), su.build(), op.build(), d.build(), r.build()],
    inputSheet: 'Assumptions',
    iterativeCalculation: true,
    keyOutputs: [
      { label: 'Sponsor equity', sheet: 'Sources & Uses', address: `B${sponsorEquity}` },
      { label: 'Net debt at exit', sheet: 'Returns', address: `B${exitNetDebt}` },
      { label: 'Equity value at exit', sheet: 'Returns', address: `B${exitEquity}` },
      { label: 'MOIC', sheet: 'Returns', address: `B${moic}` },
      { label: 'IRR', sheet: 'Returns', address: `B${irr}` },
      { label: 'Sponsor cash flows', sheet: 'Returns', address: r.span(flows) },
    ],
  }
}

export const lboBuilder: FinancialModelBuilder = { type: 'lbo', name: 'LBO Model', parameters: LBO_PARAMETERS, build: buildLboModel }
