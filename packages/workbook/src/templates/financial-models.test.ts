/**
 * Each generated model type, built and calculated by the engine, against its outputs worked out here
 * independently in plain TypeScript from the same inputs; again after an input cell changes (which
 * only a model whose outputs are formulas of its inputs can pass); at 1, 5 and 20 projection years.
 * Also: no generated cell is an error, every typed number is an input on the input sheet styled as
 * one, the company name stays text, and bad parameters are refused by name.
 */
import { describe, expect, it } from 'vitest'
import { FINANCIAL_MODEL_TYPES, type FinancialModelType } from '@finsheet/contracts'
import { formatAddress, isCellError, parseCellInput, type Engine } from '@finsheet/formula'
import { INPUT } from './builtin/styles.js'
import { buildFinancialModel, modelWorkbookName } from './financial-models.js'
import { ModelParameterError, type ResolvedParameters } from './parameters.js'
import { calculateTemplate, templateSheets, type TemplateDefinition } from './template.js'

const close = (actual: unknown, expected: number, digits = 6) => expect(actual as number).toBeCloseTo(expected, digits)

/** The address of the input whose label starts with `label` on the model's input sheet. */
function inputCell(template: TemplateDefinition, label: string): string {
  const sheet = template.sheets.find((candidate) => candidate.name === template.inputSheet)!
  const row = sheet.rows.findIndex((cells) => typeof cells[0] === 'string' && cells[0].startsWith(label))
  if (row < 0) throw new Error(`No input labelled ${label}`)
  return `B${row + 1}`
}

/** The cell of a key output by its label. */
function output(engine: Engine, template: TemplateDefinition, label: string): unknown {
  const key = template.keyOutputs.find((candidate) => candidate.label === label)
  if (!key) throw new Error(`No key output ${label}`)
  return engine.getValue(key.sheet, key.address)
}

function outputRow(engine: Engine, template: TemplateDefinition, label: string): unknown[] {
  const key = template.keyOutputs.find((candidate) => candidate.label === label)!
  return engine.getRangeValues(key.sheet, key.address).flat()
}

/** A model built and calculated, with an input it can change and recalculate. */
function model(type: FinancialModelType, parameters: Record<string, unknown> = {}) {
  const built = buildFinancialModel(type, 'Acme', parameters)
  const engine = calculateTemplate(built.template)
  return {
    built,
    engine,
    p: built.parameters,
    out: (label: string) => output(engine, built.template, label),
    row: (label: string) => outputRow(engine, built.template, label),
    set(label: string, value: number) {
      engine.setCell(built.template.inputSheet, inputCell(built.template, label), value)
    },
  }
}

/** The rate at which the flows' present value is zero, by bisection. */
function internalRate(flows: number[]): number {
  const npv = (rate: number) => flows.reduce((sum, flow, t) => sum + flow / (1 + rate) ** t, 0)
  let low = -0.99
  let high = 10
  for (let i = 0; i < 200; i++) {
    const mid = (low + high) / 2
    if (npv(mid) > 0) low = mid
    else high = mid
  }
  return (low + high) / 2
}

// ---- DCF --------------------------------------------------------------------------------------------

/** The DCF worked out directly; `growth` gives each year's revenue growth when they differ. */
function dcf(p: ResolvedParameters, growth: number[] = []) {
  const years = p.projectionYears
  const wacc = (p.riskFreeRate + p.beta * p.equityRiskPremium) * (1 - p.debtWeight) + p.costOfDebt * (1 - p.taxRate) * p.debtWeight
  const periods: number[] = []
  const flows: number[] = []
  let previousWorkingCapital = p.baseRevenue * p.workingCapital
  let ebitda = 0
  let revenue = p.baseRevenue
  for (let year = 1; year <= years; year++) {
    revenue *= 1 + (growth[year - 1] ?? p.revenueGrowthRate)
    ebitda = revenue * p.grossMargin - revenue * p.operatingExpenses
    const da = revenue * p.depreciation
    const ebit = ebitda - da
    const workingCapital = revenue * p.workingCapital
    flows.push(ebit - Math.max(0, ebit * p.taxRate) + da - revenue * p.capex - (workingCapital - previousWorkingCapital))
    previousWorkingCapital = workingCapital
    periods.push(year - p.midYearConvention / 2)
  }
  const last = flows[years - 1]
  const lastPeriod = periods[years - 1]
  const valuePerShare = (w: number, g: number) => {
    const sum = flows.reduce((total, flow, i) => total + flow / (1 + w) ** periods[i], 0)
    return (sum + (last * (1 + g)) / (w - g) / (1 + w) ** lastPeriod - p.debt + p.cash) / p.sharesOutstanding
  }
  const pv = flows.reduce((total, flow, i) => total + flow / (1 + wacc) ** periods[i], 0)
  const gordon = pv + (last * (1 + p.terminalGrowthRate)) / (wacc - p.terminalGrowthRate) / (1 + wacc) ** lastPeriod
  const exit = pv + (ebitda * p.exitMultiple) / (1 + wacc) ** years
  const enterpriseValue = p.terminalValueMethod === 2 ? exit : gordon
  const equityValue = enterpriseValue - p.debt + p.cash
  return { wacc, gordon, exit, enterpriseValue, equityValue, perShare: equityValue / p.sharesOutstanding, valuePerShare }
}

