import { baseYearParameter, COMMON_PARAMETERS, type ModelParameter } from '../parameters.js'
import { SheetBuilder, at, text } from '../model-builder.js'
import type { FinancialModelBuilder, ModelRequest } from '../model-types.js'
import type { TemplateDefinition } from '../template.js'
import { HEADER, HIGHLIGHT, MONEY, PERCENT, TOTAL } from './styles.js'

export const THREE_STATEMENT_PARAMETERS: readonly ModelParameter[] = [
  ...COMMON_PARAMETERS,
  baseYearParameter('The year of the opening balance sheet; projections start the year after'),
  { name: 'baseRevenue', description: 'Revenue of the last actual year, in thousands', kind: 'number', default: 5000, min: 0.001, max: 1e12 },
  { name: 'revenueGrowthRate', description: 'Revenue growth a year, in percent', kind: 'percent', default: 10, min: -50, max: 100 },
  { name: 'costOfGoodsSold', description: 'Cost of goods sold, in percent of revenue', kind: 'percent', default: 40, min: 0, max: 100 },
  { name: 'operatingExpenses', description: 'Operating expenses, in percent of revenue', kind: 'percent', default: 30, min: 0, max: 100 },
  { name: 'depreciationRate', description: 'Depreciation, in percent of opening PP&E', kind: 'percent', default: 10, min: 0, max: 100 },
  { name: 'interestRate', description: 'Interest rate on opening debt, in percent', kind: 'percent', default: 6, min: 0, max: 30 },
  { name: 'taxRate', description: 'Tax rate, in percent', kind: 'percent', default: 25, min: 0, max: 60 },
  { name: 'receivables', description: 'Receivables, in percent of revenue', kind: 'percent', default: 12, min: 0, max: 100 },
  { name: 'inventoryShare', description: 'Inventory, in percent of cost of goods sold', kind: 'percent', default: 15, min: 0, max: 100 },
  { name: 'payablesShare', description: 'Payables, in percent of cost of goods sold', kind: 'percent', default: 10, min: 0, max: 100 },
  { name: 'capex', description: 'Capital expenditure, in percent of revenue', kind: 'percent', default: 6, min: 0, max: 100 },
  { name: 'dividendPayout', description: 'Dividends, in percent of net income', kind: 'percent', default: 30, min: 0, max: 100 },
  { name: 'debtRepayment', description: 'Debt repaid each year, in thousands', kind: 'number', default: 200, min: 0, max: 1e12 },
  { name: 'openingCash', description: 'Opening cash, in thousands', kind: 'number', default: 1000, min: 0, max: 1e12 },
  { name: 'openingReceivables', description: 'Opening accounts receivable, in thousands', kind: 'number', default: 600, min: 0, max: 1e12 },
  { name: 'openingInventory', description: 'Opening inventory, in thousands', kind: 'number', default: 300, min: 0, max: 1e12 },
  { name: 'openingPpe', description: 'Opening property, plant & equipment, in thousands', kind: 'number', default: 4000, min: 0, max: 1e12 },
  { name: 'openingPayables', description: 'Opening accounts payable, in thousands', kind: 'number', default: 200, min: 0, max: 1e12 },
  { name: 'openingDebt', description: 'Opening debt, in thousands', kind: 'number', default: 2000, min: 0, max: 1e12 },
]

/**
 * Income statement, balance sheet and cash flow statement linked through net income, depreciation,
 * working capital, capital expenditure, debt and dividends: closing cash comes from the cash flow
 * statement, and the balance sheet balances in every year (its "Balance check" row is 0).
 */
