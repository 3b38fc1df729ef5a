/**
 * Each built-in template, created as a workbook through the API, against its key outputs worked out
 * here in plain TypeScript from the same inputs — and again after an input changes, which only a model
 * whose outputs are formulas of its inputs can pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, type Call } from './testing/client.js'
import { startTestApp, type TestApp } from './testing/test-app.js'

let t: TestApp
let call: Call

beforeAll(async () => {
  t = await startTestApp()
  call = clientFor(t.app, await t.tokenFor('analyst'))
})
afterAll(async () => {
  await t.close()
})

async function createFrom(templateId: string): Promise<string> {
  const created = await call('POST', '/workbooks', { templateId })
  expect(created.status).toBe(201)
  expect(created.json.workbook.templateId).toBe(templateId)
  return created.json.workbookId
}

async function value(id: string, sheet: string, address: string): Promise<unknown> {
  const answer = await call('GET', `/workbook/${id}/cells?sheet=${encodeURIComponent(sheet)}`)
  return answer.json.workbook.sheets[0].cells[address]?.value
}

async function setInput(id: string, sheet: string, address: string, input: number) {
  const answer = await call('POST', '/update-cell', { workbookId: id, sheetName: sheet, cellAddress: address, value: input })
  expect(answer.status).toBe(200)
}

const years = [1, 2, 3, 4, 5]
const close = (actual: unknown, expected: number) => expect(actual as number).toBeCloseTo(expected, 6)

// ---- DCF --------------------------------------------------------------------------------------------

interface DcfInputs {
  revenue: number
  growth: number
  margin: number
  depreciation: number
  capex: number
  workingCapital: number
  tax: number
  wacc: number
  terminalGrowth: number
  netDebt: number
  shares: number
}

function dcf(inputs: DcfInputs) {
  let previous = inputs.revenue
  let presentValue = 0
  let lastCashFlow = 0
  for (const year of years) {
    const revenue = previous * (1 + inputs.growth)
    const depreciation = revenue * inputs.depreciation
    const ebit = revenue * inputs.margin - depreciation
    const cashFlow = ebit * (1 - inputs.tax) + depreciation - revenue * inputs.capex - (revenue - previous) * inputs.workingCapital
    presentValue += cashFlow / (1 + inputs.wacc) ** year
    lastCashFlow = cashFlow
    previous = revenue
  }
  const terminal = (lastCashFlow * (1 + inputs.terminalGrowth)) / (inputs.wacc - inputs.terminalGrowth)
  const enterpriseValue = presentValue + terminal / (1 + inputs.wacc) ** 5
  const equityValue = enterpriseValue - inputs.netDebt
  return { enterpriseValue, equityValue, perShare: equityValue / inputs.shares }
}

// ---- three statements -----------------------------------------------------------------------------

function threeStatements(growth: number) {
  const a = { revenue: 5000, growth, cogs: 0.4, opex: 0.3, depreciation: 0.1, interest: 0.06, tax: 0.25, receivables: 0.12, inventory: 0.15, payables: 0.1, capex: 0.06, payout: 0.3, repayment: 200 }
  let revenue = a.revenue
  let cash = 1000
  let receivables = 600
  let inventory = 300
  let ppe = 4000
  let payables = 200
  let debt = 2000
  let equity = cash + receivables + inventory + ppe - payables - debt
  let netIncome = 0
  for (let year = 1; year <= 5; year++) {
    revenue *= 1 + a.growth
    const cogs = revenue * a.cogs
    const depreciation = ppe * a.depreciation
    const interest = debt * a.interest
    const pretax = revenue - cogs - revenue * a.opex - depreciation - interest
    netIncome = pretax * (1 - a.tax)
    const capex = revenue * a.capex
    const newReceivables = revenue * a.receivables
    const newInventory = cogs * a.inventory
    const newPayables = cogs * a.payables
    const newDebt = Math.max(0, debt - a.repayment)
    cash += netIncome + depreciation - (newReceivables - receivables) - (newInventory - inventory) + (newPayables - payables) - capex + (newDebt - debt) - netIncome * a.payout
    ppe += capex - depreciation
    equity += netIncome * (1 - a.payout)
    ;[receivables, inventory, payables, debt] = [newReceivables, newInventory, newPayables, newDebt]
  }
  const assets = cash + receivables + inventory + ppe
  return { netIncome, cash, equity, check: assets - (payables + debt + equity) }
}

// ---- startup -----------------------------------------------------------------------------------------

function startup(revenuePerCustomer: number) {
  const a = { cash: 500_000, funding: 3_000_000, customers: 100, newCustomers: 400, acquisitionGrowth: 0.6, churn: 0.15, margin: 0.75, headcount: 8, hiring: 0.35, salary: 90_000, cac: 800, other: 120_000 }
  let customers = a.customers
  let newCustomers = a.newCustomers
  let cash = a.cash
  let revenue = 0
  let lowest = Infinity
  let firstProfitable: number | string = 'Not within 5 years'
  for (const year of years) {
    if (year > 1) newCustomers = Math.round(newCustomers * (1 + a.acquisitionGrowth))
    const ending = customers + newCustomers - Math.round(customers * a.churn)
    revenue = ((customers + ending) / 2) * revenuePerCustomer
    const headcount = Math.round(a.headcount * (1 + a.hiring) ** (year - 1))
    const ebitda = revenue * a.margin - (headcount * a.salary + newCustomers * a.cac + a.other)
    if (ebitda > 0 && typeof firstProfitable === 'string') firstProfitable = year
    cash += ebitda + (year === 1 ? a.funding : 0)
    lowest = Math.min(lowest, cash)
    customers = ending
  }
  return { revenue, cash, lowest, firstProfitable }
}

// ---- SaaS --------------------------------------------------------------------------------------------

function saas(churnRate: number) {
  let mrr = 50_000
  let customers = 250
  let closing = { mrr, customers, arpa: 0, cac: 0, ltv: 0 }
  for (let month = 1; month <= 5; month++) {
    mrr = mrr + 8000 + 2000 - mrr * 0.02
    customers = customers + 40 - Math.round(customers * churnRate)
    const arpa = mrr / customers
    const cac = 60_000 / 40
    closing = { mrr, customers, arpa, cac, ltv: (arpa * 0.8) / churnRate }
  }
  return { arr: closing.mrr * 12, ltvToCac: closing.ltv / closing.cac, payback: closing.cac / (closing.arpa * 0.8), customers: closing.customers }
}

// ---- real estate --------------------------------------------------------------------------------------

/** The rate at which the cash flows' present value is zero, by bisection. */
function internalRate(flows: number[]): number {
  let low = -0.99
  let high = 1
  const npv = (rate: number) => flows.reduce((sum, flow, year) => sum + flow / (1 + rate) ** year, 0)
  for (let i = 0; i < 200; i++) {
    const middle = (low + high) / 2
    if (npv(middle) > 0) low = middle
    else high = middle
  }
  return (low + high) / 2
}