describe('dcf', () => {
  for (const years of [1, 5, 20]) {
    it(`values the business from its inputs over ${years} years, by both terminal values, with the sensitivity grid`, () => {
      const m = model('dcf', { projectionYears: years })
      const expected = dcf(m.p)
      close(m.out('WACC'), expected.wacc, 10)
      close(m.out('Enterprise value (Gordon growth)'), expected.gordon)
      close(m.out('Enterprise value (exit multiple)'), expected.exit)
      close(m.out('Enterprise value'), expected.enterpriseValue)
      close(m.out('Value per share'), expected.perShare)
      const grid = m.row('Sensitivity grid') as number[]
      const waccs = [-2, -1, 0, 1, 2].map((o) => expected.wacc + o * 0.01)
      const growths = [-2, -1, 0, 1, 2].map((o) => m.p.terminalGrowthRate + o * 0.005)
      waccs.forEach((w, i) => growths.forEach((g, j) => close(grid[i * 5 + j], expected.valuePerShare(w, g))))
      // The centre of the grid is the base case.
      close(grid[12], expected.perShare)
    })
  }

  it('follows its inputs: growth, WACC parts, mid-year switch and terminal method', () => {
    const m = model('dcf')
    m.set('Equity beta', 1.4)
    m.set('Mid-year convention', 0)
    m.set('Value on the exit multiple', 1)
    const expected = dcf({ ...m.p, beta: 1.4, midYearConvention: 0, terminalValueMethod: 2 })
    close(m.out('Enterprise value'), expected.exit)
    close(m.out('Value per share'), expected.perShare)
    close(m.out('Enterprise value (Gordon growth)'), expected.gordon)
    // Revenue growth is a row of yearly inputs: 15% a year in years 2 to 5.
    const sheet = m.built.template.sheets[0]
    const growthRow = sheet.rows.findIndex((cells) => cells[0] === 'Revenue growth')
    for (let col = 2; col <= 5; col++) m.engine.setCell('Assumptions', formatAddress(growthRow, col), 0.15)
    const grown = dcf({ ...m.p, beta: 1.4, midYearConvention: 0, terminalValueMethod: 2 }, [m.p.revenueGrowthRate, 0.15, 0.15, 0.15, 0.15])
    close(m.out('Value per share'), grown.perShare)
    expect(grown.perShare).toBeGreaterThan(expected.perShare)
  })

  it('takes a discount rate or an EBITDA margin instead of the parts they come from', () => {
    const m = model('dcf', { discountRate: 10, ebitdaMargin: 30 })
    close(m.out('WACC'), 0.1, 10)
    const premium = ((0.1 - m.p.costOfDebt * (1 - m.p.taxRate) * m.p.debtWeight) / (1 - m.p.debtWeight) - m.p.riskFreeRate) / m.p.beta
    const expected = dcf({ ...m.p, equityRiskPremium: premium, operatingExpenses: m.p.grossMargin - 0.3 })
    close(m.out('Value per share'), expected.perShare)
    expect(() => buildFinancialModel('dcf', 'Acme', { discountRate: 1.5 })).toThrow(/discountRate 1.50% cannot come from/)
    expect(() => buildFinancialModel('dcf', 'Acme', { ebitdaMargin: 70 })).toThrow(/ebitdaMargin 70.00% cannot exceed the gross margin/)
  })

  it('has the tabs Assumptions, Revenue, Operating, FCF and Valuation', () => {
    expect(model('dcf').built.template.sheets.map((sheet) => sheet.name)).toEqual(['Assumptions', 'Revenue', 'Operating', 'FCF', 'Valuation'])
  })

  it('refuses a terminal growth at or above the WACC, naming it', () => {
    expect(() => buildFinancialModel('dcf', 'Acme', { terminalGrowthRate: 9 })).toThrow(/terminalGrowthRate.*below the WACC/)
  })
})

