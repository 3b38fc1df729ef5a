/**
 * Workbooks shaped like the models analysts search in: a DCF, an LBO, a SaaS operating model and a
 * three-statement model, with row labels, year headers, inputs and formulas as such models lay them out.
 */
import type { Cell, CellsResponse } from '@finsheet/contracts'
import { columnToLetters } from '@finsheet/formula'

type Entry = string | number | null

function sheet(name: string, rows: Entry[][]) {
  const cells: Record<string, Cell> = {}
  rows.forEach((row, r) =>
    row.forEach((entry, c) => {
      if (entry === null || entry === '') return
      const formula = typeof entry === 'string' && entry.startsWith('=') ? entry : null
      const value = formula ? 100 + r * 10 + c : entry
      cells[`${columnToLetters(c)}${r + 1}`] = {
        value,
        formula,
        input: String(entry),
        type: typeof value === 'number' ? 'number' : 'text',
        format: null,
        style: null,
        display: String(value),
      }
    }),
  )
  return { name, cells, rowCount: rows.length, columnCount: Math.max(...rows.map((row) => row.length)), columnWidths: {}, merges: [] }
}

function workbook(workbookId: string, name: string, sheets: ReturnType<typeof sheet>[]): CellsResponse['workbook'] {
  return {
    workbookId,
    name,
    revision: 1,
    sheets,
    sheetOrder: sheets.map((s) => s.name),
    totalCells: sheets.reduce((n, s) => n + Object.keys(s.cells).length, 0),
    totalSheets: sheets.length,
  }
}

const years = ['', 2025, 2026, 2027, 2028, 2029]
const row = (label: string, formula: (col: string) => string) => [label, ...['B', 'C', 'D', 'E', 'F'].map((col) => formula(col))]

export const DCF_MODEL = workbook('dcf-model', 'Acme DCF valuation', [
  sheet('Assumptions', [
    ['Acme Corp - key assumptions'],
    [],
    ['Revenue growth', 0.08],
    ['EBITDA margin', 0.24],
    ['Tax rate', 0.25],
    ['WACC', 0.095],
    ['Terminal growth rate', 0.025],
    ['D&A as % of revenue', 0.04],
    ['Capex as % of revenue', 0.05],
    ['NWC as % of revenue', 0.1],
    ['Shares outstanding (m)', 120],
    ['Net debt', 350],
  ]),
  sheet('DCF', [
    ['Discounted cash flow', null],
    years,
    row('Revenue', (c) => `=${c === 'B' ? '1000' : `${String.fromCharCode(c.charCodeAt(0) - 1)}3`}*(1+Assumptions!$B$3)`),
    row('COGS', (c) => `=-${c}3*0.55`),
    row('Gross profit', (c) => `=${c}3+${c}4`),
    row('SG&A', (c) => `=-${c}3*0.21`),
    row('EBITDA', (c) => `=${c}5+${c}6`),
    row('Depreciation & amortisation', (c) => `=-${c}3*Assumptions!$B$8`),
    row('EBIT', (c) => `=${c}7+${c}8`),
    row('Taxes', (c) => `=-${c}9*Assumptions!$B$5`),
    row('NOPAT', (c) => `=${c}9+${c}10`),
    row('Capital expenditures', (c) => `=-${c}3*Assumptions!$B$9`),
    row('Change in NWC', (c) => `=-(${c}3-1000)*Assumptions!$B$10`),
    row('Unlevered free cash flow', (c) => `=${c}11-${c}8+${c}12+${c}13`),
    row('Discount factor', (c) => `=1/(1+Assumptions!$B$6)^(${c}2-2024)`),
    row('PV of free cash flow', (c) => `=${c}14*${c}15`),
    [],
    ['Terminal value', '=F14*(1+Assumptions!B7)/(Assumptions!B6-Assumptions!B7)'],
    ['PV of terminal value', '=B18*F15'],
    ['Enterprise value', '=SUM(B16:F16)+B19'],
    ['Less: net debt', '=Assumptions!B12'],
    ['Equity value', '=B20-B21'],
    ['Implied share price', '=B22/Assumptions!B11'],
  ]),
])

