/**
 * The oracle workbooks of our own: each is built here with exceljs (formulas without values), then
 * calculated by LibreOffice Calc (see build.ts), whose saved values are the oracle. Where Excel is
 * documented to calculate differently from LibreOffice, a definition states Excel's value for that
 * cell (`excelValues`) with the reason, and the file carries Excel's value.
 */
import type ExcelJS from 'exceljs'
import { builtinFunctionDefinitions, functionCatalogue } from '@finsheet/formula'
import { storedFormula } from '@finsheet/workbook'

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

/** A formula as a file stores it (newer functions with their `_xlfn.` prefix, which LibreOffice needs). */
function formula(sheet: Sheet, address: string, text: string): void {
  sheet.getCell(address).value = { formula: storedFormula(text) } as ExcelJS.CellFormulaValue
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
  sheet.getCell('A4').value = { text: { richText: [{ text: 'Linked ', font: { bold: true } }, { text: 'rich text' }] }, hyperlink: 'https://example.com' } as unknown as ExcelJS.CellHyperlinkValue
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

/** Formulas, one per row of column B with its description in column A, over the data in E1:H12. */
function buildCases(cases: readonly (readonly [string, string])[], data: (sheet: Sheet) => void) {
  return (workbook: ExcelJS.Workbook): void => {
    const sheet = workbook.addWorksheet('Cases')
    data(sheet)
    cases.forEach(([label, text], index) => {
      sheet.getCell(`A${index + 1}`).value = label
      formula(sheet, `B${index + 1}`, text)
    })
  }
}

/** A lookup table in E1:F5 (sorted numbers, with a blank and a zero further down) and text in G1:G4. */
function lookupData(sheet: Sheet): void {
  const rows: [number | null, string][] = [
    [1, 'one'],
    [3, 'three'],
    [5, 'five'],
    [null, 'blank'],
    [0, 'zero'],
  ]
  rows.forEach(([key, label], index) => {
    if (key !== null) sheet.getCell(`E${index + 1}`).value = key
    sheet.getCell(`F${index + 1}`).value = label
  })
  ;['b', 'A', 'c', 'B'].forEach((text, index) => (sheet.getCell(`G${index + 1}`).value = text))
}

const EMPTY_ARGUMENTS: [string, string][] = [
  ['VLOOKUP, range_lookup left empty: exact', 'IFERROR(VLOOKUP(4,E1:F3,2,),"none")'],
  ['VLOOKUP, range_lookup omitted: approximate', 'VLOOKUP(4,E1:F3,2)'],
  ['HLOOKUP, range_lookup left empty: exact', 'IFERROR(HLOOKUP(4,{1,3,5;"a","b","c"},2,),"none")'],
  ['MATCH, match_type left empty: exact', 'IFERROR(MATCH(4,E1:E3,),"none")'],
  ['MATCH, match_type omitted: approximate', 'MATCH(4,E1:E3)'],
  ['IF, value_if_true left empty', 'IF(TRUE,,1)'],
  ['IF, value_if_false left empty', 'IF(FALSE,1,)'],
  ['CHOOSE, chosen value left empty', 'CHOOSE(2,"a",)'],
  ['ROUND, digits left empty', 'ROUND(2.567,)'],
  ['INDEX, row left empty', 'INDEX(E1:F1,,2)'],
  ['OFFSET, rows left empty', 'OFFSET(E1,,1)'],
  ['SUM with an empty argument', 'SUM(1,,2)'],
  ['COUNT counts an empty argument', 'COUNT(1,,2)'],
  ['COUNTA counts an empty argument', 'COUNTA(1,,2)'],
  ['AVERAGE with an empty argument', 'AVERAGE(1,,2)'],
  ['MAX with an empty argument', 'MAX(-1,,-2)'],
  ['MIN with an empty argument', 'MIN(1,,2)'],
  ['PRODUCT with an empty argument', 'PRODUCT(2,,3)'],
  ['CONCATENATE with an empty argument', 'CONCATENATE("a",,"b")'],
  ['LEFT, num_chars left empty', 'LEN(LEFT("abc",))'],
  ['REPT, count left empty', 'LEN(REPT("ab",))'],
  ['PMT, fv and type left empty', 'PMT(0.01,12,1000,,)'],
  ['DATE, month left empty', 'DATE(2024,,15)'],
  ['NPV with an empty value', 'NPV(0.1,100,,100)'],
]

const EMPTY_LOOKUPS: [string, string][] = [
  ['VLOOKUP of an empty cell, exact', 'IFERROR(VLOOKUP(Z1,E1:F5,2,FALSE),"none")'],
  ['VLOOKUP of an empty cell, approximate', 'IFERROR(VLOOKUP(Z1,E1:F3,2,TRUE),"none")'],
  ['MATCH of an empty cell, exact', 'IFERROR(MATCH(Z1,E1:E5,0),"none")'],
  ['MATCH of an empty cell, approximate', 'IFERROR(MATCH(Z1,E1:E3,1),"none")'],
  ['COUNTIF of an empty cell', 'COUNTIF(E1:E5,Z1)'],
  ['COUNTIF of ""', 'COUNTIF(E1:E5,"")'],
  ['MATCH of "" exact', 'IFERROR(MATCH("",E1:E5,0),"none")'],
  ['LOOKUP of an empty cell', 'IFERROR(LOOKUP(Z1,E1:E3,F1:F3),"none")'],
  ['HLOOKUP of an empty cell, exact', 'IFERROR(HLOOKUP(Z1,{0,1;"z","o"},2,FALSE),"none")'],
]

const SORT_ORDER: [string, string][] = [
  ['MATCH approximate over mixed types', 'MATCH(2,{1,"a",3,TRUE})'],
  ['MATCH descending', 'MATCH(2,{5,3,1},-1)'],
  ['MATCH approximate of text among text', 'MATCH("b",{"a","b","c"})'],
  ['LOOKUP over text and numbers', 'LOOKUP(4,{1,3,"x",5})'],
  ['RANK of numbers beside text', 'RANK(3,{1,"a",3,5})'],
  ['SMALL skips text and logicals in a range', 'SMALL(E1:G5,2)'],
]

const NUMERIC_TEXT: [string, string][] = [
  ['text with spaces in arithmetic', '" 12 "+1'],
  ['leading plus sign', '"+5"*2'],
  ['exponent', '"1e3"+0'],
  ['currency and thousands', '"$1,234.5"+0'],
  ['percent', '"50%"*2'],
  ['parentheses as negative', '"(100)"+0'],
  ['fraction', '"1 1/2"+0'],
  ['date text', '"2024-01-31"+0'],
  ['time text', '"12:30"*24'],
  ['SQRT of numeric text', 'SQRT(" 16 ")'],
  ['ABS of a signed text', 'ABS("-3")'],
  ['VALUE of text with spaces', 'VALUE(" 1 234 ")'],
  ['SUM skips numeric text in a range', 'SUM(H1:H3)'],
  ['SUM takes numeric text as an argument', 'SUM("3",4)'],
  ['text that is not a number', 'IFERROR("12a"+0,"err")'],
  ['DATE with text arguments', 'DATE("2024","2","29")'],
  ['ROUND with a text digits argument', 'ROUND(3.14159,"2")'],
  ['AND of numeric text in a range ignored', 'AND(TRUE,H1:H3)'],
]

const PERIODS_AND_DATES: [string, string][] = [
  ['IPMT, a non-integer period', 'IPMT(0.1/12,1.5,36,8000)'],
  ['PPMT, a non-integer period', 'PPMT(0.1/12,2.7,36,8000)'],
  ['IPMT, period 0', 'IFERROR(IPMT(0.1/12,0,36,8000),"err")'],
  ['IPMT, due at the start, first period', 'IPMT(0.05,1,10,1000,0,1)'],
  ['DATE, month 14', 'DATE(2024,14,1)'],
  ['DATE, day 0', 'DATE(2024,3,0)'],
  ['DATE, negative month', 'DATE(2024,-1,1)'],
  ['DATE, two-digit year', 'DATE(99,1,1)'],
  ['DATE, year 1899 is 1899 years after 1900', 'DATE(1899,12,31)'],
  ['DATE, year 10000', 'IFERROR(DATE(10000,1,1),"err")'],
  ['DATE, negative year', 'IFERROR(DATE(-1,1,1),"err")'],
  ['DATE, fractional arguments truncate', 'DATE(2024.9,2.9,3.9)'],
  ['TIME, 25 hours wraps', 'TIME(25,0,0)'],
  ['TIME, 90 minutes', 'TIME(0,90,0)'],
  ['TIME, negative minutes within the day', 'TIME(1,-30,0)'],
  ['TIME, negative total', 'IFERROR(TIME(0,-1,0),"err")'],
  ['TIME, 32768 hours', 'IFERROR(TIME(32768,0,0),"err")'],
]

/** The top-level arguments of a call written as text, such as a catalogue example. */
export function splitCall(text: string): { name: string; args: string[] } | undefined {
  const open = text.indexOf('(')
  if (open < 0 || !text.endsWith(')')) return undefined
  const args: string[] = []
  let depth = 0
  let current = ''
  let quoted = false
  for (const ch of text.slice(open + 1, -1)) {
    if (ch === '"') quoted = !quoted
    if (!quoted && (ch === '(' || ch === '{')) depth++
    if (!quoted && (ch === ')' || ch === '}')) depth--
    if (!quoted && depth === 0 && ch === ',') {
      args.push(current.trim())
      current = ''
    } else current += ch
  }
  args.push(current.trim())
  return { name: text.slice(0, open), args }
}

/** Functions of the catalogue LibreOffice 7.4 does not calculate (#NAME? or a different meaning). */
const NOT_IN_LIBREOFFICE = new Set(
  `ARRAYTOTEXT BYCOL BYROW CHOOSECOLS CHOOSEROWS DROP EXPAND FILTER HSTACK IMAGE ISOMITTED LAMBDA LET MAKEARRAY MAP
  NETWORKDAYS.INTL WORKDAY.INTL BINOM.DIST.RANGE RANDARRAY REDUCE REGEXEXTRACT REGEXREPLACE REGEXTEST SCAN SEQUENCE SORT SORTBY STOCKHISTORY TAKE TEXTAFTER TEXTBEFORE
  TEXTSPLIT TOCOL TOROW TRIMRANGE UNIQUE VALUETOTEXT VSTACK WRAPCOLS WRAPROWS XLOOKUP XMATCH GROUPBY PIVOTBY PERCENTOF
  CELL INFO RAND RANDBETWEEN NOW TODAY HYPERLINK INDIRECT OFFSET`.split(/\s+/),
)

/**
 * Cases of the catalogue sweep where LibreOffice differs from Excel's documented or saved behaviour:
 * the file carries Excel's value.
 */
const CATALOGUE_EXCEL_VALUES: Record<string, { value: number | string | { error: string }; reason: string }> = {
  'DURATION(DATE(2018,7,1), DATE(2048,1,1), 8%, 9%, 2, 1)': { value: 10.919145281591925, reason: "Excel's documented example: 10.9191" },
  'MDURATION(DATE(2018,7,1), DATE(2048,1,1), 8%, 9%, 2, 1)': { value: 10.448942853198016, reason: "Excel's documented example: 10.4488" },
  'ODDFPRICE(DATE(2008,11,11), DATE(2021,3,1), DATE(2008,10,15), DATE(2009,3,1), 7.85%, 6.25%, 100, 2, 1)': {
    value: 113.59771747407883,
    reason: "Excel's documented example: 113.597717; LibreOffice gives #VALUE!",
  },
  'ODDFYIELD(DATE(2008,11,11), DATE(2021,3,1), DATE(2008,10,15), DATE(2009,3,1), 5.75%, 84.5, 100, 2, 0)': {
    value: 0.0772455415978185,
    reason: "Excel's documented example: 7.72%; LibreOffice gives #VALUE!",
  },
  'GCD(24,)': { value: { error: '#N/A' }, reason: 'Excel gives #N/A for an argument of GCD, LCM or MULTINOMIAL left empty (GCD_LCM.xlsx of the shared oracle)' },
  'LCM(4,)': { value: { error: '#N/A' }, reason: 'as GCD' },
  'MULTINOMIAL(2,,4)': { value: { error: '#N/A' }, reason: 'as GCD' },
  'MULTINOMIAL(2,3,)': { value: { error: '#N/A' }, reason: 'as GCD' },
  'MODE(A1:A10)': { value: { error: '#N/A' }, reason: 'Excel: a data set without a repeated value is #N/A' },
  'MODE.SNGL(A1:A10)': { value: { error: '#N/A' }, reason: 'as MODE' },
  'MODE.MULT(A1:A10)': { value: { error: '#N/A' }, reason: 'as MODE' },
  'SHEET("Assumptions")': { value: { error: '#N/A' }, reason: 'Excel: a name that is no sheet of the workbook is #N/A' },
  'IRR(A2:A6)': { value: { error: '#NUM!' }, reason: 'Excel: cash flows without a sign change have no IRR, #NUM!' },
  'PROB(A1:A4, B1:B4, 1, 3)': { value: { error: '#NUM!' }, reason: 'Excel: probabilities that do not add up to 1 are #NUM!' },
  'PROB(A1:A4,B1:B4,1,)': { value: { error: '#NUM!' }, reason: 'as PROB' },
  'OCT2BIN("1100100", 8)': { value: { error: '#NUM!' }, reason: 'Excel: an octal number past 777 has no 10-bit binary, #NUM!' },
  'OCT2BIN("1100100",)': { value: { error: '#NUM!' }, reason: 'as OCT2BIN' },
  'PERCENTRANK.EXC(A1:A10, 4)': { value: 0.181, reason: 'Excel truncates the rank to its significance (0.1818… is 0.181); LibreOffice rounds' },
  'WEEKNUM(A1, 2)': {
    value: 2,
    reason: "Serial 8 is Sunday 8 January 1900 in Excel's calendar (which counts 29 February 1900), the 7th in LibreOffice's",
  },
  'BETA.DIST(2,8,10,TRUE,1,)': { value: { error: '#NUM!' }, reason: 'B left empty is 0, below A: Excel gives #NUM! for a bound outside [A, B]' },
  'BETA.INV(0.685470581,8,10,1,)': { value: { error: '#NUM!' }, reason: 'as BETA.DIST' },
  'BETADIST(2,8,10,1,)': { value: { error: '#NUM!' }, reason: 'as BETA.DIST' },
  'BETAINV(0.685470581,8,10,1,)': { value: { error: '#NUM!' }, reason: 'as BETA.DIST' },
}

/**
 * Cases left out: LibreOffice applies the omitted argument's default (or another rule) where the rule
 * that an empty argument is 0 gives another answer, and no Excel file at hand settles which Excel gives.
 */
const UNSETTLED_CASES = new Set([
  'AVERAGEIF(A1:A10,">5",)',
  'SUMIF(A1:A10,">5",)',
  'CEILING.MATH(-5.5,,-1)',
  'CEILING.PRECISE(-4.3,)',
  'FLOOR.MATH(-5.5,,-1)',
  'FLOOR.PRECISE(-3.2,)',
  'ISO.CEILING(4.3,)',
  'FIXED(1234.567,)',
  'DB(1000000,100000,6,1,)',
  'INTRATE(DATE(2008,2,15),DATE(2008,5,15),1000000,1014420,)',
  'PRICEDISC(DATE(2008,2,16),DATE(2008,3,1),5.25%,100,)',
  'RECEIVED(DATE(2008,2,15),DATE(2008,5,15),1000000,5.75%,)',
  'IFS(A1>=90,"A",A1>=80,"B",TRUE,)',
  'SWITCH(A1,1,"One",2,"Two",)',
  'WEEKDAY(A1,)',
  'WEEKNUM(A1,)',
  'LOG(8,)',
  'ODDFPRICE(DATE(2008,11,11),DATE(2021,3,1),DATE(2008,10,15),DATE(2009,3,1),7.85%,6.25%,100,2,)',
  'ODDFYIELD(DATE(2008,11,11),DATE(2021,3,1),DATE(2008,10,15),DATE(2009,3,1),5.75%,84.5,100,2,)',
  'XIRR(A2:A6, B2:B6)',
  'XIRR(A2:A6,B2:B6,)',
])

/** Functions whose value comes from outside the workbook, or that Finsheet keeps from the file: nothing to compare. */
const OUTSIDE_THE_WORKBOOK = new Set(
  builtinFunctionDefinitions.filter((definition) => definition.savedValue !== undefined).map((definition) => definition.name),
)

/**
 * For each function of the catalogue with optional arguments, its example as written and with each
 * optional argument the example gives left empty: Excel reads an empty argument as 0, FALSE or "",
 * not as the omitted argument's default.
 */
function catalogueEmptyArguments(): [string, string][] {
  const cases: [string, string][] = []
  for (const entry of functionCatalogue()) {
    if (entry.maxArgs <= entry.minArgs || NOT_IN_LIBREOFFICE.has(entry.name) || OUTSIDE_THE_WORKBOOK.has(entry.name)) continue
    const call = splitCall(entry.example)
    if (!call || call.name !== entry.name) continue
    const texts = [entry.example]
    for (let index = entry.minArgs; index < call.args.length; index++) {
      texts.push(`${entry.name}(${call.args.map((arg, i) => (i === index ? '' : arg)).join(',')})`)
    }
    texts.forEach((text, i) => {
      if (!UNSETTLED_CASES.has(text)) cases.push([i === 0 ? `${entry.name} as in the catalogue` : `${entry.name} with an argument left empty`, text])
    })
  }
  return cases
}

const CATALOGUE_CASES = catalogueEmptyArguments()

/** Numbers in A1:J20 for the catalogue's examples to read. */
function exampleData(sheet: Sheet): void {
  for (let row = 1; row <= 20; row++) {
    for (let col = 0; col < 10; col++) sheet.getCell(row, col + 1).value = ((row * 7 + col * 13) % 23) + 1
  }
}

/**
 * A DCF's sensitivity tables: enterprise value by discount rate and terminal growth (two variables),
 * and by discount rate alone for two outputs (one variable, down a column), over a five-year model.
 */
function buildSensitivity(workbook: ExcelJS.Workbook): void {
  const sheet = workbook.addWorksheet('DCF')
  const inputs: [string, string, number][] = [
    ['A1', 'Discount rate', 0.09],
    ['A2', 'Terminal growth', 0.02],
    ['A3', 'Revenue growth', 0.05],
    ['A4', 'EBITDA margin', 0.3],
  ]
  for (const [address, label, value] of inputs) {
    sheet.getCell(address).value = label
    sheet.getCell(address.replace('A', 'B')).value = value
  }
  sheet.getCell('A6').value = 'Year'
  sheet.getCell('A7').value = 'Revenue'
  sheet.getCell('A8').value = 'Free cash flow'
  sheet.getCell('A9').value = 'Discounted'
  const years = ['C', 'D', 'E', 'F', 'G']
  years.forEach((col, index) => {
    sheet.getCell(`${col}6`).value = index + 1
    formula(sheet, `${col}7`, index === 0 ? '1000*(1+$B$3)' : `${years[index - 1]}7*(1+$B$3)`)
    formula(sheet, `${col}8`, `${col}7*$B$4*0.6`)
    formula(sheet, `${col}9`, `${col}8/(1+$B$1)^${col}6`)
  })
  sheet.getCell('A11').value = 'Terminal value'
  formula(sheet, 'B11', 'G8*(1+B2)/(B1-B2)/(1+B1)^5')
  sheet.getCell('A12').value = 'Enterprise value'
  formula(sheet, 'B12', 'SUM(C9:G9)+B11')
  sheet.getCell('A13').value = 'Terminal share'
  formula(sheet, 'B13', 'B11/B12')
  // Two variables: growth across row 15, discount rates down column A, the formula at A15.
  formula(sheet, 'A15', 'B12')
  ;[0.01, 0.02, 0.03].forEach((growth, index) => (sheet.getCell(15, 2 + index).value = growth))
  ;[0.08, 0.09, 0.1, 0.11].forEach((rate, index) => (sheet.getCell(16 + index, 1).value = rate))
  sheet.getCell('B16').value = { formula: 'TABLE(B2,B1)', shareType: 'array', ref: 'B16:D19' } as ExcelJS.CellFormulaValue
  // One variable down a column: discount rates in F, two outputs along row 21.
  formula(sheet, 'G21', 'B12')
  formula(sheet, 'H21', 'B13')
  ;[0.07, 0.09, 0.12].forEach((rate, index) => (sheet.getCell(22 + index, 6).value = rate))
  sheet.getCell('G22').value = { formula: 'TABLE(,B1)', shareType: 'array', ref: 'G22:H24' } as ExcelJS.CellFormulaValue
  // One variable along a row: margins along row 26, the output down column F.
  ;[0.25, 0.35].forEach((margin, index) => (sheet.getCell(26, 7 + index).value = margin))
  formula(sheet, 'F27', 'B12')
  sheet.getCell('G27').value = { formula: 'TABLE(B4,)', shareType: 'array', ref: 'G27:H27' } as ExcelJS.CellFormulaValue
  formula(sheet, 'J1', 'MAX(B16:D19)-MIN(B16:D19)')
}

/** Excel's calcPr for iterative calculation with its default limits. */
const ITERATIVE = { iterate: '1', iterateCount: '100', iterateDelta: '0.001' }
/** What LibreOffice calculates with: tight enough that the saved values are settled to the last digit. */
const SETTLED = { iterate: '1', iterateCount: '32767', iterateDelta: '1e-12' }

/**
 * An Excel table with a calculated column and a totals row, a second table beside the references, and
 * structured references of every form to them from another sheet, each beside its text. (LibreOffice
 * saves a table without a header row as one with it, so that case is left to the engine's own tests.)
 */
const TABLE_REFERENCES: [string, string][] = [
  ['B1', 'SUM(Sales[Units])'],
  ['B2', 'Sales[[#Headers],[Unit Price]]'],
  ['B3', 'Sales[[#Totals],[Amount]]'],
  ['B4', 'ROWS(Sales[[#All],[Units]])'],
  ['B5', 'ROWS(Sales[])'],
  ['B6', 'SUM(Sales[[Units]:[Unit Price]])'],
  ['B7', 'SUMPRODUCT(Sales[Units],Sales[Unit Price])'],
  ['B8', 'INDEX(Sales[Region],MATCH(MAX(Sales[Amount]),Sales[Amount],0))'],
  ['B9', 'SUM(Sales[[#Data],[#Totals],[Units]])'],
  ['B10', 'ROWS(Sales[[#Headers],[#Data],[Region]])'],
  ['B11', 'SUMIFS(Sales[Amount],Sales[Units],">15")'],
  ['B12', 'Sales[[#This Row],[Units]]*2'],
  ['B13', 'SUM(Rates[Rate])'],
  ['B14', 'VLOOKUP("East",Sales[#All],3,FALSE)'],
  ['B15', 'ROWS(Sales[#Data])'],
  ['B16', 'ROWS(Sales)'],
  ['B17', 'COUNTA(Sales[#Headers])'],
]

function buildTables(workbook: ExcelJS.Workbook): void {
  const data = workbook.addWorksheet('Data')
  const rows: [string, number, number][] = [
    ['North', 10, 2.5],
    ['South', 20, 3],
    ['East', 30, 4],
    ['West', 40, 1.5],
  ]
  data.addTable({
    name: 'Sales',
    ref: 'A1',
    headerRow: true,
    totalsRow: true,
    style: { theme: 'TableStyleMedium2', showRowStripes: true },
    columns: [
      { name: 'Region', totalsRowLabel: 'Total' },
      { name: 'Units', totalsRowFunction: 'sum' },
      { name: 'Unit Price' },
      { name: 'Amount', totalsRowFunction: 'sum' },
    ],
    rows: rows.map(([region, units, price]) => [region, units, price, { formula: storedFormula('Sales[@Units]*Sales[@[Unit Price]]') } as ExcelJS.CellFormulaValue]),
  })
  const report = workbook.addWorksheet('Report')
  for (const [address, text] of TABLE_REFERENCES) {
    report.getCell(address.replace('B', 'A')).value = text
    formula(report, address, text)
  }
  report.addTable({
    name: 'Rates',
    ref: 'D1',
    headerRow: true,
    columns: [{ name: 'Rate' }],
    rows: [[0.25], [0.5], [0.75]],
  })
}

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
  {
    name: 'structured-references',
    description:
      'Excel tables (one with a calculated column and a totals row) and structured references of every form to them: columns, spans of columns, #All, #Data, #Headers, #Totals, this row outside the table, the bare table name.',
    build: buildTables,
    excelValues: [
      {
        sheet: 'Report',
        address: 'B14',
        value: 4,
        reason: 'Excel reads Sales[#All] as the whole table (East is found, its unit price is 4); LibreOffice cannot read a special item in single brackets.',
      },
      {
        sheet: 'Report',
        address: 'B15',
        value: 4,
        reason: 'Excel reads a special item in single brackets (Sales[#Data]) as the data rows; LibreOffice gives #NAME? for it.',
      },
      {
        sheet: 'Report',
        address: 'B16',
        value: 4,
        reason: "Excel's bare table name is its data rows, header and totals left out; LibreOffice counts the whole table.",
      },
      {
        sheet: 'Report',
        address: 'B17',
        value: 4,
        reason: 'Excel reads Sales[#Headers] as the header row; LibreOffice gives #NAME? for a special item in single brackets.',
      },
    ],
  },
  {
    name: 'data-tables',
    description:
      "A DCF's what-if data tables: a two-variable table (discount rate by terminal growth), one-variable tables down a column (two outputs) and along a row, and a formula reading a table's results.",
    build: buildSensitivity,
  },
  {
    name: 'edge-empty-arguments',
    description: 'Arguments present but left empty (VLOOKUP(x, t, 2, ) is an exact match) beside omitted ones, and lookups of an empty cell.',
    build: buildCases([...EMPTY_ARGUMENTS, ...EMPTY_LOOKUPS], lookupData),
  },
  {
    name: 'edge-sort-and-text',
    description: 'The order of mixed types and errors in SORT, SORTBY and approximate MATCH; numeric text with spaces, signs, exponents, currency, percent and dates as arguments.',
    build: buildCases([...SORT_ORDER, ...NUMERIC_TEXT], (sheet) => {
      lookupData(sheet)
      sheet.getCell('H1').value = '5'
      sheet.getCell('H2').value = 7
      sheet.getCell('H3').value = ' 9 '
    }),
    excelValues: [
      {
        sheet: 'Cases',
        address: `B${SORT_ORDER.length + NUMERIC_TEXT.findIndex(([, text]) => text === 'SUM("3",4)') + 1}`,
        value: 7,
        reason: "Excel's SUM counts text representations of numbers typed into its list of arguments; LibreOffice gives #VALUE!.",
      },
    ],
  },
  {
    name: 'edge-catalogue-empty-arguments',
    description:
      "Every catalogue function with optional arguments that LibreOffice knows, its example as written and with each optional argument left empty, over numbers in A1:J20.",
    build: (workbook) => {
      const sheet = workbook.addWorksheet('Cases')
      exampleData(sheet)
      CATALOGUE_CASES.forEach(([label, text], index) => {
        sheet.getCell(`L${index + 1}`).value = label
        formula(sheet, `M${index + 1}`, text)
      })
    },
    excelValues: CATALOGUE_CASES.flatMap(([, text], index) => {
      const stated = CATALOGUE_EXCEL_VALUES[text]
      return stated ? [{ sheet: 'Cases', address: `M${index + 1}`, value: stated.value, reason: stated.reason }] : []
    }),
  },
  {
    name: 'edge-periods-and-dates',
    description: 'IPMT and PPMT with non-integer periods; DATE and TIME past their valid range.',
    build: buildCases(PERIODS_AND_DATES, () => undefined),
    excelValues: [
      {
        sheet: 'Cases',
        address: `B${PERIODS_AND_DATES.findIndex(([, text]) => text === 'DATE(1899,12,31)') + 1}`,
        value: 693962,
        reason: 'Excel adds a year from 0 to 1899 to 1900 (DATE(1899,12,31) is 31 December 3799); LibreOffice takes 1899 as it is.',
      },
      {
        sheet: 'Cases',
        address: `B${PERIODS_AND_DATES.findIndex(([, text]) => text.startsWith('IFERROR(DATE(10000')) + 1}`,
        value: 'err',
        reason: 'Excel returns #NUM! for a year past 9999; LibreOffice calculates a date.',
      },
      {
        sheet: 'Cases',
        address: `B${PERIODS_AND_DATES.findIndex(([, text]) => text.startsWith('IFERROR(TIME(32768')) + 1}`,
        value: 'err',
        reason: "Excel's TIME takes hours, minutes and seconds up to 32767 and returns #NUM! beyond; LibreOffice wraps them.",
      },
    ],
  },
]