// ---- LBO --------------------------------------------------------------------------------------------

function lbo(p: ResolvedParameters) {
  const ltmEbitda = p.ltmRevenue * p.ltmEbitdaMargin
  const entryValue = ltmEbitda * p.entryMultiple
  const uses = entryValue * (1 + p.transactionFees) + p.minimumCash
  const originalSenior = ltmEbitda * p.seniorLeverage
  const subordinated = ltmEbitda * p.subordinatedLeverage
  const equity = uses - originalSenior - subordinated
  let cash = p.minimumCash
  let senior = originalSenior
  let revenue = p.ltmRevenue
  let previousWorkingCapital = p.ltmRevenue * p.workingCapital
  let ebitda = 0
  const average = (a: number, b: number) => (p.averageBalanceInterest ? (a + b) / 2 : a)
  for (let year = 1; year <= p.projectionYears; year++) {
    revenue *= 1 + p.revenueGrowthRate
    ebitda = revenue * p.ebitdaMargin
    const da = revenue * p.depreciation
    const workingCapital = revenue * p.workingCapital
    const mandatory = Math.min(senior, originalSenior * p.seniorAmortization)
    let interest = 0
    let seniorEnd = senior
    let cashEnd = cash
    // Interest on average balances is circular: iterate to a fixed point, far tighter than Excel's 0.001.
    for (let i = 0; i < 1000; i++) {
      const pretax = ebitda - da - interest
      const income = pretax - Math.max(0, pretax * p.taxRate)
      const freeCash = income + da - revenue * p.capex - (workingCapital - previousWorkingCapital)
      const available = Math.max(0, cash + freeCash - mandatory - p.minimumCash)
      const sweep = Math.min(senior - mandatory, available * p.cashSweep)
      seniorEnd = senior - mandatory - sweep
      cashEnd = cash + freeCash - mandatory - sweep
      const next = p.seniorRate * average(senior, seniorEnd) + p.subordinatedRate * subordinated - p.interestIncomeRate * average(cash, cashEnd)
      if (Math.abs(next - interest) < 1e-12) break
      interest = next
    }
    senior = seniorEnd
    cash = cashEnd
    previousWorkingCapital = workingCapital
  }
  const exitEquity = ebitda * p.exitMultiple - (senior + subordinated - cash)
  const flows = [-equity, ...Array.from({ length: p.projectionYears }, (_v, i) => (i === p.projectionYears - 1 ? exitEquity : 0))]
  return { equity, exitEquity, moic: exitEquity / equity, irr: internalRate(flows), flows }
}

describe('lbo', () => {
  for (const years of [1, 5, 20]) {
    it(`converges with interest on average balances over ${years} years, and its IRR is the cash flows' IRR`, () => {
      const m = model('lbo', { projectionYears: years })
      expect(m.built.template.iterativeCalculation).toBe(true)
      expect(m.engine.getCircularReferences()).toEqual([])
      const expected = lbo(m.p)
      close(m.out('Sponsor equity'), expected.equity)
      close(m.out('Equity value at exit'), expected.exitEquity, 2)
      close(m.out('MOIC'), expected.moic, 4)
      close(m.out('IRR'), expected.irr, 5)
      ;(m.row('Sponsor cash flows') as number[]).forEach((flow, t) => close(flow, expected.flows[t], 2))
    })
  }

  it('follows its inputs, with interest on opening balances too', () => {
    const m = model('lbo')
    m.set('Exit EV/EBITDA multiple', 11)
    m.set('Interest on average balances', 0)
    const expected = lbo({ ...m.p, exitMultiple: 11, averageBalanceInterest: 0 })
    close(m.out('IRR'), expected.irr, 6)
    close(m.out('MOIC'), expected.moic, 6)
  })

  it('leaves the interest loop uncalculated without iterative calculation, which is why the workbook turns it on', () => {
    const built = buildFinancialModel('lbo', 'Acme')
    const engine = calculateTemplate({ ...built.template, iterativeCalculation: false })
    expect(engine.getCircularReferences().length).toBeGreaterThan(0)
    // As in Excel, the cells of the loop show 0 until iteration is on, so the returns are wrong.
    const irr = output(engine, built.template, 'IRR')
    expect(typeof irr === 'number' && Math.abs(irr - lbo(built.parameters).irr) < 1e-6).toBe(false)
  })

  it('refuses debt that leaves no equity to invest', () => {
    expect(() => buildFinancialModel('lbo', 'Acme', { seniorLeverage: 8, subordinatedLeverage: 3 })).toThrow(ModelParameterError)
  })
})

