/**
 * Cell search as analysts ask it of the model workbooks: each query with the row it must find in
 * the top three (any cell of the row counts), or the one cell when the query names a column.
 */
export interface CellQuery {
  query: string
  workbookId: string
  sheet: string
  /** The row's label text. */
  row: string
  /** When the query asks for one column of the row: its header. */
  column?: string
  /** Asked of this workbook alone, as a user searching inside one model does. */
  withinWorkbook?: boolean
}

export const CELL_QUERIES: readonly CellQuery[] = [
  { query: 'free cash flow', workbookId: 'dcf-model', sheet: 'DCF', row: 'Unlevered free cash flow' },
  { query: 'what discount rate does the model use', workbookId: 'dcf-model', sheet: 'Assumptions', row: 'WACC' },
  { query: 'cost of capital', workbookId: 'dcf-model', sheet: 'Assumptions', row: 'WACC' },
  { query: 'capex', workbookId: 'dcf-model', sheet: 'DCF', row: 'Capital expenditures' },
  { query: 'D&A', workbookId: 'dcf-model', sheet: 'DCF', row: 'Depreciation & amortisation' },
  { query: 'terminal value', workbookId: 'dcf-model', sheet: 'DCF', row: 'Terminal value' },
  { query: 'perpetuity growth rate', workbookId: 'dcf-model', sheet: 'Assumptions', row: 'Terminal growth rate' },
  { query: 'EV', workbookId: 'dcf-model', sheet: 'DCF', row: 'Enterprise value' },
  { query: 'value per share', workbookId: 'dcf-model', sheet: 'DCF', row: 'Implied share price' },
  { query: 'sales growth assumption', workbookId: 'dcf-model', sheet: 'Assumptions', row: 'Revenue growth' },
  { query: 'cost of goods sold', workbookId: 'dcf-model', sheet: 'DCF', row: 'COGS' },
  { query: 'overheads', workbookId: 'dcf-model', sheet: 'DCF', row: 'SG&A' },
  { query: 'operating profit', workbookId: 'dcf-model', sheet: 'DCF', row: 'EBIT' },
  { query: 'working capital change', workbookId: 'dcf-model', sheet: 'DCF', row: 'Change in NWC' },
  { query: 'revenue in 2027', workbookId: 'dcf-model', sheet: 'DCF', row: 'Revenue', column: '2027' },
  { query: 'EBITDA 2029', workbookId: 'dcf-model', sheet: 'DCF', row: 'EBITDA', column: '2029' },
  { query: 'present value of the cash flows', workbookId: 'dcf-model', sheet: 'DCF', row: 'PV of free cash flow' },
  { query: 'number of shares', workbookId: 'dcf-model', sheet: 'Assumptions', row: 'Shares outstanding (m)' },
  { query: 'entry multiple', workbookId: 'lbo-model', sheet: 'Transaction', row: 'Entry EV/EBITDA multiple' },
  { query: 'how much equity does the sponsor put in', workbookId: 'lbo-model', sheet: 'Transaction', row: 'Sponsor equity contribution' },
  { query: 'internal rate of return', workbookId: 'lbo-model', sheet: 'Returns', row: 'Sponsor IRR' },
  { query: 'cash on cash multiple', workbookId: 'lbo-model', sheet: 'Returns', row: 'MOIC' },
  { query: 'debt to EBITDA', workbookId: 'lbo-model', sheet: 'Returns', row: 'Leverage (debt / EBITDA)' },
  { query: 'interest cost of the debt', workbookId: 'lbo-model', sheet: 'Returns', row: 'Interest expense' },
  { query: 'how many employees do we have', workbookId: 'saas-model', sheet: 'Operations', row: 'Headcount' },
  { query: 'customer attrition', workbookId: 'saas-model', sheet: 'Operations', row: 'Monthly churn rate' },
  { query: 'annual recurring revenue', workbookId: 'saas-model', sheet: 'Operations', row: 'ARR' },
  { query: 'payroll costs', workbookId: 'saas-model', sheet: 'Operations', row: 'Salaries and benefits' },
  { query: 'LTV', workbookId: 'saas-model', sheet: 'Operations', row: 'Customer lifetime value' },
  { query: 'cost to acquire a customer', workbookId: 'saas-model', sheet: 'Operations', row: 'Customer acquisition cost (CAC)' },
  { query: 'average revenue per user', workbookId: 'saas-model', sheet: 'Operations', row: 'ARPU' },
  { query: 'turnover', workbookId: 'three-statement', sheet: 'Income Statement', row: 'Net sales', withinWorkbook: true },
  { query: 'bottom line profit', workbookId: 'three-statement', sheet: 'Income Statement', row: 'Net income' },
  { query: 'receivables', workbookId: 'three-statement', sheet: 'Balance Sheet', row: 'Accounts receivable' },
  { query: 'DSO', workbookId: 'three-statement', sheet: 'Balance Sheet', row: 'Days sales outstanding' },
  { query: 'creditor days', workbookId: 'three-statement', sheet: 'Balance Sheet', row: 'Days payable outstanding' },
  { query: 'cash balance', workbookId: 'three-statement', sheet: 'Balance Sheet', row: 'Cash and equivalents' },
  { query: 'fixed assets', workbookId: 'three-statement', sheet: 'Balance Sheet', row: 'Property, plant and equipment' },
  { query: 'finance costs', workbookId: 'three-statement', sheet: 'Income Statement', row: 'Interest paid', withinWorkbook: true },
  { query: 'net sales FY2025', workbookId: 'three-statement', sheet: 'Income Statement', row: 'Net sales', column: 'FY2025' },
]
