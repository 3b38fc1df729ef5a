import { COMMON_PARAMETERS, ModelParameterError, baseYearParameter, type ModelParameter, type ResolvedParameters } from '../parameters.js'
import { SheetBuilder, at, text } from '../model-builder.js'
import type { FinancialModelBuilder, ModelRequest } from '../model-types.js'
import type { TemplateDefinition } from '../template.js'
import { DECIMAL_1, HEADER, HIGHLIGHT, INPUT, MONEY, MONEY_2, MULTIPLE, PERCENT, TOTAL } from './styles.js'

export const DCF_PARAMETERS: readonly ModelParameter[] = [
  ...COMMON_PARAMETERS,
  baseYearParameter(),
  { name: 'baseRevenue', description: 'Revenue of the last actual year, in millions', kind: 'number', default: 1000, min: 0.001, max: 1e9 },
  { name: 'revenueGrowthRate', description: 'Revenue growth a year, in percent (volume and price together)', kind: 'percent', default: 8, min: -50, max: 100 },
  { name: 'priceIncrease', description: 'The part of revenue growth that comes from price, in percent a year', kind: 'percent', default: 2, min: -20, max: 50 },
  { name: 'grossMargin', description: 'Gross margin, in percent of revenue', kind: 'percent', default: 60, min: 0, max: 100 },
  { name: 'operatingExpenses', description: 'Operating expenses (SG&A, R&D), in percent of revenue', kind: 'percent', default: 35, min: 0, max: 100 },
  { name: 'depreciation', description: 'Depreciation and amortisation, in percent of revenue', kind: 'percent', default: 4, min: 0, max: 50 },
  { name: 'capex', description: 'Capital expenditure, in percent of revenue', kind: 'percent', default: 5, min: 0, max: 50 },
  { name: 'workingCapital', description: 'Net working capital, in percent of revenue', kind: 'percent', default: 10, min: -50, max: 100 },
  { name: 'taxRate', description: 'Tax rate on operating profit, in percent', kind: 'percent', default: 25, min: 0, max: 60 },
  { name: 'riskFreeRate', description: 'Risk-free rate, in percent', kind: 'percent', default: 4, min: 0, max: 20 },
  { name: 'beta', description: 'Equity beta', kind: 'number', default: 1.1, min: 0, max: 5 },
  { name: 'equityRiskPremium', description: 'Equity risk premium, in percent', kind: 'percent', default: 5.5, min: 0, max: 20 },
  { name: 'costOfDebt', description: 'Pre-tax cost of debt, in percent', kind: 'percent', default: 6, min: 0, max: 30 },
  { name: 'debtWeight', description: 'Target debt as a percent of total capital', kind: 'percent', default: 30, min: 0, max: 90 },
  {
    name: 'discountRate',
    description: 'The WACC to value at, in percent: the equity risk premium is set so that the WACC built from its parts comes to it',
    kind: 'percent',
    default: null,
    min: 1,
    max: 40,
  },
  {
    name: 'ebitdaMargin',
    description: 'EBITDA margin, in percent of revenue: operating expenses are set to the gross margin less it',
    kind: 'percent',
    default: null,
    min: -50,
    max: 100,
  },
  { name: 'exitMultiple', description: 'Exit EV/EBITDA multiple for the terminal value', kind: 'number', default: 10, min: 0.5, max: 100 },
  { name: 'terminalValueMethod', description: 'The terminal value the equity bridge uses: 1 Gordon growth, 2 exit multiple', kind: 'integer', default: 1, min: 1, max: 2 },
  { name: 'midYearConvention', description: 'Discount cash flows from the middle of each year', kind: 'flag', default: 1, min: 0, max: 1 },
  { name: 'debt', description: 'Total debt at the valuation date, in millions', kind: 'number', default: 450, min: 0, max: 1e9 },
  { name: 'cash', description: 'Cash and equivalents at the valuation date, in millions', kind: 'number', default: 150, min: 0, max: 1e9 },
  { name: 'sharesOutstanding', description: 'Diluted shares outstanding, in millions', kind: 'number', default: 100, min: 0.001, max: 1e9 },
]