export function buildThreeStatementModel({ company, parameters: p }: ModelRequest): TemplateDefinition {
  const years = p.projectionYears

  const a = new SheetBuilder('Assumptions', years)
  a.title(text(`${company} — Three Statement Model`))
  a.note('Currency in thousands. Blue cells are inputs; every other number is a formula.')
  a.header(['Operating assumptions', 'Value'])
  a.input('Company', text(company), '@')
  const baseYear = a.input('Last actual fiscal year', p.baseYear, '0')
  const baseRevenue = a.input('Prior year revenue', p.baseRevenue, MONEY)
  const growth = a.input('Revenue growth', p.revenueGrowthRate, PERCENT)
  const cogsShare = a.input('Cost of goods sold (% of revenue)', p.costOfGoodsSold, PERCENT)
  const opexShare = a.input('Operating expenses (% of revenue)', p.operatingExpenses, PERCENT)
  const depreciationRate = a.input('Depreciation (% of opening PP&E)', p.depreciationRate, PERCENT)
  const interestRate = a.input('Interest rate on debt', p.interestRate, PERCENT)
  const taxRate = a.input('Tax rate', p.taxRate, PERCENT)
  const receivablesShare = a.input('Receivables (% of revenue)', p.receivables, PERCENT)
  const inventoryShare = a.input('Inventory (% of cost of goods sold)', p.inventoryShare, PERCENT)
  const payablesShare = a.input('Payables (% of cost of goods sold)', p.payablesShare, PERCENT)
  const capexShare = a.input('Capital expenditure (% of revenue)', p.capex, PERCENT)
  const payout = a.input('Dividend payout ratio', p.dividendPayout, PERCENT)
  const repayment = a.input('Annual debt repayment', p.debtRepayment, MONEY)
  a.blank()
  a.header(['Opening balance sheet', 'Value'])
  const openingCash = a.input('Cash', p.openingCash, MONEY)
  const openingReceivables = a.input('Accounts receivable', p.openingReceivables, MONEY)
  const openingInventory = a.input('Inventory', p.openingInventory, MONEY)
  const openingPpe = a.input('Property, plant & equipment', p.openingPpe, MONEY)
  const openingPayables = a.input('Accounts payable', p.openingPayables, MONEY)
  const openingDebt = a.input('Debt', p.openingDebt, MONEY)
  const equityRow = a.cells(["Shareholders' equity", `=${openingCash}+${openingReceivables}+${openingInventory}+${openingPpe}-${openingPayables}-${openingDebt}`], {
    format: MONEY,
    style: TOTAL,
  })
  const openingEquity = `Assumptions!$B$${equityRow}`

  const is = new SheetBuilder('Income Statement', years)
  const bs = new SheetBuilder('Balance Sheet', years)
  const cf = new SheetBuilder('Cash Flow', years)
  // The balance sheet rows the income statement reads (opening PP&E and debt), fixed below and checked.
  const BS_PPE = 8
  const BS_DEBT = 12
  const CF_CLOSING = 17

  is.title('Income Statement')
  is.note('Currency in thousands')
  const isYear = is.chain('Fiscal year', () => `=${baseYear}+1`, (_c, prev) => `=${prev}${is.nextRow}+1`, { format: '0', style: HEADER })
  const revenue = is.chain('Revenue', () => `=${baseRevenue}*(1+${growth})`, (_c, prev) => `=${prev}${is.nextRow}*(1+${growth})`, { format: MONEY })
  const cogs = is.line('Cost of goods sold', (c) => `=${c}${revenue}*${cogsShare}`, { format: MONEY })
  const grossProfit = is.line('Gross profit', (c) => `=${c}${revenue}-${c}${cogs}`, { format: MONEY, style: TOTAL })
  const opex = is.line('Operating expenses', (c) => `=${c}${revenue}*${opexShare}`, { format: MONEY })
  const ebitda = is.line('EBITDA', (c) => `=${c}${grossProfit}-${c}${opex}`, { format: MONEY, style: TOTAL })
  const depreciation = is.chain('Depreciation', () => `=${openingPpe}*${depreciationRate}`, (_c, prev) => `=${bs.prefix}${prev}${BS_PPE}*${depreciationRate}`, { format: MONEY })
  const ebit = is.line('EBIT', (c) => `=${c}${ebitda}-${c}${depreciation}`, { format: MONEY })
  const interest = is.chain('Interest expense', () => `=${openingDebt}*${interestRate}`, (_c, prev) => `=${bs.prefix}${prev}${BS_DEBT}*${interestRate}`, { format: MONEY })
  const pretax = is.line('Profit before tax', (c) => `=${c}${ebit}-${c}${interest}`, { format: MONEY })
  const tax = is.line('Income tax', (c) => `=${c}${pretax}*${taxRate}`, { format: MONEY })
  const netIncome = is.line('Net income', (c) => `=${c}${pretax}-${c}${tax}`, { format: MONEY, style: HIGHLIGHT })

  bs.title('Balance Sheet (year end)')
  bs.note('Currency in thousands')
  bs.line('Fiscal year', (c) => `=${at(is, c, isYear)}`, { format: '0', style: HEADER })
  const cash = bs.line('Cash', (c) => `=${cf.prefix}${c}${CF_CLOSING}`, { format: MONEY })
  const receivables = bs.line('Accounts receivable', (c) => `=${at(is, c, revenue)}*${receivablesShare}`, { format: MONEY })
  const inventory = bs.line('Inventory', (c) => `=${at(is, c, cogs)}*${inventoryShare}`, { format: MONEY })
  const currentAssets = bs.line('Total current assets', (c) => `=SUM(${c}${cash}:${c}${inventory})`, { format: MONEY, style: TOTAL })
  const ppe = bs.chain(
    'Property, plant & equipment',
    (c) => `=${openingPpe}+${at(is, c, revenue)}*${capexShare}-${at(is, c, depreciation)}`,
    (c, prev) => `=${prev}${bs.nextRow}+${at(is, c, revenue)}*${capexShare}-${at(is, c, depreciation)}`,
    { format: MONEY },
  )
  const totalAssets = bs.line('Total assets', (c) => `=${c}${currentAssets}+${c}${ppe}`, { format: MONEY, style: TOTAL })
  const payables = bs.line('Accounts payable', (c) => `=${at(is, c, cogs)}*${payablesShare}`, { format: MONEY })
  const currentLiabilities = bs.line('Total current liabilities', (c) => `=${c}${payables}`, { format: MONEY })
  const debt = bs.chain('Debt', () => `=MAX(0,${openingDebt}-${repayment})`, (_c, prev) => `=MAX(0,${prev}${bs.nextRow}-${repayment})`, { format: MONEY })
  const liabilities = bs.line('Total liabilities', (c) => `=${c}${currentLiabilities}+${c}${debt}`, { format: MONEY })
  const equity = bs.chain(
    "Shareholders' equity",
    (c) => `=${openingEquity}+${at(is, c, netIncome)}*(1-${payout})`,
    (c, prev) => `=${prev}${bs.nextRow}+${at(is, c, netIncome)}*(1-${payout})`,
    { format: MONEY },
  )
  const liabilitiesAndEquity = bs.line('Total liabilities & equity', (c) => `=${c}${liabilities}+${c}${equity}`, { format: MONEY, style: TOTAL })
  // Rounded to a millionth of a unit so that floating-point dust shows as the 0 it is (and never as -0).
  const check = bs.line('Balance check', (c) => `=ROUND(${c}${totalAssets}-${c}${liabilitiesAndEquity},6)+0`, { format: MONEY, style: HIGHLIGHT })

  cf.title('Cash Flow Statement')
  cf.note('Currency in thousands')
  cf.line('Fiscal year', (c) => `=${at(is, c, isYear)}`, { format: '0', style: HEADER })
  const cfNetIncome = cf.line('Net income', (c) => `=${at(is, c, netIncome)}`, { format: MONEY })
  cf.line('Depreciation', (c) => `=${at(is, c, depreciation)}`, { format: MONEY })
  cf.chain('Decrease (increase) in receivables', (c) => `=${openingReceivables}-${at(bs, c, receivables)}`, (c, prev) => `=${at(bs, prev, receivables)}-${at(bs, c, receivables)}`, { format: MONEY })
  cf.chain('Decrease (increase) in inventory', (c) => `=${openingInventory}-${at(bs, c, inventory)}`, (c, prev) => `=${at(bs, prev, inventory)}-${at(bs, c, inventory)}`, { format: MONEY })
  const payablesChange = cf.chain('Increase (decrease) in payables', (c) => `=${at(bs, c, payables)}-${openingPayables}`, (c, prev) => `=${at(bs, c, payables)}-${at(bs, prev, payables)}`, { format: MONEY })
  const operatingCash = cf.line('Cash from operating activities', (c) => `=SUM(${c}${cfNetIncome}:${c}${payablesChange})`, { format: MONEY, style: TOTAL })
  const capex = cf.line('Capital expenditure', (c) => `=-${at(is, c, revenue)}*${capexShare}`, { format: MONEY })
  const investing = cf.line('Cash from investing activities', (c) => `=${c}${capex}`, { format: MONEY, style: TOTAL })
  const repaid = cf.chain('Debt repayment', (c) => `=${at(bs, c, debt)}-${openingDebt}`, (c, prev) => `=${at(bs, c, debt)}-${at(bs, prev, debt)}`, { format: MONEY })
  const dividends = cf.line('Dividends paid', (c) => `=-${at(is, c, netIncome)}*${payout}`, { format: MONEY })
  const financing = cf.line('Cash from financing activities', (c) => `=SUM(${c}${repaid}:${c}${dividends})`, { format: MONEY, style: TOTAL })
  const netChange = cf.line('Net change in cash', (c) => `=${c}${operatingCash}+${c}${investing}+${c}${financing}`, { format: MONEY })
  const opening = cf.chain('Opening cash', () => `=${openingCash}`, (_c, prev) => `=${prev}${CF_CLOSING}`, { format: MONEY })
  const closing = cf.line('Closing cash', (c) => `=${c}${opening}+${c}${netChange}`, { format: MONEY, style: HIGHLIGHT })
  if (ppe !== BS_PPE || debt !== BS_DEBT || closing !== CF_CLOSING) throw new Error('The three-statement rows moved')

  const last = is.lastColumn
  return {
    id: 'three-statement-model',
    name: 'Three Statement Financial Model',
    description:
      'Linked income statement, balance sheet and cash flow statement: working capital, capital expenditure, depreciation, debt repayment and dividends flow through to closing cash, and the balance sheet balances every year.',
    category: 'Financial Reporting',
    difficulty: 'Intermediate',
    tags: ['Financial Statements', 'Forecasting', 'Reporting'],
    sheets: [a.build(), is.build(), bs.build(), cf.build()],
    inputSheet: 'Assumptions',
    keyOutputs: [
      { label: 'Net income, final year', sheet: 'Income Statement', address: `${last}${netIncome}` },
      { label: 'Closing cash, final year', sheet: 'Cash Flow', address: `${last}${closing}` },
      { label: "Shareholders' equity, final year", sheet: 'Balance Sheet', address: `${last}${equity}` },
      { label: 'Balance check', sheet: 'Balance Sheet', address: bs.span(check) },
      { label: 'Cash on the balance sheet', sheet: 'Balance Sheet', address: bs.span(cash) },
      { label: 'Closing cash', sheet: 'Cash Flow', address: cf.span(closing) },
    ],
  }
}

export const threeStatementBuilder: FinancialModelBuilder = {
  type: 'three-statement',
  name: 'Three Statement Model',
  parameters: THREE_STATEMENT_PARAMETERS,
  build: buildThreeStatementModel,
}