function realEstate(price: number) {
  const a = { closing: 0.03, down: 0.25, rate: 0.065, term: 30, rent: 96_000, vacancy: 0.05, expenses: 0.35, rentGrowth: 0.03, appreciation: 0.04, selling: 0.06 }
  const loan = price * (1 - a.down)
  const equity = price * a.down + price * a.closing
  const r = a.rate / 12
  const n = a.term * 12
  const payment = (loan * r) / (1 - (1 + r) ** -n)
  const balanceAfter = (months: number) => {
    let balance = loan
    for (let m = 0; m < months; m++) balance = balance * (1 + r) - payment
    return balance
  }
  const flows = [-equity]
  let rent = a.rent
  let firstNoi = 0
  for (const year of years) {
    if (year > 1) rent *= 1 + a.rentGrowth
    const effective = rent * (1 - a.vacancy)
    const noi = effective * (1 - a.expenses)
    if (year === 1) firstNoi = noi
    flows.push(noi - payment * 12)
  }
  const sale = price * (1 + a.appreciation) ** 5
  const proceeds = sale * (1 - a.selling) - balanceAfter(60)
  flows[5] += proceeds
  const multiple = flows.slice(1).reduce((sum, flow) => sum + flow, 0) / equity
  return { payment, firstNoi, proceeds, multiple, irr: internalRate(flows) }
}