/** The cost of capital the parameters imply, as the Valuation sheet works it out. */
export function dcfWacc(p: ResolvedParameters): number {
  const costOfEquity = p.riskFreeRate + p.beta * p.equityRiskPremium
  return costOfEquity * (1 - p.debtWeight) + p.costOfDebt * (1 - p.taxRate) * p.debtWeight
}

/**
 * Unlevered free cash flow over 1 to 20 years, built from volume and price, margins, D&A, capital
 * expenditure and working capital; discounted at a WACC built from its parts, with the terminal
 * value by Gordon growth and by exit multiple, a mid-year switch, the bridge from enterprise value
 * to value per share, and a WACC × terminal growth grid of values per share worked out from the
 * free cash flow row.
 */
export function buildDcfModel({ company, parameters }: ModelRequest): TemplateDefinition {
  const p = withShortcuts(parameters)
  const years = p.projectionYears
  const wacc = dcfWacc(p)
  if (p.terminalGrowthRate >= wacc - 0.0005) {
    throw new ModelParameterError('terminalGrowthRate', `terminalGrowthRate (${pct(p.terminalGrowthRate)}) must be below the WACC the other parameters give (${pct(wacc)})`)
  }

  // ---- Assumptions: every input, in blue ----
  const inputs = new SheetBuilder('Assumptions', years)
  inputs.title(text(`${company} — DCF Model`))
  inputs.note('Currency in millions. Blue cells are inputs; every other number is a formula.')
  inputs.header(['General', 'Value'])
  inputs.input('Company', text(company), '@')
  const baseYear = inputs.input('Last actual fiscal year', p.baseYear, '0')
  const baseRevenue = inputs.input('Revenue in the last actual year', p.baseRevenue, MONEY)
  const baseWorkingCapital = inputs.input('Net working capital at the end of the last actual year', p.baseRevenue * p.workingCapital, MONEY)
  inputs.blank()
  inputs.header(['Cost of capital', 'Value'])
  const riskFree = inputs.input('Risk-free rate', p.riskFreeRate, PERCENT)
  const beta = inputs.input('Equity beta', p.beta, '0.00')
  const premium = inputs.input('Equity risk premium', p.equityRiskPremium, PERCENT)
  const costOfDebt = inputs.input('Pre-tax cost of debt', p.costOfDebt, PERCENT)
  const taxRate = inputs.input('Tax rate', p.taxRate, PERCENT)
  const debtWeight = inputs.input('Target debt / total capital', p.debtWeight, PERCENT)
  inputs.blank()
  inputs.header(['Terminal value and equity bridge', 'Value'])
  const growth = inputs.input('Terminal growth rate', p.terminalGrowthRate, PERCENT)
  const multiple = inputs.input('Exit EV/EBITDA multiple', p.exitMultiple, MULTIPLE)
  const method = inputs.input('Value on the exit multiple (1 = yes, 0 = Gordon growth)', p.terminalValueMethod === 2 ? 1 : 0, '0')
  // The switch holds the part of a year by which cash flows come early: half a year, or none.
  const midYear = inputs.input('Mid-year convention (0.5 = on, 0 = off)', p.midYearConvention / 2, '0.0')
  const debt = inputs.input('Total debt', p.debt, MONEY)
  const cash = inputs.input('Cash and equivalents', p.cash, MONEY)
  const shares = inputs.input('Diluted shares outstanding (millions)', p.sharesOutstanding, DECIMAL_1)
  const waccStep = inputs.input('Sensitivity step: WACC', 0.01, PERCENT)
  const growthStep = inputs.input('Sensitivity step: terminal growth', 0.005, PERCENT)
  inputs.blank()
  const yearRow = inputs.chain('Projection assumptions', () => `=${baseYear}+1`, (_c, prev) => `=${prev}${inputs.nextRow}+1`, { format: '0', style: HEADER })
  const perYear = (label: string, value: number) => inputs.line(label, () => value, { format: PERCENT })
  const growthRow = perYear('Revenue growth', p.revenueGrowthRate)
  const priceRow = perYear('Price increase', p.priceIncrease)
  const grossMarginRow = perYear('Gross margin', p.grossMargin)
  const opexRow = perYear('Operating expenses (% of revenue)', p.operatingExpenses)
  const daRow = perYear('Depreciation & amortisation (% of revenue)', p.depreciation)
  const capexRow = perYear('Capital expenditure (% of revenue)', p.capex)
  const nwcRow = perYear('Net working capital (% of revenue)', p.workingCapital)
  inputs.style(`B${growthRow}:${inputs.lastColumn}${nwcRow}`, INPUT)
  const input = (row: number, column: string) => `Assumptions!${column}${row}`

  // ---- Revenue ----
  const revenue = new SheetBuilder('Revenue', years)
  revenue.title('Revenue Build')
  revenue.note('Currency in millions; indices are 1.00 in the last actual year')
  const revenueYear = revenue.line('Fiscal year', (c) => `=${input(yearRow, c)}`, { format: '0', style: HEADER })
  // Growth splits into price and volume: (1 + growth) = (1 + price increase) × (1 + volume growth).
  const volumeGrowth = revenue.line('Volume growth', (c) => `=(1+${input(growthRow, c)})/(1+${input(priceRow, c)})-1`, { format: PERCENT })
  const volumeIndex = revenue.chain('Volume index', (c) => `=1+${c}${volumeGrowth}`, (c, prev) => `=${prev}${revenue.nextRow}*(1+${c}${volumeGrowth})`, { format: '0.000' })
  const priceIndex = revenue.chain('Price index', (c) => `=1+${input(priceRow, c)}`, (c, prev) => `=${prev}${revenue.nextRow}*(1+${input(priceRow, c)})`, { format: '0.000' })
  const revenueRow = revenue.line('Revenue', (c) => `=${baseRevenue}*${c}${volumeIndex}*${c}${priceIndex}`, { format: MONEY, style: TOTAL })
  revenue.chain('Revenue growth', (c) => `=${c}${revenueRow}/${baseRevenue}-1`, (c, prev) => `=${c}${revenueRow}/${prev}${revenueRow}-1`, { format: PERCENT })

  // ---- Operating ----
  const operating = new SheetBuilder('Operating', years)
  operating.title('Operating Model')
  operating.note('Currency in millions')
  const operatingYear = operating.line('Fiscal year', (c) => `=${at(revenue, c, revenueYear)}`, { format: '0', style: HEADER })
  const sales = operating.line('Revenue', (c) => `=${at(revenue, c, revenueRow)}`, { format: MONEY })
  const cogs = operating.line('Cost of goods sold', (c) => `=${c}${sales}*(1-${input(grossMarginRow, c)})`, { format: MONEY })
  const grossProfit = operating.line('Gross profit', (c) => `=${c}${sales}-${c}${cogs}`, { format: MONEY, style: TOTAL })
  operating.line('Gross margin', (c) => `=${c}${grossProfit}/${c}${sales}`, { format: PERCENT })
  const opex = operating.line('Operating expenses', (c) => `=${c}${sales}*${input(opexRow, c)}`, { format: MONEY })
  const ebitda = operating.line('EBITDA', (c) => `=${c}${grossProfit}-${c}${opex}`, { format: MONEY, style: TOTAL })
  operating.line('EBITDA margin', (c) => `=${c}${ebitda}/${c}${sales}`, { format: PERCENT })
  const da = operating.line('Depreciation & amortisation', (c) => `=${c}${sales}*${input(daRow, c)}`, { format: MONEY })
  const ebit = operating.line('EBIT', (c) => `=${c}${ebitda}-${c}${da}`, { format: MONEY, style: TOTAL })
  operating.line('EBIT margin', (c) => `=${c}${ebit}/${c}${sales}`, { format: PERCENT })

  // ---- FCF ----
  const fcf = new SheetBuilder('FCF', years)
  fcf.title('Unlevered Free Cash Flow')
  fcf.note('Currency in millions')
  const fcfYear = fcf.line('Fiscal year', (c) => `=${at(operating, c, operatingYear)}`, { format: '0', style: HEADER })
  const fcfEbit = fcf.line('EBIT', (c) => `=${at(operating, c, ebit)}`, { format: MONEY })
  const taxes = fcf.line('Less: taxes on EBIT', (c) => `=MAX(0,${c}${fcfEbit}*${taxRate})`, { format: MONEY })
  const nopat = fcf.line('NOPAT', (c) => `=${c}${fcfEbit}-${c}${taxes}`, { format: MONEY, style: TOTAL })
  const addBack = fcf.line('Plus: depreciation & amortisation', (c) => `=${at(operating, c, da)}`, { format: MONEY })
  const capexLine = fcf.line('Less: capital expenditure', (c) => `=${at(operating, c, sales)}*${input(capexRow, c)}`, { format: MONEY })
  const workingCapital = fcf.line('Net working capital', (c) => `=${at(operating, c, sales)}*${input(nwcRow, c)}`, { format: MONEY })
  const nwcIncrease = fcf.chain('Less: increase in net working capital', (c) => `=${c}${workingCapital}-${baseWorkingCapital}`, (c, prev) => `=${c}${workingCapital}-${prev}${workingCapital}`, {
    format: MONEY,
  })
  const freeCashFlow = fcf.line('Unlevered free cash flow', (c) => `=${c}${nopat}+${c}${addBack}-${c}${capexLine}-${c}${nwcIncrease}`, { format: MONEY, style: HIGHLIGHT })
  const period = fcf.line('Discount period (years)', (c) => `=${c}${fcfYear}-${baseYear}-${midYear}`, { format: '0.0' })
  // The Valuation sheet's WACC row is fixed below (row 8); checked after it is built.
  const WACC_ROW = 8
  const factor = fcf.line('Discount factor', (c) => `=1/(1+Valuation!$B$${WACC_ROW})^${c}${period}`, { format: '0.0000' })
  const presentValue = fcf.line('Present value of free cash flow', (c) => `=${c}${freeCashFlow}*${c}${factor}`, { format: MONEY, style: TOTAL })

  // ---- Valuation ----
  const last = fcf.lastColumn
  const valuation = new SheetBuilder('Valuation', 5, 2)
  valuation.title('Valuation')
  valuation.note('Currency in millions, except per-share values')
  valuation.header(['Cost of capital (WACC)', 'Value'])
  const costOfEquity = valuation.cells(['Cost of equity (CAPM)', `=${riskFree}+${beta}*${premium}`], { format: PERCENT })
  const afterTaxDebt = valuation.cells(['After-tax cost of debt', `=${costOfDebt}*(1-${taxRate})`], { format: PERCENT })
  const equityWeight = valuation.cells(['Weight of equity', `=1-${debtWeight}`], { format: PERCENT })
  const debtShare = valuation.cells(['Weight of debt', `=${debtWeight}`], { format: PERCENT })
  const waccRow = valuation.cells(['WACC', `=B${costOfEquity}*B${equityWeight}+B${afterTaxDebt}*B${debtShare}`], { format: PERCENT, style: HIGHLIGHT })
  if (waccRow !== WACC_ROW) throw new Error(`The DCF's WACC moved to row ${waccRow}`)
  valuation.blank()
  valuation.header(['Enterprise value', 'Gordon growth', 'Exit multiple'])
  const sumPv = valuation.cells(['Sum of present values of free cash flow', `=SUM(${fcf.prefix}${fcf.span(presentValue)})`, `=SUM(${fcf.prefix}${fcf.span(presentValue)})`], { format: MONEY })
  const finalFlow = valuation.cells(['Final-year free cash flow (Gordon) and EBITDA (exit)', `=${at(fcf, last, freeCashFlow)}`, `=${at(operating, last, ebitda)}`], { format: MONEY })
  const terminal = valuation.cells(['Terminal value', `=B${finalFlow}*(1+${growth})/(B${waccRow}-${growth})`, `=C${finalFlow}*${multiple}`], { format: MONEY })
  // A Gordon value stands for flows arriving like the final year's (mid-year when the switch is on);
  // an exit multiple prices the business at the end of the final year.
  const terminalFactor = valuation.cells(['Discount factor for terminal value', `=${at(fcf, last, factor)}`, `=1/(1+B${waccRow})^(${at(fcf, last, fcfYear)}-${baseYear})`], { format: '0.0000' })
  const terminalPv = valuation.cells(['Present value of terminal value', `=B${terminal}*B${terminalFactor}`, `=C${terminal}*C${terminalFactor}`], { format: MONEY })
  const enterprise = valuation.cells(['Enterprise value', `=B${sumPv}+B${terminalPv}`, `=C${sumPv}+C${terminalPv}`], { format: MONEY, style: HIGHLIGHT })
  valuation.cells(['Terminal value as % of enterprise value', `=B${terminalPv}/B${enterprise}`, `=C${terminalPv}/C${enterprise}`], { format: PERCENT })
  valuation.cells(['Implied EV/EBITDA exit multiple', `=B${terminal}/${at(operating, last, ebitda)}`, `=${multiple}`], { format: MULTIPLE })
  valuation.cells(['Implied perpetual growth rate', `=${growth}`, `=(C${terminal}*B${waccRow}-${at(fcf, last, freeCashFlow)})/(C${terminal}+${at(fcf, last, freeCashFlow)})`], { format: PERCENT })
  valuation.blank()
  valuation.header(['Equity value', 'Value'])
  valuation.cells(['Terminal value method used', `=IF(${method}=1,"Exit multiple","Gordon growth")`])
  const usedEnterprise = valuation.cells(['Enterprise value', `=IF(${method}=1,C${enterprise},B${enterprise})`], { format: MONEY, style: TOTAL })
  const lessDebt = valuation.cells(['Less: total debt', `=${debt}`], { format: MONEY })
  const plusCash = valuation.cells(['Plus: cash and equivalents', `=${cash}`], { format: MONEY })
  const equity = valuation.cells(['Equity value', `=B${usedEnterprise}-B${lessDebt}+B${plusCash}`], { format: MONEY, style: TOTAL })
  const shareCount = valuation.cells(['Diluted shares outstanding (millions)', `=${shares}`], { format: DECIMAL_1 })
  const perShare = valuation.cells(['Value per share', `=B${equity}/B${shareCount}`], { format: MONEY_2, style: HIGHLIGHT })
  valuation.blank()

  // WACC down column B, terminal growth across D:H (C left empty, so that neither axis reads as a row of
  // the grid's figures); each axis steps out from the base case, and each cell values the FCF row afresh.
  valuation.header(['Value per share (Gordon growth): WACC down, terminal growth across'], 7)
  const GRID_COLUMNS = ['D', 'E', 'F', 'G', 'H']
  const steps = [-2, -1, 0, 1, 2]
  const axisRow = valuation.nextRow
  const stepFrom = (centre: string, step: string, index: number, at: (i: number) => string) =>
    index === 2 ? `=${centre}` : index < 2 ? `=${at(index + 1)}-${step}` : `=${at(index - 1)}+${step}`
  valuation.cells(['Terminal growth →', '', '', ...steps.map((_s, index) => stepFrom(growth, growthStep, index, (i) => `${GRID_COLUMNS[i]}${axisRow}`))], { format: PERCENT, style: HEADER })
  const flows = `${fcf.prefix}$${fcf.firstColumn}$${freeCashFlow}:$${last}$${freeCashFlow}`
  const periods = `${fcf.prefix}$${fcf.firstColumn}$${period}:$${last}$${period}`
  const finalPeriod = `${fcf.prefix}$${last}$${period}`
  const finalCash = `${fcf.prefix}$${last}$${freeCashFlow}`
  const gridTop = valuation.nextRow
  for (const [index] of steps.entries()) {
    const row = valuation.nextRow
    const w = `$B${row}`
    valuation.cells([
      index === 2 ? 'WACC (base case)' : 'WACC',
      stepFrom(`$B$${waccRow}`, waccStep, index, (i) => `B${gridTop + i}`),
      '',
      ...GRID_COLUMNS.map((column) => {
        const g = `${column}$${axisRow}`
        return `=IF(${w}<=${g},"n/a",(SUMPRODUCT(${flows}/(1+${w})^${periods})+${finalCash}*(1+${g})/(${w}-${g})/(1+${w})^${finalPeriod}-$B$${lessDebt}+$B$${plusCash})/$B$${shareCount})`
      }),
    ])
  }
  const gridBottom = gridTop + steps.length - 1
  valuation.format(`B${gridTop}:B${gridBottom}`, PERCENT)
  valuation.format(`D${gridTop}:H${gridBottom}`, MONEY_2)
  valuation.style(`D${gridTop + 2}:H${gridTop + 2}`, { bold: true })
  valuation.columnWidths['1'] = 130

  return {
    id: 'dcf-model',
    name: 'DCF Model',
    description:
      'Discounted cash flow valuation: unlevered free cash flow built from volume, price, margins and reinvestment, discounted at a WACC built from its parts, with terminal values by Gordon growth and by exit multiple, a mid-year switch, the bridge to value per share and a WACC × terminal growth sensitivity grid.',
    category: 'Valuation',
    difficulty: 'Advanced',
    tags: ['Valuation', 'Investment', 'Cash Flow'],
    sheets: [inputs.build(), revenue.build(), operating.build(), fcf.build(), valuation.build()],
    inputSheet: 'Assumptions',
    keyOutputs: [
      { label: 'WACC', sheet: 'Valuation', address: `B${waccRow}` },
      { label: 'Enterprise value (Gordon growth)', sheet: 'Valuation', address: `B${enterprise}` },
      { label: 'Enterprise value (exit multiple)', sheet: 'Valuation', address: `C${enterprise}` },
      { label: 'Enterprise value', sheet: 'Valuation', address: `B${usedEnterprise}` },
      { label: 'Equity value', sheet: 'Valuation', address: `B${equity}` },
      { label: 'Value per share', sheet: 'Valuation', address: `B${perShare}` },
      { label: 'Sensitivity grid', sheet: 'Valuation', address: `D${gridTop}:H${gridBottom}` },
    ],
  }
}

