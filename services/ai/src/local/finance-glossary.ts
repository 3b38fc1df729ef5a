/**
 * The finance terms a modeller asks about, answered offline: what the term means, how it is built
 * in a spreadsheet, and the engine's functions that compute it.
 */

export interface GlossaryEntry {
  term: string
  /** Ways of writing it, matched as whole words ignoring case. */
  aliases: string[]
  definition: string
  /** How it is calculated in a model. */
  inAModel: string
  /** Catalogue functions that compute it or a part of it. */
  functions: string[]
}

export const FINANCE_GLOSSARY: readonly GlossaryEntry[] = [
  {
    term: 'WACC (weighted average cost of capital)',
    aliases: ['wacc', 'weighted average cost of capital', 'cost of capital', 'discount rate'],
    definition: 'The return a company must earn for all its capital providers: the cost of equity and the after-tax cost of debt, weighted by their shares of the capital structure. It is the discount rate for unlevered free cash flows in a DCF.',
    inAModel: 'WACC = E/(D+E) × Re + D/(D+E) × Rd × (1 − tax rate). With equity value in B2, debt in B3, cost of equity in B4, pre-tax cost of debt in B5 and the tax rate in B6: `=B2/(B2+B3)*B4+B3/(B2+B3)*B5*(1-B6)`.',
    functions: ['SUMPRODUCT'],
  },
  {
    term: 'Cost of equity (CAPM)',
    aliases: ['cost of equity', 'capm', 'beta', 'equity risk premium', 'market risk premium'],
    definition: 'The return shareholders require, usually estimated with the capital asset pricing model: the risk-free rate plus beta times the equity risk premium.',
    inAModel: 'Re = risk-free rate + β × equity risk premium, such as `=B2+B3*B4`. Beta can be estimated from returns with `=SLOPE(stock_returns, market_returns)`.',
    functions: ['SLOPE', 'COVARIANCE.S', 'VAR.S'],
  },
  {
    term: 'DCF (discounted cash flow)',
    aliases: ['dcf', 'discounted cash flow', 'discounted cash flows'],
    definition: 'A valuation that discounts the free cash flows a business is expected to generate, plus a terminal value for the years beyond the forecast, back to today at the WACC. The sum is the enterprise value.',
    inAModel: 'Enterprise value = Σ FCFₜ / (1+WACC)ᵗ + TV / (1+WACC)ᴺ. With cash flows for years 1–5 in C10:G10 and the WACC in B3: `=NPV(B3, C10:G10) + G12/(1+B3)^5`, where G12 holds the terminal value. For dated cash flows use XNPV.',
    functions: ['NPV', 'XNPV'],
  },
  {
    term: 'Terminal value',
    aliases: ['terminal value', 'tv', 'gordon growth', 'perpetuity growth', 'exit multiple', 'continuing value'],
    definition: 'The value of all cash flows after the explicit forecast, usually most of a DCF’s value. Two methods: the Gordon growth (perpetuity) method, and an exit multiple of the final year’s EBITDA.',
    inAModel: 'Gordon growth: TV = FCFₙ × (1+g) / (WACC − g), such as `=G10*(1+B4)/(B3-B4)` (g must be below the WACC). Exit multiple: TV = EBITDAₙ × multiple, such as `=G8*B5`. Discount it with the final year’s factor: `=G12/(1+B3)^5`.',
    functions: ['NPV'],
  },
  {
    term: 'Enterprise value and equity value',
    aliases: ['enterprise value', 'ev', 'equity value', 'equity bridge', 'net debt', 'value per share'],
    definition: 'Enterprise value is the value of the operating business to all capital providers. Equity value is what is left for shareholders: enterprise value minus net debt (debt minus cash), minority interests and other claims.',
    inAModel: 'Equity value = EV − debt + cash, such as `=B20-B21+B22`; value per share = equity value / diluted shares, `=B23/B24`.',
    functions: [],
  },
  {
    term: 'IRR (internal rate of return)',
    aliases: ['irr', 'internal rate of return', 'xirr'],
    definition: 'The discount rate at which the net present value of a series of cash flows is zero: the annualised return of an investment. Private equity judges deals by it, beside the MOIC.',
    inAModel: 'For yearly cash flows with the (negative) investment first in B2:B7: `=IRR(B2:B7)`. For cash flows on actual dates: `=XIRR(B2:B7, A2:A7)`. MIRR adds a finance and a reinvestment rate.',
    functions: ['IRR', 'XIRR', 'MIRR'],
  },
  {
    term: 'MOIC (multiple on invested capital)',
    aliases: ['moic', 'multiple on invested capital', 'money multiple', 'cash on cash', 'tvpi'],
    definition: 'Total value returned to an investor divided by the capital invested: 2.5x means every 1 invested came back as 2.5. Unlike the IRR it ignores time, so the two are read together.',
    inAModel: 'MOIC = total distributions (plus remaining value) / equity invested, such as `=SUM(C15:G15)/-B15`.',
    functions: ['SUM', 'SUMIF'],
  },
  {
    term: 'NPV (net present value)',
    aliases: ['npv', 'net present value', 'present value'],
    definition: 'The sum of an investment’s cash flows, each discounted to today at a required rate, minus what it costs. A positive NPV creates value at that rate.',
    inAModel: 'NPV discounts from the first value as one period away, so an initial outlay at time 0 is added outside it: `=NPV(B1, C2:G2) + B2`. XNPV takes dates.',
    functions: ['NPV', 'XNPV', 'PV'],
  },
  {
    term: 'EBITDA',
    aliases: ['ebitda', 'earnings before interest taxes depreciation and amortization', 'ebitda margin'],
    definition: 'Earnings before interest, taxes, depreciation and amortisation: operating profit before non-cash charges, a proxy for operating cash generation and the base of most valuation multiples (EV/EBITDA).',
    inAModel: 'EBITDA = revenue − cost of sales − operating expenses (excluding D&A), or EBIT + D&A, such as `=B10+B11`. EBITDA margin = EBITDA / revenue, `=B12/B5`.',
    functions: [],
  },
  {
    term: 'EBIT and operating margin',
    aliases: ['ebit', 'operating income', 'operating profit', 'operating margin', 'nopat'],
    definition: 'Earnings before interest and taxes: profit from operations after depreciation and amortisation. NOPAT is EBIT after tax, the starting point of unlevered free cash flow.',
    inAModel: 'EBIT = EBITDA − D&A; NOPAT = EBIT × (1 − tax rate), such as `=B13*(1-$B$3)`.',
    functions: [],
  },
  {
    term: 'Free cash flow (unlevered)',
    aliases: ['fcf', 'free cash flow', 'unlevered free cash flow', 'ufcf', 'levered free cash flow'],
    definition: 'The cash a business generates after taxes, reinvestment in fixed assets and working capital, before any payments to lenders or shareholders. A DCF discounts it at the WACC.',
    inAModel: 'UFCF = EBIT × (1 − t) + D&A − capex − increase in NWC, such as `=C13*(1-$B$3)+C14-C15-(C16-B16)`.',
    functions: [],
  },
  {
    term: 'NWC (net working capital)',
    aliases: ['nwc', 'net working capital', 'working capital', 'change in working capital', 'dso', 'dpo', 'dio'],
    definition: 'Operating current assets minus operating current liabilities: receivables plus inventory minus payables (cash and debt excluded). Its increase uses cash and is subtracted in free cash flow.',
    inAModel: 'NWC = receivables + inventory − payables, often forecast from days: receivables = revenue × DSO / 365, such as `=C5*$B$20/365`. Change in NWC = this year − last year, `=C18-B18`.',
    functions: [],
  },
  {
    term: 'Capex and D&A',
    aliases: ['capex', 'capital expenditure', 'capital expenditures', 'd&a', 'depreciation and amortization', 'depreciation'],
    definition: 'Capital expenditure is spending on long-lived assets; depreciation and amortisation spread that cost over the assets’ lives. Capex is a cash outflow in free cash flow; D&A is added back because it is not cash.',
    inAModel: 'Forecast capex as a share of revenue (`=C5*$B$21`) and depreciation straight-line with `=SLN(cost, salvage, life)` or declining balance with DB or DDB.',
    functions: ['SLN', 'DB', 'DDB', 'SYD', 'VDB'],
  },
  {
    term: 'CAGR (compound annual growth rate)',
    aliases: ['cagr', 'compound annual growth rate', 'annual growth rate', 'growth rate'],
    definition: 'The constant yearly rate that takes a starting value to an ending value over a number of years.',
    inAModel: 'CAGR = (end / start)^(1/years) − 1, such as `=(G5/B5)^(1/5)-1`, or `=RRI(5, B5, G5)`.',
    functions: ['RRI'],
  },
  {
    term: 'LBO (leveraged buyout)',
    aliases: ['lbo', 'leveraged buyout', 'sources and uses', 'debt schedule', 'cash sweep'],
    definition: 'An acquisition funded mostly with debt, repaid from the target’s cash flows, with the sponsor’s return coming from debt paydown, EBITDA growth and the exit multiple. The model runs sources and uses, a debt schedule, and returns (IRR and MOIC).',
    inAModel: 'Interest on average balances makes the model circular: switch iterative calculation on. Returns: `=IRR(equity_cash_flows)` and MOIC = exit equity / equity invested.',
    functions: ['IRR', 'XIRR', 'PMT', 'IPMT'],
  },
  {
    term: 'Leverage and coverage ratios',
    aliases: ['leverage', 'net leverage', 'debt to ebitda', 'interest coverage', 'dscr', 'debt service coverage'],
    definition: 'Leverage compares debt with earnings (net debt / EBITDA); coverage compares earnings or cash flow with debt costs (EBITDA / interest, or cash available / debt service for the DSCR). Lenders set covenants on both.',
    inAModel: 'Net debt / EBITDA: `=(B30-B31)/B12`; interest coverage: `=B12/B32`; DSCR: `=B40/(B32+B33)`.',
    functions: [],
  },
  {
    term: 'Valuation multiples',
    aliases: ['multiples', 'ev/ebitda', 'ev to ebitda', 'p/e', 'price to earnings', 'comparable companies', 'comps'],
    definition: 'Value relative to a measure of performance, taken from comparable companies or deals: EV/EBITDA, EV/revenue, P/E. Applying a peer median to the company’s metric gives a value.',
    inAModel: 'Peer median: `=MEDIAN(C5:C12)`; implied EV: `=B20*MEDIAN(C5:C12)`.',
    functions: ['MEDIAN', 'AVERAGE', 'PERCENTILE.INC'],
  },
  {
    term: 'Sensitivity analysis',
    aliases: ['sensitivity', 'sensitivity analysis', 'sensitivity table', 'data table', 'scenario', 'scenarios'],
    definition: 'How an output (value per share, IRR) changes as one or two inputs vary (WACC and terminal growth, entry and exit multiple), shown as a grid.',
    inAModel: 'Put one input’s values down a column and the other’s across a row; each cell recomputes the output from its row and column inputs, with mixed references such as `=$B$20/( C$4-$B5)`, so the grid is formulas rather than pasted values.',
    functions: ['CHOOSE', 'INDEX'],
  },
  {
    term: 'Mid-year convention',
    aliases: ['mid-year convention', 'mid year convention', 'midyear'],
    definition: 'Discounting each year’s cash flow as if it arrived in the middle of the year rather than at its end, because cash comes in through the year. It raises a DCF value slightly.',
    inAModel: 'Discount period t − 0.5 instead of t: `=C10/(1+$B$3)^(C2-0.5)`.',
    functions: [],
  },
  {
    term: 'Gross margin',
    aliases: ['gross margin', 'gross profit', 'cogs', 'cost of goods sold'],
    definition: 'Revenue minus the direct cost of what was sold, as a share of revenue: how much each sale contributes before operating expenses.',
    inAModel: 'Gross profit = revenue − cost of sales, `=B5-B6`; gross margin = `=B7/B5`.',
    functions: [],
  },
  {
    term: 'Unit economics (SaaS)',
    aliases: ['arr', 'mrr', 'churn', 'cac', 'ltv', 'lifetime value', 'customer acquisition cost', 'net revenue retention'],
    definition: 'Recurring revenue (ARR, MRR), how much of it is lost (churn) or grown (net revenue retention), what a customer costs to win (CAC) and what it is worth over its life (LTV).',
    inAModel: 'LTV = ARPA × gross margin / churn rate, such as `=B5*B6/B7`; LTV/CAC = `=B8/B9`; months to recover CAC = `=B9/(B5*B6)`.',
    functions: [],
  },
]

/** The glossary entries a text asks about, in the order they appear in it. */
export function glossaryEntriesIn(text: string): GlossaryEntry[] {
  const lower = ` ${text.toLowerCase().replace(/[^a-z0-9&/\-\s]/g, ' ').replace(/\s+/g, ' ')} `
  const found: Array<{ entry: GlossaryEntry; at: number }> = []
  for (const entry of FINANCE_GLOSSARY) {
    let first = -1
    for (const alias of entry.aliases) {
      const at = lower.indexOf(` ${alias} `)
      if (at !== -1 && (first === -1 || at < first)) first = at
    }
    if (first !== -1) found.push({ entry, at: first })
  }
  return found.sort((a, b) => a.at - b.at).map(({ entry }) => entry)
}