export const LBO_MODEL = workbook('lbo-model', 'Project Falcon LBO', [
  sheet('Transaction', [
    ['Sources and uses'],
    ['Entry EV/EBITDA multiple', 9.5],
    ['LTM EBITDA', 80],
    ['Purchase price', '=B2*B3'],
    ['Senior term loan', '=B3*4'],
    ['Subordinated notes', '=B3*1.5'],
    ['Sponsor equity contribution', '=B4-B5-B6'],
    ['Transaction fees', 12],
  ]),
  sheet('Returns', [
    ['', 2025, 2026, 2027, 2028, 2029],
    row('EBITDA', () => '=Transaction!B3*1.05'),
    row('Interest expense', () => '=Transaction!B5*0.08'),
    row('Mandatory debt repayment', () => '=Transaction!B5*0.05'),
    row('Total debt', () => '=Transaction!B5+Transaction!B6'),
    row('Leverage (debt / EBITDA)', (c) => `=${c}5/${c}2`),
    row('Interest coverage', (c) => `=${c}2/${c}3`),
    [],
    ['Exit multiple', 10],
    ['Exit enterprise value', '=F2*B9'],
    ['Equity proceeds at exit', '=B10-F5'],
    ['Sponsor IRR', '=IRR(B14:G14)'],
    ['MOIC', '=B11/Transaction!B7'],
  ]),
])

export const SAAS_MODEL = workbook('saas-model', 'SaaS operating plan', [
  sheet('Operations', [
    ['', 'Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun'],
    ['Customers', 120, 131, 140, 152, 165, 177],
    ['New customers', 14, 15, 13, 16, 17, 16],
    ['Monthly churn rate', 0.021, 0.02, 0.022, 0.019, 0.02, 0.018],
    ['MRR', '=B2*B7', '=C2*C7', '=D2*D7', '=E2*E7', '=F2*F7', '=G2*G7'],
    ['ARR', '=B5*12', '=C5*12', '=D5*12', '=E5*12', '=F5*12', '=G5*12'],
    ['ARPU', 410, 410, 415, 415, 420, 420],
    ['Headcount', 42, 44, 45, 47, 50, 52],
    ['Salaries and benefits', '=B8*9500', '=C8*9500', '=D8*9500', '=E8*9500', '=F8*9500', '=G8*9500'],
    ['Marketing spend', 60000, 62000, 65000, 64000, 70000, 72000],
    ['Customer acquisition cost (CAC)', '=B10/B3', '=C10/C3', '=D10/D3', '=E10/E3', '=F10/F3', '=G10/G3'],
    ['Customer lifetime value', '=B7/B4', '=C7/C4', '=D7/D4', '=E7/E4', '=F7/F4', '=G7/G4'],
    ['Cash burn', '=B5-B9-B10', '=C5-C9-C10', '=D5-D9-D10', '=E5-E9-E10', '=F5-F9-F10', '=G5-G9-G10'],
    ['Runway (months)', 18, 17, 16, 16, 15, 15],
  ]),
])

export const THREE_STATEMENT_MODEL = workbook('three-statement', 'Three-statement model', [
  sheet('Income Statement', [
    ['', 'FY2024', 'FY2025', 'FY2026'],
    ['Net sales', 5400, 5900, 6350],
    ['Cost of sales', -3100, -3350, -3600],
    ['Operating expenses', -1200, -1300, -1380],
    ['Operating income', '=B2+B3+B4', '=C2+C3+C4', '=D2+D3+D4'],
    ['Interest paid', -80, -75, -70],
    ['Income tax', '=-(B5+B6)*0.25', '=-(C5+C6)*0.25', '=-(D5+D6)*0.25'],
    ['Net income', '=B5+B6+B7', '=C5+C6+C7', '=D5+D6+D7'],
    ['Dividends paid', -150, -160, -170],
  ]),
  sheet('Balance Sheet', [
    ['', 'FY2024', 'FY2025', 'FY2026'],
    ['Cash and equivalents', 420, 515, 640],
    ['Accounts receivable', 610, 660, 700],
    ['Inventory', 380, 400, 425],
    ['Property, plant and equipment', 2200, 2300, 2390],
    ['Total assets', '=SUM(B2:B5)', '=SUM(C2:C5)', '=SUM(D2:D5)'],
    ['Accounts payable', 340, 360, 380],
    ['Long-term debt', 900, 850, 800],
    ['Retained earnings', 1300, 1450, 1600],
    ['Days sales outstanding', '=B3/\'Income Statement\'!B2*365', '=C3/\'Income Statement\'!C2*365', '=D3/\'Income Statement\'!D2*365'],
    ['Days payable outstanding', '=B7/-\'Income Statement\'!B3*365', '=C7/-\'Income Statement\'!C3*365', '=D7/-\'Income Statement\'!D3*365'],
  ]),
])

export const MODEL_WORKBOOKS = [DCF_MODEL, LBO_MODEL, SAAS_MODEL, THREE_STATEMENT_MODEL]