describe('built-in templates compute what their inputs imply', () => {
  it('DCF Model: enterprise value, equity value and value per share', async () => {
    const id = await createFrom('dcf-model')
    const inputs: DcfInputs = { revenue: 1000, growth: 0.08, margin: 0.25, depreciation: 0.04, capex: 0.05, workingCapital: 0.1, tax: 0.25, wacc: 0.09, terminalGrowth: 0.025, netDebt: 300, shares: 100 }
    let expected = dcf(inputs)
    close(await value(id, 'Valuation', 'B19'), expected.enterpriseValue)
    close(await value(id, 'Valuation', 'B21'), expected.equityValue)
    close(await value(id, 'Valuation', 'B23'), expected.perShare)
    await setInput(id, 'Assumptions', 'B11', 0.1)
    await setInput(id, 'Assumptions', 'B5', 0.12)
    expected = dcf({ ...inputs, wacc: 0.1, growth: 0.12 })
    close(await value(id, 'Valuation', 'B19'), expected.enterpriseValue)
    close(await value(id, 'Valuation', 'B23'), expected.perShare)
    expect((await call('GET', `/workbooks/${id}`)).json.workbook).toMatchObject({ name: 'DCF Model', sheets: ['Assumptions', 'Valuation'] })
  })

  it('Three Statement Financial Model: net income, closing cash and equity, with a balance sheet that balances', async () => {
    const id = await createFrom('three-statement-model')
    let expected = threeStatements(0.1)
    close(await value(id, 'Income Statement', 'F14'), expected.netIncome)
    close(await value(id, 'Cash Flow', 'F17'), expected.cash)
    close(await value(id, 'Balance Sheet', 'F14'), expected.equity)
    expect(Math.abs(expected.check)).toBeLessThan(1e-6)
    for (const column of ['B', 'C', 'D', 'E', 'F']) expect(await value(id, 'Balance Sheet', `${column}16`)).toBe(0)
    await setInput(id, 'Assumptions', 'B5', 0.25)
    expected = threeStatements(0.25)
    close(await value(id, 'Cash Flow', 'F17'), expected.cash)
    expect(await value(id, 'Balance Sheet', 'F16')).toBe(0)
  })

  it('Startup Financial Model: revenue, cash, lowest cash and the first profitable year', async () => {
    const id = await createFrom('startup-financial-model')
    let expected = startup(2400)
    close(await value(id, 'Projections', 'B22'), expected.revenue)
    close(await value(id, 'Projections', 'F18'), expected.cash)
    close(await value(id, 'Projections', 'B23'), expected.lowest)
    expect(await value(id, 'Projections', 'B21')).toBe(expected.firstProfitable)
    await setInput(id, 'Assumptions', 'B9', 1200)
    expected = startup(1200)
    close(await value(id, 'Projections', 'F18'), expected.cash)
    expect(await value(id, 'Projections', 'B21')).toBe(expected.firstProfitable)
  })

  it('SaaS Metrics Dashboard: ARR, LTV to CAC, CAC payback and customers', async () => {
    const id = await createFrom('saas-metrics-dashboard')
    let expected = saas(0.03)
    close(await value(id, 'Dashboard', 'F19'), expected.arr)
    close(await value(id, 'Dashboard', 'F29'), expected.ltvToCac)
    close(await value(id, 'Dashboard', 'F30'), expected.payback)
    expect(await value(id, 'Dashboard', 'F25')).toBe(expected.customers)
    await setInput(id, 'Dashboard', 'B9', 0.05)
    expected = saas(0.05)
    close(await value(id, 'Dashboard', 'F29'), expected.ltvToCac)
    expect(await value(id, 'Dashboard', 'F25')).toBe(expected.customers)
  })

  it('Real Estate Investment Analysis: payment, NOI, sale proceeds, equity multiple and IRR', async () => {
    const id = await createFrom('real-estate-investment-analysis')
    let expected = realEstate(1_000_000)
    close(await value(id, 'Analysis', 'B5'), expected.payment)
    close(await value(id, 'Analysis', 'B13'), expected.firstNoi)
    close(await value(id, 'Analysis', 'B26'), expected.proceeds)
    close(await value(id, 'Analysis', 'B37'), expected.multiple)
    close(await value(id, 'Analysis', 'B38'), expected.irr)
    await setInput(id, 'Inputs', 'B3', 800_000)
    expected = realEstate(800_000)
    close(await value(id, 'Analysis', 'B38'), expected.irr)
    close(await value(id, 'Analysis', 'B26'), expected.proceeds)
  })
})