// ---- three statements ---------------------------------------------------------------------------------

function threeStatements(p: ResolvedParameters) {
  let revenue = p.baseRevenue
  let ppe = p.openingPpe
  let debt = p.openingDebt
  let cash = p.openingCash
  let receivables = p.openingReceivables
  let inventory = p.openingInventory
  let payables = p.openingPayables
  let equity = p.openingCash + p.openingReceivables + p.openingInventory + p.openingPpe - p.openingPayables - p.openingDebt
  const years: { cash: number; assets: number; liabilitiesAndEquity: number; netIncome: number }[] = []
  for (let year = 1; year <= p.projectionYears; year++) {
    revenue *= 1 + p.revenueGrowthRate
    const cogs = revenue * p.costOfGoodsSold
    const depreciation = ppe * p.depreciationRate
    const interest = debt * p.interestRate
    const pretax = revenue - cogs - revenue * p.operatingExpenses - depreciation - interest
    const netIncome = pretax * (1 - p.taxRate)
    const newReceivables = revenue * p.receivables
    const newInventory = cogs * p.inventoryShare
    const newPayables = cogs * p.payablesShare
    const newDebt = Math.max(0, debt - p.debtRepayment)
    const capex = revenue * p.capex
    cash += netIncome + depreciation + (receivables - newReceivables) + (inventory - newInventory) + (newPayables - payables) - capex + (newDebt - debt) - netIncome * p.dividendPayout
    ppe += capex - depreciation
    equity += netIncome * (1 - p.dividendPayout)
    receivables = newReceivables
    inventory = newInventory
    payables = newPayables
    debt = newDebt
    years.push({ cash, netIncome, assets: cash + receivables + inventory + ppe, liabilitiesAndEquity: payables + debt + equity })
  }
  return years
}

describe('three-statement', () => {
  for (const years of [1, 5, 20]) {
    it(`balances in every one of ${years} years, and cash ties to the cash flow statement`, () => {
      const m = model('three-statement', { projectionYears: years })
      const expected = threeStatements(m.p)
      expect(m.row('Balance check')).toEqual(Array(years).fill(0))
      expect(m.row('Cash on the balance sheet')).toEqual(m.row('Closing cash'))
      expected.forEach((year, i) => {
        close((m.row('Closing cash') as number[])[i], year.cash)
        expect(Math.abs(year.assets - year.liabilitiesAndEquity)).toBeLessThan(1e-6)
      })
      close(m.out('Net income, final year'), expected[years - 1].netIncome)
      // The balance check row is labelled as such.
      const key = m.built.template.keyOutputs.find((output) => output.label === 'Balance check')!
      const sheet = m.built.template.sheets.find((candidate) => candidate.name === key.sheet)!
      expect(sheet.rows[Number(key.address.match(/\d+/)![0]) - 1][0]).toBe('Balance check')
    })
  }

  it('still balances after inputs change', () => {
    const m = model('three-statement')
    m.set('Revenue growth', 0.25)
    m.set('Annual debt repayment', 900)
    const expected = threeStatements({ ...m.p, revenueGrowthRate: 0.25, debtRepayment: 900 })
    expect(m.row('Balance check')).toEqual([0, 0, 0, 0, 0])
    close(m.out('Closing cash, final year'), expected[4].cash)
  })
})

// ---- startup ------------------------------------------------------------------------------------------

function startup(p: ResolvedParameters) {
  let customers = p.startingCustomers
  let added = p.newCustomers
  let cash = p.startingCash
  const cashByYear: number[] = []
  let firstProfitable: number | string = `Not within ${p.projectionYears} years`
  let revenue = 0
  for (let year = 1; year <= p.projectionYears; year++) {
    if (year > 1) added = Math.round(added * (1 + p.newCustomerGrowth))
    const churned = Math.round(customers * p.churn)
    const end = customers + added - churned
    revenue = ((customers + end) / 2) * p.revenuePerCustomer
    const staff = Math.round(p.headcount * (1 + p.headcountGrowth) ** (year - 1))
    const ebitda = revenue * p.grossMargin - (staff * p.costPerEmployee + added * p.acquisitionCost + p.otherExpenses)
    if (ebitda > 0 && typeof firstProfitable === 'string') firstProfitable = p.baseYear + year
    cash += ebitda + (year === 1 ? p.seedFunding : 0)
    cashByYear.push(cash)
    customers = end
  }
  return { revenue, cash, lowest: Math.min(...cashByYear), firstProfitable }
}