/**
 * The parameters with a discount rate or an EBITDA margin, when sent, turned into the inputs the model
 * is built from (the equity risk premium, operating expenses), so that the structure stays the same.
 */
function withShortcuts(sent: ResolvedParameters): ResolvedParameters {
  const p = { ...sent }
  if (p.discountRate !== undefined) {
    const debtPart = p.costOfDebt * (1 - p.taxRate) * p.debtWeight
    const premium = p.beta > 0 && p.debtWeight < 1 ? ((p.discountRate - debtPart) / (1 - p.debtWeight) - p.riskFreeRate) / p.beta : NaN
    if (!(premium >= 0 && premium <= 0.3)) {
      throw new ModelParameterError('discountRate', `discountRate ${pct(p.discountRate)} cannot come from the cost of debt, risk-free rate, beta and debt weight given (it would need an equity risk premium of ${Number.isFinite(premium) ? pct(premium) : 'no value'})`)
    }
    p.equityRiskPremium = premium
  }
  if (p.ebitdaMargin !== undefined) {
    if (p.ebitdaMargin > p.grossMargin) throw new ModelParameterError('ebitdaMargin', `ebitdaMargin ${pct(p.ebitdaMargin)} cannot exceed the gross margin (${pct(p.grossMargin)})`)
    p.operatingExpenses = p.grossMargin - p.ebitdaMargin
  }
  return p
}

const pct = (value: number) => `${(value * 100).toFixed(2)}%`

export const dcfBuilder: FinancialModelBuilder = {
  type: 'dcf',
  name: 'DCF Model',
  parameters: DCF_PARAMETERS,
  build: buildDcfModel,
}
