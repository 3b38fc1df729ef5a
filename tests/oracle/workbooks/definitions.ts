/**
 * The oracle workbooks of our own: each is built here with exceljs (formulas without values), then
 * calculated by LibreOffice Calc (see build.ts), whose saved values are the oracle. Where Excel is
 * documented to calculate differently from LibreOffice, a definition states Excel's value for that
 * cell (`excelValues`) with the reason, and the file carries Excel's value.
 */
import type ExcelJS from 'exceljs'

/** A cached value written over LibreOffice's, where Excel's documented rule differs from LibreOffice's. */
export interface StatedValue {
  sheet: string
  address: string
  value: number | string | boolean | { error: string }
  /** Why the value is Excel's and not LibreOffice's. */
  reason: string
}

export interface OracleWorkbook {
  /** The file name without `.xlsx`. */
  name: string
  /** What the workbook exercises, for the README. */
  description: string
  /**
   * The `calcPr` attributes the saved file states. LibreOffice calculates with `calculateWith` when
   * given (tighter iteration, to save settled values, as a model recalculated many times in Excel is).
   */
  calcPr?: Record<string, string>
  calculateWith?: Record<string, string>
  build(workbook: ExcelJS.Workbook): void
  excelValues?: StatedValue[]
}

type Sheet = ExcelJS.Worksheet

function formula(sheet: Sheet, address: string, text: string): void {
  sheet.getCell(address).value = { formula: text } as ExcelJS.CellFormulaValue
}

/**
 * Five years of an LBO whose interest is charged on average debt and whose cash sweep repays it: each
 * year's interest, cash flow and repayment form a circular reference across the LBO and Debt sheets,
 * with the modeller's switch that turns the average off.
 */
function buildLbo(workbook: ExcelJS.Workbook): void {
  const model = workbook.addWorksheet('LBO')
  const debt = workbook.addWorksheet('Debt')
  const inputs: [string, string, number][] = [
    ['A12', 'Interest rate', 0.08],
    ['A13', 'Tax rate', 0.25],
    ['A15', 'Average-balance interest (1 on, 0 off)', 1],
  ]
  for (const [address, label, value] of inputs) {
    model.getCell(address).value = label
    model.getCell(address.replace('A', 'B')).value = value
  }
  model.getCell('A4').value = 'EBITDA'
  model.getCell('A5').value = 'Interest'
  model.getCell('A6').value = 'Cash flow after interest and tax'
  debt.getCell('A7').value = 'Opening debt'
  debt.getCell('A8').value = 'Closing debt'
  debt.getCell('A9').value = 'Repayment (cash sweep)'
  model.getCell('C4').value = 100
  debt.getCell('C7').value = 500
  const years = ['C', 'D', 'E', 'F', 'G']
  years.forEach((col, index) => {
    if (index > 0) {
      formula(model, `${col}4`, `${years[index - 1]}4*1.05`)
      formula(debt, `${col}7`, `${years[index - 1]}8`)
    }
    formula(model, `${col}5`, `IF($B$15=1,$B$12*AVERAGE(Debt!${col}7,Debt!${col}8),$B$12*Debt!${col}7)`)
    formula(model, `${col}6`, `${col}4*0.6-${col}5*(1-$B$13)`)
    formula(debt, `${col}8`, `${col}7-${col}9`)
    formula(debt, `${col}9`, `MAX(0,MIN(${col}7,LBO!${col}6))`)
  })
  model.getCell('A17').value = 'Debt repaid over five years'
  formula(model, 'B17', 'Debt!C7-Debt!G8')
  model.getCell('A18').value = 'Total interest'
  formula(model, 'B18', 'SUM(C5:G5)')
  model.getCell('A19').value = 'Interest cover, worst year'
  formula(model, 'B19', 'MIN(C4/C5,D4/D5,E4/E5,F4/F5,G4/G5)')
}

/** Cells that hold a hyperlink or rich text (runs of differing fonts), and formulas reading them. */
function buildLinkedText(workbook: ExcelJS.Workbook): void {
  const sheet = workbook.addWorksheet('Sources')
  sheet.getCell('A1').value = { text: 'Annual report 2024', hyperlink: 'https://example.com/annual-report.pdf' }
  sheet.getCell('A2').value = { richText: [{ text: 'Net ', font: { bold: true } }, { text: 'debt', font: { italic: true } }, { text: ' / EBITDA' }] }
  sheet.getCell('A3').value = { text: '42', hyperlink: 'https://example.com/figures#42' }
  sheet.getCell('A4').value = { text: { richText: [{ text: 'Linked ', font: { bold: true } }, { text: 'rich text' }] }, hyperlink: 'https://example.com' } as ExcelJS.CellHyperlinkValue
  sheet.getCell('A5').value = { text: 'Sheet note', hyperlink: '#Sources!A1' }
  formula(sheet, 'B1', 'LEN(A1)')
  formula(sheet, 'B2', 'UPPER(A2)')
  formula(sheet, 'B3', 'VALUE(A3)*2')
  formula(sheet, 'B4', 'A4&"!"')
  formula(sheet, 'B5', 'ISTEXT(A5)')
  formula(sheet, 'C1', 'COUNTA(A1:A5)')
  formula(sheet, 'C2', 'MATCH("Net debt / EBITDA",A1:A5,0)')
  formula(sheet, 'C3', 'VLOOKUP("linked*",A1:B5,2,FALSE)')
  formula(sheet, 'C4', 'SEARCH("report",A1)')
}

/** Excel's calcPr for iterative calculation with its default limits. */
const ITERATIVE = { iterate: '1', iterateCount: '100', iterateDelta: '0.001' }
/** What LibreOffice calculates with: tight enough that the saved values are settled to the last digit. */
const SETTLED = { iterate: '1', iterateCount: '32767', iterateDelta: '1e-12' }

export const ORACLE_WORKBOOKS: OracleWorkbook[] = [
  {
    name: 'circular-lbo',
    description:
      'An LBO with interest on average debt and a cash sweep: one circular reference per year across the LBO and Debt sheets, iterative calculation on (100 iterations, 0.001), saved settled.',
    calcPr: ITERATIVE,
    calculateWith: SETTLED,
    build: buildLbo,
  },
  {
    name: 'linked-and-rich-text',
    description:
      'Cells holding hyperlinks (to a file, to a place in the workbook, over a number written as text, over rich text) and rich text, read by text, lookup and counting formulas.',
    build: buildLinkedText,
  },
]