describe('startup', () => {
  for (const years of [1, 5, 20]) {
    it(`projects customers, burn and cash over ${years} years`, () => {
      const m = model('startup', { projectionYears: years })
      const expected = startup(m.p)
      close(m.out('Revenue in the final year'), expected.revenue)
      close(m.out('Cash at the end of the final year'), expected.cash)
      close(m.out('Lowest year-end cash'), expected.lowest)
      expect(m.out('First profitable year')).toBe(expected.firstProfitable)
    })
  }

  it('follows its inputs', () => {
    const m = model('startup')
    m.set('Annual revenue per customer', 1200)
    const expected = startup({ ...m.p, revenuePerCustomer: 1200 })
    close(m.out('Cash at the end of the final year'), expected.cash)
    expect(m.out('First profitable year')).toBe(expected.firstProfitable)
  })
})

// ---- SaaS ---------------------------------------------------------------------------------------------

function saas(p: ResolvedParameters) {
  const won = Array.from({ length: p.projectionYears }, (_v, k) => p.newCustomers * (1 + p.newCustomerGrowth) ** k)
  let customers = 0
  let arr = 0
  let ltvToCac = 0
  let spend = p.salesMarketing
  for (let year = 1; year <= p.projectionYears; year++) {
    customers = p.startingCustomers * (1 - p.churn) ** year + won.slice(0, year).reduce((sum, count, k) => sum + count * (1 - p.churn) ** (year - 1 - k), 0)
    const acv = p.annualContractValue * (1 + p.priceIncrease) ** (year - 1)
    if (year > 1) spend *= 1 + p.salesMarketingGrowth
    arr = customers * acv
    ltvToCac = (acv * p.grossMargin) / p.churn / (spend / won[year - 1])
  }
  return { customers, arr, ltvToCac }
}

describe('saas', () => {
  for (const years of [1, 5, 20]) {
    it(`builds customers from cohorts, with ARR and LTV to CAC, over ${years} years`, () => {
      const m = model('saas', { projectionYears: years })
      const expected = saas(m.p)
      close(m.out('Customers at end of final year'), expected.customers)
      close(m.out('ARR, final year'), expected.arr, 4)
      close(m.out('LTV to CAC ratio, final year'), expected.ltvToCac)
      const triangle = m.row('Customers by cohort') as number[]
      // Rows: the starting customers, then one cohort a year; a cohort has no customers before the year it is won.
      expect(triangle[years]).toBe(m.p.newCustomers)
      if (years > 1) expect(triangle[2 * years]).toBe(0)
    })
  }

  it('follows its inputs', () => {
    const m = model('saas')
    m.set('Annual logo churn', 0.2)
    const expected = saas({ ...m.p, churn: 0.2 })
    close(m.out('ARR, final year'), expected.arr, 4)
    close(m.out('LTV to CAC ratio, final year'), expected.ltvToCac)
  })
})

// ---- real estate --------------------------------------------------------------------------------------

function realEstate(p: ResolvedParameters) {
  const loan = p.purchasePrice * (1 - p.downPayment)
  const equity = p.purchasePrice * (p.downPayment + p.closingCosts)
  const rate = p.mortgageRate / 12
  const months = p.loanTerm * 12
  const payment = (loan * rate) / (1 - (1 + rate) ** -months)
  const balanceAfter = (month: number) => Math.max(0, loan * (1 + rate) ** month - (payment * ((1 + rate) ** month - 1)) / rate)
  const flows = [-equity]
  let rent = p.grossRent
  for (let year = 1; year <= p.projectionYears; year++) {
    if (year > 1) rent *= 1 + p.rentGrowth
    const noi = rent * (1 - p.vacancy) * (1 - p.operatingExpenses)
    flows.push(noi - (year <= p.loanTerm ? payment * 12 : 0))
  }
  const sale = p.purchasePrice * (1 + p.appreciation) ** p.projectionYears
  const proceeds = sale * (1 - p.sellingCosts) - balanceAfter(Math.min(p.projectionYears, p.loanTerm) * 12)
  flows[p.projectionYears] += proceeds
  return { payment, proceeds, flows, irr: internalRate(flows), multiple: flows.slice(1).reduce((a, b) => a + b, 0) / equity }
}

describe('real-estate', () => {
  for (const years of [1, 5, 20]) {
    it(`holds the property ${years} years and sells it: payment, proceeds, multiple and IRR`, () => {
      const m = model('real-estate', { projectionYears: years })
      const expected = realEstate(m.p)
      close(m.out('Monthly mortgage payment'), expected.payment)
      close(m.out('Net sale proceeds'), expected.proceeds, 4)
      close(m.out('Equity multiple'), expected.multiple)
      close(m.out('Internal rate of return'), expected.irr, 6)
    })
  }

  it('pays the loan off within a holding period longer than its term', () => {
    const m = model('real-estate', { projectionYears: 20, loanTerm: 10 })
    const expected = realEstate(m.p)
    close(m.out('Internal rate of return'), expected.irr, 6)
  })

  it('follows its inputs', () => {
    const m = model('real-estate')
    m.set('Purchase price', 800_000)
    const expected = realEstate({ ...m.p, purchasePrice: 800_000 })
    close(m.out('Internal rate of return'), expected.irr, 6)
  })
})

// ---- every model --------------------------------------------------------------------------------------

describe('every generated model', () => {
  for (const type of FINANCIAL_MODEL_TYPES) {
    for (const years of [1, 5, 20]) {
      it(`${type}, ${years} years: no error cell, numbers typed only as blue inputs on the input sheet`, () => {
        const { built, engine } = model(type, { projectionYears: years })
        const template = built.template
        for (const sheet of templateSheets(template)) {
          for (const cell of sheet.cells) {
            const value = engine.getValue(sheet.name, cell.address)
            expect(isCellError(value), `${sheet.name}!${cell.address} ${cell.input} = ${String(value)}`).toBe(false)
            const parsed = parseCellInput(cell.input)
            if (parsed.kind === 'value' && typeof parsed.value === 'number') {
              expect(sheet.name, `${sheet.name}!${cell.address} is a typed number`).toBe(template.inputSheet)
              expect(cell.style?.color, `${sheet.name}!${cell.address} is an input`).toBe(INPUT.color)
            }
          }
        }
      })
    }
  }

  it('keeps a company name as text, whatever it holds', () => {
    for (const company of ['=1+1', '<script>alert("x")</script>', `O'Brien "Holdings"`, 'x'.repeat(500), '100', 'TRUE']) {
      for (const type of FINANCIAL_MODEL_TYPES) {
        const { template, name } = buildFinancialModel(type, company)
        const engine = calculateTemplate(template)
        expect(engine.getValue(template.inputSheet, inputCell(template, 'Company'))).toBe(company)
        expect(engine.getValue(template.sheets[0].name, 'A1')).toContain(company)
        expect(name.length).toBeLessThanOrEqual(200)
      }
    }
    expect(modelWorkbookName('x'.repeat(500), 'DCF Model')).toMatch(/^x+… — DCF Model$/)
  })

  it('refuses bad parameters by name: years out of range, text, an unknown name', () => {
    const refused = (parameters: Record<string, unknown>) => {
      try {
        buildFinancialModel('dcf', 'Acme', parameters)
      } catch (error) {
        expect(error).toBeInstanceOf(ModelParameterError)
        return error as ModelParameterError
      }
      throw new Error('accepted')
    }
    expect(refused({ projectionYears: 0 }).parameter).toBe('projectionYears')
    expect(refused({ projectionYears: 21 }).message).toMatch(/projectionYears must be a whole number from 1 to 20/)
    expect(refused({ projectionYears: 2.5 }).parameter).toBe('projectionYears')
    expect(refused({ terminalGrowthRate: 'high' }).message).toMatch(/terminalGrowthRate must be a number/)
    expect(refused({ terminalGrowthRate: { value: 2 } }).parameter).toBe('terminalGrowthRate')
    expect(refused({ wacc: 9 }).message).toMatch(/Unknown parameter "wacc".*projectionYears, terminalGrowthRate/)
    expect(buildFinancialModel('dcf', 'Acme', { projectionYears: '7', terminalGrowthRate: '3%' }).parameters).toMatchObject({ projectionYears: 7, terminalGrowthRate: 0.03 })
  })
})
