/**
 * The offline planner's phrasings: each command runs through runConversation with the planner as the
 * model and the agent's tools answered by the spreadsheet service built in this process, its
 * changeset is applied, and the workbook is read back. Every case checks the cells it should change,
 * and that no other cell's input changed (structural commands, which move cells, check their own).
 */
import { fileURLToPath } from 'node:url'
import { buildFinancialModel, templateSheets } from '@finsheet/workbook'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runAgentCommand, type AgentOutcome } from '../agent-eval/agent-run.js'
import { startInProcessSpreadsheet, type InProcessSpreadsheet } from '../agent-eval/spreadsheet-api.js'
import { changedInputs, fixtureBody, importWorkbook, readWorkbook, type WorkbookCells } from '../agent-eval/workbook-cells.js'

const fixture = (name: string) => fixtureBody(fileURLToPath(new URL(`../agent-tasks/workbooks/${name}.json`, import.meta.url)))
const BOOKS = { acme: fixture('acme'), sales: fixture('sales'), audit: fixture('audit'), titled: fixture('titled') }

interface Case {
  say: string
  book?: keyof typeof BOOKS
  active?: string
  selection?: string
  /** Inputs the cells hold afterwards (what a user would see in the formula bar). */
  inputs?: Record<string, string>
  /** Values the cells show afterwards (numbers to 6 decimals). */
  values?: Record<string, string | number | boolean | null>
  /** The cells whose input changed, exactly (default: the keys of `inputs` and `values`); 'any' for commands that move cells. */
  written?: string[] | 'any'
  check?: (book: WorkbookCells, outcome: AgentOutcome, before: WorkbookCells) => void
}

const fmt = (book: WorkbookCells, ref: string) => book.cells.get(ref)?.format
const style = (book: WorkbookCells, ref: string) => book.cells.get(ref)?.style ?? {}
const answerSays = (...parts: string[]) => (_: WorkbookCells, outcome: AgentOutcome) => {
  for (const part of parts) expect(outcome.message).toContain(part)
}
const noChange: Case['check'] = (book, outcome, before) => {
  expect(changedInputs(before, book)).toEqual([])
  expect(outcome.changesetId).toBeNull()
  expect(outcome.toolCalls.filter((call) => !['get_workbook_overview', 'read_range', 'search_workbook', 'explain_formula', 'audit_workbook'].includes(call.name))).toEqual([])
}

// Revenue 1000 growing 10% a year: the model's figures before any change.
const CASES: Record<string, Case[]> = {
  'set values and formulas': [
    { say: 'set Inputs!B2 to 15%', inputs: { 'Inputs!B2': '15%' }, values: { 'Inputs!B2': 0.15, 'Model!C2': 1150 }, written: ['Inputs!B2'] },
    { say: 'Please set Inputs!B4 to 25%.', values: { 'Inputs!B4': 0.25 } },
    { say: 'change Inputs!B3 to 0.3', values: { 'Inputs!B3': 0.3 } },
    { say: 'update Model!B2 to 1,250', values: { 'Model!B2': 1250, 'Model!C2': 1375 }, written: ['Model!B2'] },
    { say: 'make Model!B2 equal to 1100', values: { 'Model!B2': 1100 } },
    { say: 'make Model!B2 900', values: { 'Model!B2': 900 } },
    { say: 'make the WACC 8.5%', values: { 'Inputs!B5': 0.085 } },
    // "terminal growth 2%" is the line's value, not growth of a line called "make the terminal".
    { say: 'make the terminal growth 2%', values: { 'Inputs!B6': 0.02 } },
    { say: 'Model!B2 = 1200', values: { 'Model!B2': 1200 } },
    { say: 'put 1500 in Model!B2', values: { 'Model!B2': 1500 } },
    { say: 'enter 0.5 into cell Inputs!B3', values: { 'Inputs!B3': 0.5 } },
    { say: 'type 3.5% into Inputs!B6', values: { 'Inputs!B6': 0.035 } },
    { say: 'put =SUM(B2:E2) in F2', active: 'Model', inputs: { 'Model!F2': '=SUM(B2:E2)' }, values: { 'Model!F2': 1000 + 1100 + 1210 + 1331 } },
    { say: 'set F5 to =SUM(B5:E5)', active: 'Model', inputs: { 'Model!F5': '=SUM(B5:E5)' } },
    { say: 'set the formula in F3 to SUM(B3:E3)', active: 'Model', inputs: { 'Model!F3': '=SUM(B3:E3)' }, values: { 'Model!F3': 0.25 * 4641 } },
    { say: 'set B2 to 2000', active: 'Model', values: { 'Model!B2': 2000 } },
    { say: 'set Inputs!B2 to 0.12', values: { 'Inputs!B2': 0.12 } },
    { say: 'set Inputs!C2:C4 to 0', values: { 'Inputs!C2': 0, 'Inputs!C3': 0, 'Inputs!C4': 0 } },
    { say: 'set Model!F2:F3 to =B2*2', inputs: { 'Model!F2': '=B2*2', 'Model!F3': '=B3*2' } },
  ],
  'values by label': [
    { say: 'set growth to 15%', values: { 'Inputs!B2': 0.15 } },
    { say: 'set the tax rate to 25%', values: { 'Inputs!B4': 0.25 } },
    { say: 'change revenue growth to 12 percent', values: { 'Inputs!B2': 0.12 } },
    { say: 'set the tax rate on Inputs to 30%', values: { 'Inputs!B4': 0.3 } },
    { say: 'set revenue for FY2024 to 1,100', values: { 'Model!B2': 1100 } },
    { say: 'set FY2024 revenue to 1200', values: { 'Model!B2': 1200 } },
    { say: 'set the WACC to 8.5%', values: { 'Inputs!B5': 0.085 } },
    { say: 'can you set terminal growth to 3%?', values: { 'Inputs!B6': 0.03 } },
    // A calculated line set to a number: the answer says its formula is gone.
    { say: 'set the enterprise value to 5000', values: { 'Valuation!B1': 5000 }, check: answerSays('B1 held the formula =NPV(Inputs!B5,Model!B5:E5)', 'no longer follows its inputs') },
    { say: 'update the EBITDA margin to 30%', values: { 'Inputs!B3': 0.3 } },
    { say: 'set the discount rate to 10%', values: { 'Inputs!B5': 0.1 } },
    { say: 'change tax to 19%', values: { 'Inputs!B4': 0.19 } },
  ],
  'text': [
    // Words naming a one-value line, in a value column, link to it; in the label column they are a label.
    { say: 'set Valuation!D1 to the enterprise value', inputs: { 'Valuation!D1': '=B1' }, check: answerSays('Enterprise value (Valuation!B1)') },
    { say: 'set Model!G2 to the WACC', inputs: { 'Model!G2': '=Inputs!B5' } },
    { say: 'set Model!A9 to WACC', inputs: { 'Model!A9': 'WACC' } },
    { say: 'set Model!G2 to "WACC"', inputs: { 'Model!G2': 'WACC' } },
    { say: 'link Valuation!D1 to the enterprise value', inputs: { 'Valuation!D1': '=B1' } },
    { say: 'write Total in Model!A9', values: { 'Model!A9': 'Total' } },
    { say: 'type "Notes" in Model!G1', values: { 'Model!G1': 'Notes' } },
    { say: 'label Model!A9 Total FCF', values: { 'Model!A9': 'Total FCF' } },
    { say: 'put the text "Scenario" in Inputs!D1', values: { 'Inputs!D1': 'Scenario' } },
    { say: 'set Model!G1 to "Comment"', values: { 'Model!G1': 'Comment' } },
    { say: 'set Model!G1 to Reviewed by analyst', values: { 'Model!G1': 'Reviewed by analyst' } },
    { say: "write 'Base case' in Inputs!C1", values: { 'Inputs!C1': 'Base case' } },
  ],
  'adjust': [
    { say: 'increase Model!B2 by 10%', values: { 'Model!B2': 1100 } },
    { say: 'decrease the tax rate by 2 points', values: { 'Inputs!B4': 0.19 } },
    { say: 'raise growth by 50 bps', values: { 'Inputs!B2': 0.105 } },
    { say: 'cut Model!B2 by 100', values: { 'Model!B2': 900 } },
    // "add 5 to B2" adds to what is there; it never types 5 over it.
    { say: 'add 50 to Model!B2', values: { 'Model!B2': 1050 } },
    { say: 'subtract 100 from Model!B2', values: { 'Model!B2': 900 } },
    { say: 'add 2 points to the tax rate', values: { 'Inputs!B4': 0.23 } },
    { say: 'increase all prices by 10%', book: 'sales', active: 'Sales', values: { 'Sales!C2': 11, 'Sales!C7': 8.8 }, written: ['Sales!C2', 'Sales!C3', 'Sales!C4', 'Sales!C5', 'Sales!C6', 'Sales!C7'] },
  ],
  'fill': [
    { say: 'fill E2 right to G2', active: 'Model', inputs: { 'Model!F2': '=E2*(1+Inputs!$B$2)', 'Model!G2': '=F2*(1+Inputs!$B$2)' }, values: { 'Model!G2': 1000 * 1.1 ** 5 } },
    { say: 'copy the formula in E3 right to F3', active: 'Model', inputs: { 'Model!F3': '=F2*Inputs!$B$3' } },
    { say: 'extend the formula in E5 across to G5', active: 'Model', inputs: { 'Model!F5': '=F3+F4', 'Model!G5': '=G3+G4' } },
    { say: 'fill the revenue row to column G', active: 'Model', inputs: { 'Model!F2': '=E2*(1+Inputs!$B$2)', 'Model!G2': '=F2*(1+Inputs!$B$2)' } },
    { say: 'fill E2 down to E7', book: 'sales', inputs: { 'Sales!E3': '=D3/SUM($D$2:$D$7)', 'Sales!E7': '=D7/SUM($D$2:$D$7)' }, values: { 'Sales!E7': 1600 / 7110 }, written: ['Sales!E3', 'Sales!E4', 'Sales!E5', 'Sales!E6', 'Sales!E7'] },
    { say: 'copy E2 down through E7', book: 'sales', values: { 'Sales!E4': 1350 / 7110 }, written: ['Sales!E3', 'Sales!E4', 'Sales!E5', 'Sales!E6', 'Sales!E7'] },
    { say: 'fill E2 down', book: 'sales', values: { 'Sales!E7': 1600 / 7110 }, written: ['Sales!E3', 'Sales!E4', 'Sales!E5', 'Sales!E6', 'Sales!E7'] },
    { say: 'fill down column E', book: 'sales', values: { 'Sales!E5': 900 / 7110 }, written: ['Sales!E3', 'Sales!E4', 'Sales!E5', 'Sales!E6', 'Sales!E7'] },
    { say: 'drag E2 down to E4', book: 'sales', inputs: { 'Sales!E3': '=D3/SUM($D$2:$D$7)', 'Sales!E4': '=D4/SUM($D$2:$D$7)' } },
    { say: 'copy B2:B4 to F2:F4', book: 'sales', values: { 'Sales!F2': 120, 'Sales!F3': 80, 'Sales!F4': 150 } },
    // A whole row copied to another lands there alone: the rows between keep what they hold.
    { say: 'copy row 2 to row 8', active: 'Model', inputs: { 'Model!C8': '=B8*(1+Inputs!$B$2)' }, values: { 'Model!A8': 'Revenue', 'Model!B8': 1000, 'Model!E8': 1331 }, written: ['Model!A8', 'Model!B8', 'Model!C8', 'Model!D8', 'Model!E8'] },
    // A line named by its label goes to the row named, label and all (formulas shift as a copy shifts them).
    { say: 'copy the EBITDA row to row 9', active: 'Model', inputs: { 'Model!A9': 'EBITDA', 'Model!B9': '=B8*Inputs!$B$3', 'Model!E9': '=E8*Inputs!$B$3' }, written: ['Model!A9', 'Model!B9', 'Model!C9', 'Model!D9', 'Model!E9'] },
    { say: 'copy column B to column F', active: 'Model', written: 'any', check: (book, _outcome, before) => {
      expect(book.cells.get('Model!F1')?.value).toBe('FY2024')
      expect(book.cells.get('Model!F3')?.input).toBe('=F2*Inputs!$B$3')
      expect(changedInputs(before, book).every((ref) => ref.startsWith('Model!F'))).toBe(true)
    } },
  ],
  'rows and columns': [
    { say: 'insert a row above row 3', active: 'Model', written: 'any', check: (book) => {
      expect(book.cells.get('Model!A4')?.value).toBe('EBITDA')
      expect(book.cells.has('Model!A3')).toBe(false)
      expect(book.cells.get('Model!B6')?.input).toBe('=B4+B5')
    } },
    { say: 'insert 2 rows below row 2', active: 'Model', written: 'any', check: (book) => expect(book.cells.get('Model!A5')?.value).toBe('EBITDA') },
    { say: 'add a row after row 5', active: 'Model', written: 'any', check: (book) => expect(book.cells.get('Model!A8')?.value).toBe('Notes') },
    { say: 'insert a blank row above EBITDA', written: 'any', check: (book) => expect(book.cells.get('Model!A4')?.value).toBe('EBITDA') },
    { say: 'insert a column before C', active: 'Model', written: 'any', check: (book) => {
      expect(book.cells.has('Model!C1')).toBe(false)
      expect(book.cells.get('Model!D1')?.value).toBe('FY2025')
      expect(book.cells.get('Model!D2')?.input).toBe('=B2*(1+Inputs!$B$2)')
    } },
    { say: 'add 2 columns after B', active: 'Model', written: 'any', check: (book) => expect(book.cells.get('Model!E1')?.value).toBe('FY2025') },
    // "FY2025" reads like an address (column FY, row 2025): the header that says so wins.
    { say: 'insert a column before FY2025', active: 'Model', written: 'any', check: (book) => {
      expect(book.cells.has('Model!C1')).toBe(false)
      expect(book.cells.get('Model!D1')?.value).toBe('FY2025')
    } },
    { say: 'insert column D', active: 'Model', written: 'any', check: (book) => expect(book.cells.get('Model!E1')?.value).toBe('FY2026') },
    { say: 'delete row 7', active: 'Model', written: 'any', check: (book) => {
      expect(book.cells.has('Model!A7')).toBe(false)
      expect(book.cells.get('Model!A5')?.value).toBe('Free cash flow')
    } },
    { say: 'remove rows 6 to 7', active: 'Model', written: 'any', check: (book) => expect([...book.cells.keys()].filter((ref) => ref.startsWith('Model!') && /[67]$/.test(ref))).toEqual([]) },
    { say: 'delete the Notes row', written: 'any', check: (book) => expect(book.cells.has('Model!B7')).toBe(false) },
    { say: 'delete column E', active: 'Model', written: 'any', check: (book) => {
      expect(book.cells.has('Model!E1')).toBe(false)
      expect(book.cells.get('Valuation!B1')?.input).toBe('=NPV(Inputs!B5,Model!B5:D5)')
    } },
    { say: 'remove columns D through E', active: 'Model', written: 'any', check: (book) => expect(book.cells.get('Model!C1')?.value).toBe('FY2025') },
    { say: 'delete rows 6-7', book: 'sales', active: 'Sales', written: 'any', check: (book) => expect(book.cells.has('Sales!A6')).toBe(false) },
    { say: 'delete the row labelled Online', book: 'sales', written: 'any', check: (book) => {
      expect(book.cells.has('Sales!A7')).toBe(false)
      expect(book.cells.get('Sales!A6')?.value).toBe('Central')
    } },
  ],
  'sheets': [
    { say: 'add a sheet called Summary', written: [], check: (book) => expect(book.sheets).toEqual(['Inputs', 'Model', 'Valuation', 'Summary']) },
    { say: 'add a new sheet named "Q1 Data"', written: [], check: (book) => expect(book.sheets).toContain('Q1 Data') },
    { say: 'create a sheet Scratchpad', written: [], check: (book) => expect(book.sheets).toContain('Scratchpad') },
    { say: 'new sheet Outputs', written: [], check: (book) => expect(book.sheets).toContain('Outputs') },
    { say: 'add sheet', written: [], check: (book) => expect(book.sheets).toEqual(['Inputs', 'Model', 'Valuation', 'Sheet4']) },
    { say: 'rename Valuation to Outputs', written: 'any', check: (book) => expect(book.sheets).toEqual(['Inputs', 'Model', 'Outputs']) },
    // No sheet has the name, a line does: its label changes.
    { say: 'rename revenue to Net revenue', values: { 'Model!A2': 'Net revenue' }, check: (book) => expect(book.sheets).toEqual(['Inputs', 'Model', 'Valuation']) },
    { say: 'rename the sheet "Inputs" as Assumptions', written: 'any', check: (book) => {
      expect(book.sheets[0]).toBe('Assumptions')
      expect(book.cells.get('Model!C2')?.input).toBe('=B2*(1+Assumptions!$B$2)')
      expect(book.cells.get('Model!C2')?.value).toBeCloseTo(1100, 9)
    } },
    { say: 'rename this sheet to Forecast', active: 'Model', written: 'any', check: (book) => expect(book.sheets).toEqual(['Inputs', 'Forecast', 'Valuation']) },
    { say: 'rename the Model tab to Projections', written: 'any', check: (book) => expect(book.sheets).toContain('Projections') },
    { say: 'delete the sheet Valuation', written: 'any', check: (book) => expect(book.sheets).toEqual(['Inputs', 'Model']) },
    { say: 'remove the Scratch tab', book: 'sales', written: 'any', check: (book) => expect(book.sheets).toEqual(['Sales']) },
    { say: 'delete this sheet', book: 'sales', active: 'Scratch', written: 'any', check: (book) => expect(book.sheets).toEqual(['Sales']) },
  ],
  'formats': [
    { say: 'make row 1 bold', active: 'Model', written: [], check: (book) => expect(style(book, 'Model!C1').bold).toBe(true) },
    { say: 'bold Model!A1:E1', written: [], check: (book) => expect(style(book, 'Model!E1').bold).toBe(true) },
    { say: 'make the header row bold', active: 'Model', written: [], check: (book) => expect(style(book, 'Model!B1').bold).toBe(true) },
    { say: 'make Model!A2:E2 bold and italic', written: [], check: (book) => expect(style(book, 'Model!C2')).toMatchObject({ bold: true, italic: true }) },
    { say: 'format Model!B2:E2 as currency', written: [], check: (book) => expect(fmt(book, 'Model!C2')).toBe('$#,##0.00') },
    { say: 'format column B as dollars', active: 'Model', written: [], check: (book) => expect(fmt(book, 'Model!B2')).toBe('$#,##0.00') },
    { say: 'show Inputs!B2:B6 as percentages', written: [], check: (book) => expect(fmt(book, 'Inputs!B6')).toBe('0.0%') },
    { say: 'format growth as a percentage with 2 decimals', written: [], check: (book) => expect(fmt(book, 'Inputs!B2')).toBe('0.00%') },
    { say: 'format Model!B5:E5 with 2 decimals', written: [], check: (book) => expect(fmt(book, 'Model!E5')).toBe('#,##0.00') },
    { say: 'set 1 decimal place on Model!B3:E3', written: [], check: (book) => expect(fmt(book, 'Model!B3')).toBe('#,##0.0') },
    { say: 'format Model!B2:E5 as numbers with thousands separators', written: [], check: (book) => expect(fmt(book, 'Model!D4')).toBe('#,##0') },
    { say: 'highlight Inputs!B2 in yellow', written: [], check: (book) => expect(style(book, 'Inputs!B2').fill).toBe('#ffff00') },
    { say: 'color Model!A5 red', written: [], check: (book) => expect(style(book, 'Model!A5').color).toBe('#c00000') },
    { say: 'center Model!A1:E1', written: [], check: (book) => expect(style(book, 'Model!D1').align).toBe('center') },
    { say: 'format the selection as currency', active: 'Model', selection: 'B3:E3', written: [], check: (book) => {
      expect(fmt(book, 'Model!D3')).toBe('$#,##0.00')
      expect(fmt(book, 'Model!D2')).not.toBe('$#,##0.00')
    } },
    { say: 'make this bold', active: 'Model', selection: 'A5:E5', written: [], check: (book) => expect(style(book, 'Model!E5').bold).toBe(true) },
    { say: 'show the WACC as a percentage with 1 decimal', written: [], check: (book) => expect(fmt(book, 'Inputs!B5')).toBe('0.0%') },
    { say: 'format Model!B5:E5 as #,##0;(#,##0)', written: [], check: (book) => expect(fmt(book, 'Model!C5')).toBe('#,##0;(#,##0)') },
    { say: 'set the number format of Model!B2:E2 to $#,##0', written: [], check: (book) => expect(fmt(book, 'Model!E2')).toBe('$#,##0') },
    { say: 'add borders to Model!A1:C2', written: [], check: (book) => {
      const thin = { line: 'thin' }
      expect(style(book, 'Model!B2').borders).toEqual({ top: thin, right: thin, bottom: thin, left: thin })
      expect(style(book, 'Model!D2').borders).toBeUndefined()
    } },
    { say: 'put a border around Model!A1:C3', written: [], check: (book) => {
      const thin = { line: 'thin' }
      expect(style(book, 'Model!A1').borders).toEqual({ top: thin, left: thin })
      expect(style(book, 'Model!C3').borders).toEqual({ bottom: thin, right: thin })
      expect(style(book, 'Model!B2').borders).toBeUndefined()
    } },
    { say: 'add a bottom border under row 1', active: 'Model', written: [], check: (book) => expect(style(book, 'Model!C1').borders).toEqual({ bottom: { line: 'thin' } }) },
    { say: 'wrap the text in Model!A1:E1', written: [], check: (book) => expect(style(book, 'Model!A1').wrap).toBe(true) },
  ],
  'totals': [
    { say: 'sum column B', book: 'sales', active: 'Sales', inputs: { 'Sales!B8': '=SUM(B2:B7)' }, values: { 'Sales!B8': 710 } },
    { say: 'total B2:B7 in B9', book: 'sales', active: 'Sales', inputs: { 'Sales!B9': '=SUM(B2:B7)' } },
    { say: 'sum C2:C7 into C8', book: 'sales', active: 'Sales', values: { 'Sales!C8': 65 }, written: ['Sales!C8'] },
    { say: 'put the sum of D2:D7 in D9', book: 'sales', active: 'Sales', values: { 'Sales!D9': 7110 }, written: ['Sales!D9'] },
    { say: 'add up column C', book: 'sales', active: 'Sales', inputs: { 'Sales!C8': '=SUM(C2:C7)' } },
    { say: 'calculate the average of B2:B7 in B9', book: 'sales', active: 'Sales', inputs: { 'Sales!B9': '=AVERAGE(B2:B7)' }, values: { 'Sales!B9': 710 / 6 } },
    { say: 'put the max of C2:C7 in C9', book: 'sales', active: 'Sales', values: { 'Sales!C9': 15 }, written: ['Sales!C9'] },
    { say: 'add a total row', book: 'sales', active: 'Sales', values: { 'Sales!A8': 'Total', 'Sales!B8': 710, 'Sales!D8': 7110 }, written: ['Sales!A8', 'Sales!B8', 'Sales!C8', 'Sales!D8', 'Sales!E8'] },
    { say: 'sum row 2', active: 'Model', inputs: { 'Model!F2': '=SUM(B2:E2)' } },
    { say: 'total the revenue row', inputs: { 'Model!F2': '=SUM(B2:E2)' }, values: { 'Model!F2': 4641 } },
    { say: 'sum Sales!D2:D7', inputs: { 'Sales!D8': '=SUM(D2:D7)' }, book: 'sales' },
    // A column named by its header, where no line has the words.
    { say: 'put the average price in C9', book: 'sales', active: 'Sales', inputs: { 'Sales!C9': '=AVERAGE(C2:C7)' }, values: { 'Sales!C9': 65 / 6 } },
    { say: 'sum units', book: 'sales', active: 'Sales', inputs: { 'Sales!B8': '=SUM(B2:B7)' } },
  ],
  'sort': [
    { say: 'sort A2:D7 by column B descending', book: 'sales', active: 'Sales', written: 'any', check: (book) => {
      expect(book.cells.get('Sales!A2')?.value).toBe('Online')
      expect(book.cells.get('Sales!B7')?.value).toBe(60)
      expect(book.cells.get('Sales!D2')?.input).toBe('=B2*C2')
      expect(book.cells.get('Sales!D2')?.value).toBe(1600)
    } },
    { say: 'sort the table by revenue', book: 'sales', active: 'Sales', written: 'any', check: (book) => {
      expect(book.cells.get('Sales!A2')?.value).toBe('West')
      expect(book.cells.get('Sales!A7')?.value).toBe('Online')
      expect(book.cells.get('Sales!A1')?.value).toBe('Region')
    } },
    { say: 'sort A2:D7 alphabetically', book: 'sales', active: 'Sales', written: 'any', check: (book) => expect(['A2', 'A3', 'A7'].map((a) => book.cells.get(`Sales!${a}`)?.value)).toEqual(['Central', 'East', 'West']) },
    { say: 'sort by column C', book: 'sales', active: 'Sales', written: 'any', check: (book) => expect(book.cells.get('Sales!A2')?.value).toBe('Online') },
    { say: 'sort the data by units, largest first', book: 'sales', active: 'Sales', written: 'any', check: (book) => expect(book.cells.get('Sales!B2')?.value).toBe(200) },
  ],
  'layout': [
    { say: 'freeze the top row and the first column', active: 'Model', written: [], check: (book, outcome) => expect(book.layouts.get('Model')?.view, outcome.message).toMatchObject({ frozenRows: 1, frozenColumns: 1 }) },
    { say: 'freeze panes at B2 on the Inputs sheet', written: [], check: (book) => expect(book.layouts.get('Inputs')?.view).toMatchObject({ frozenRows: 1, frozenColumns: 1 }) },
    { say: 'freeze the header row', book: 'titled', written: [], check: (book) => expect(book.layouts.get('FCF')?.view).toMatchObject({ frozenRows: 3 }) },
    { say: 'hide column C', active: 'Model', written: [], check: (book, outcome) => {
      expect(JSON.stringify(book.layouts.get('Model')?.view), outcome.message).toContain('"hidden":true')
      expect(outcome.message).toContain('Done: Hide column C of Model')
    } },
    { say: 'hide the notes row', active: 'Model', written: [], check: (book, outcome) => expect(outcome.message).toContain('hide row 7 (Notes) of Model') },
    { say: 'set the width of column A to 30', active: 'Model', written: [], check: (book, outcome) => {
      expect(book.layouts.get('Model')?.columnWidths, outcome.message).toEqual({ 0: 215 })
      expect(outcome.message).toContain('30 characters wide, as Excel counts them (215 pixels)')
    } },
    { say: 'make column A wider', active: 'Model', written: [], check: (book) => expect(book.layouts.get('Model')?.columnWidths).toEqual({ 0: 180 }) },
  ],
  'move': [
    { say: 'move the notes row to row 10', active: 'Model', values: { 'Model!A10': 'Notes', 'Model!B10': 'Check with CFO', 'Model!A7': null, 'Model!B7': null } },
    // The formulas that read the moved input follow it.
    { say: 'move Inputs!B2 to Inputs!D2', inputs: { 'Inputs!D2': '10%', 'Model!C2': '=B2*(1+Inputs!$D$2)', 'Model!E2': '=D2*(1+Inputs!$D$2)' }, values: { 'Model!E2': 1331 }, written: ['Inputs!B2', 'Inputs!D2', 'Model!C2', 'Model!D2', 'Model!E2'] },
    { say: 'cut Model!B7 and paste it in Model!C9', values: { 'Model!C9': 'Check with CFO', 'Model!B7': null } },
    // Two rows trade places; the formulas that read them follow each (free cash flow = EBITDA + taxes still).
    { say: 'swap the EBITDA and taxes rows', active: 'Model', written: 'any', check: (book, outcome) => {
      expect(book.cells.get('Model!A3')?.value, outcome.message).toBe('Taxes')
      expect(book.cells.get('Model!A4')?.value).toBe('EBITDA')
      expect(book.cells.get('Model!B3')?.input).toBe('=-B4*Inputs!$B$4')
      expect(book.cells.get('Model!B4')?.input).toBe('=B2*Inputs!$B$3')
      expect(book.cells.get('Model!B5')?.input).toBe('=B4+B3')
      expect(book.cells.get('Model!B5')?.value).toBeCloseTo(250 - 250 * 0.21, 6)
      expect([...book.cells.keys()].some((ref) => /^Model![A-Z]+9$/.test(ref))).toBe(false)
    } },
    { say: 'swap columns B and C', active: 'Model', written: 'any', check: (book, outcome) => {
      expect(book.cells.get('Model!B1')?.value, outcome.message).toBe('FY2025')
      expect(book.cells.get('Model!C2')?.value).toBe(1000)
      expect(book.cells.get('Model!B2')?.input).toBe('=C2*(1+Inputs!$B$2)')
      expect(book.cells.get('Model!D2')?.input).toBe('=B2*(1+Inputs!$B$2)')
    } },
    { say: 'move B2 to C2', active: 'Model', check: (book, outcome, before) => {
      expect(changedInputs(before, book)).toEqual([])
      expect(outcome.changesetId).toBeNull()
      expect(outcome.message).toContain('Refused: 1 cell already holds something and would be replaced: Model!C2')
    } },
  ],
  'clear': [
    { say: 'clear the Scratch sheet', book: 'sales', values: { 'Scratch!A1': null, 'Scratch!B2': null }, written: ['Scratch!A1', 'Scratch!B2'] },
    { say: 'clear Model!B7', written: ['Model!B7'], check: (book) => expect(book.cells.has('Model!B7')).toBe(false) },
    { say: 'clear column E', book: 'sales', active: 'Sales', written: ['Sales!E1', 'Sales!E2'] },
    { say: 'delete the contents of row 7', active: 'Model', written: ['Model!A7', 'Model!B7'] },
    { say: 'erase Scratch!A1:B2', book: 'sales', written: ['Scratch!A1', 'Scratch!B2'] },
    { say: 'clear everything on Scratch', book: 'sales', written: ['Scratch!A1', 'Scratch!B2'] },
    { say: 'delete Model!B7', written: ['Model!B7'] },
  ],
  'charts': [
    { say: 'bar chart of Sales!A1:B7', book: 'sales', written: [], check: (book) => expect(book.charts).toMatchObject([{ type: 'bar', sheet: 'Sales', dataRange: 'A1:B7' }]) },
    { say: 'create a line chart from Model!A1:E2 titled Revenue', written: [], check: (book) => expect(book.charts).toMatchObject([{ type: 'line', dataRange: 'A1:E2', title: 'Revenue' }]) },
    { say: 'plot Sales!A1:D7 as a pie chart', book: 'sales', written: [], check: (book) => expect(book.charts).toMatchObject([{ type: 'pie', dataRange: 'A1:D7' }]) },
    { say: 'make an area chart of the revenue row', written: [], check: (book) => expect(book.charts).toMatchObject([{ type: 'area', sheet: 'Model', dataRange: 'A1:E2' }]) },
    { say: 'add a waterfall chart of Sales!A1:B5', book: 'sales', written: [], check: (book) => expect(book.charts).toMatchObject([{ type: 'waterfall', sheet: 'Sales', dataRange: 'A1:B5' }]) },
    { say: 'make a bridge chart of Sales!A1:B5', book: 'sales', written: [], check: (book) => expect(book.charts).toMatchObject([{ type: 'waterfall', dataRange: 'A1:B5' }]) },
    { say: 'combo chart of Sales!A1:C7', book: 'sales', written: [], check: (book) => expect(book.charts).toMatchObject([{ type: 'combo', dataRange: 'A1:C7' }]) },
    { say: 'add a radar chart of Sales!A1:B5', book: 'sales', check: (book, outcome, before) => {
      noChange!(book, outcome, before)
      expect(book.charts).toEqual([])
      expect(outcome.message).toContain('bar, line, pie, area, combo')
    } },
  ],
  'sensitivity': [
    // Named without ranges: WACC two points either side of the model's 9%, terminal growth one point either side of its 2.5%.
    { say: 'add a sensitivity table for WACC and terminal growth', written: 'any', check: (book, outcome) => {
      expect(book.sheets, outcome.message).toContain('Sensitivity')
      expect(book.cells.get('Sensitivity!A4')?.value).toBeCloseTo(0.07, 9)
      expect(book.cells.get('Sensitivity!A8')?.value).toBeCloseTo(0.11, 9)
      expect(book.cells.get('Sensitivity!B3')?.value).toBeCloseTo(0.015, 9)
      const fcf = [1000, 1100, 1210, 1331].map((revenue) => revenue * 0.25 * (1 - 0.21))
      const npv = fcf.reduce((sum, flow, index) => sum + flow / 1.07 ** (index + 1), 0)
      expect(book.cells.get('Sensitivity!B4')?.value).toBeCloseTo(npv + (fcf[3] * 1.015) / (0.07 - 0.015) / 1.07 ** 4, 6)
    } },
    { say: 'WACC 8% to 12% against terminal growth 1% to 3%', written: 'any', check: (book) => {
      expect(book.sheets).toContain('Sensitivity')
      // Independently: NPV of the free cash flows at 8% plus the Gordon terminal value at 1%, discounted four years.
      const fcf = [1000, 1100, 1210, 1331].map((revenue) => revenue * 0.25 * (1 - 0.21))
      const npv = fcf.reduce((sum, flow, index) => sum + flow / 1.08 ** (index + 1), 0)
      expect(book.cells.get('Sensitivity!B4')?.value).toBeCloseTo(npv + (fcf[3] * 1.01) / (0.08 - 0.01) / 1.08 ** 4, 6)
      expect(book.cells.get('Sensitivity!A8')?.value).toBeCloseTo(0.12, 9)
      expect(book.cells.get('Sensitivity!F3')?.value).toBeCloseTo(0.03, 9)
      expect(book.cells.get('Sensitivity!F8')?.input.startsWith('=NPV($A8,Model!$B$5:$E$5)')).toBe(true)
    } },
    { say: 'build a sensitivity table of WACC 7%-11% vs terminal growth 1.5%-2.5%', written: 'any', check: (book) => {
      expect(book.cells.get('Sensitivity!A4')?.value).toBeCloseTo(0.07, 9)
      expect(book.cells.get('Sensitivity!D3')?.value).toBeCloseTo(0.02, 9)
    } },
    { say: 'WACC sensitivity from 8 to 12%', written: 'any', check: (book) => {
      // Around the model's terminal growth of 2.5%.
      expect(book.cells.get('Sensitivity!B3')?.value).toBeCloseTo(0.015, 9)
      expect(book.cells.get('Sensitivity!F3')?.value).toBeCloseTo(0.035, 9)
    } },
  ],
  'a new projected line': [
    { say: 'create a 3 year revenue projection growing 10% a year starting at 1000', active: 'Valuation', inputs: { 'Valuation!B4': 'Year 1', 'Valuation!C5': '=B5*(1+$B$6)' }, values: { 'Valuation!A5': 'Revenue', 'Valuation!B5': 1000, 'Valuation!D5': 1210, 'Valuation!A6': 'Revenue growth', 'Valuation!B6': 0.1 }, written: ['Valuation!A5', 'Valuation!B5', 'Valuation!C5', 'Valuation!D5', 'Valuation!B4', 'Valuation!C4', 'Valuation!D4', 'Valuation!A6', 'Valuation!B6'] },
    { say: 'project sales of 500 at 8% growth for 2 years from 2025', active: 'Valuation', values: { 'Valuation!B4': 2025, 'Valuation!C4': 2026, 'Valuation!C5': 540 }, written: ['Valuation!A5', 'Valuation!B5', 'Valuation!C5', 'Valuation!B4', 'Valuation!C4', 'Valuation!A6', 'Valuation!B6'] },
  ],
  'more periods': [
    { say: 'add 2 more years', active: 'Model', inputs: { 'Model!F1': 'FY2028', 'Model!G1': 'FY2029', 'Model!F2': '=E2*(1+Inputs!$B$2)', 'Model!G5': '=G3+G4', 'Model!F4': '=-F3*Inputs!$B$4' }, values: { 'Model!G2': 1000 * 1.1 ** 5, 'Model!G3': 1000 * 1.1 ** 5 * 0.25 }, written: ['Model!F1', 'Model!F2', 'Model!F3', 'Model!F4', 'Model!F5', 'Model!G1', 'Model!G2', 'Model!G3', 'Model!G4', 'Model!G5'], check: answerSays('add 2 periods after FY2027 (FY2028 to FY2029) to Model (columns F–G)', 'These formulas still stop at FY2027', 'Valuation!B1 (=NPV(Inputs!B5,Model!B5:E5))', 'Valuation!B2 (=B1/Model!E2)') },
    // The active sheet has no periods: the sheet that has them is extended.
    { say: 'extend the model to FY2029', active: 'Inputs', inputs: { 'Model!G1': 'FY2029', 'Model!G3': '=G2*Inputs!$B$3' }, written: ['Model!F1', 'Model!F2', 'Model!F3', 'Model!F4', 'Model!F5', 'Model!G1', 'Model!G2', 'Model!G3', 'Model!G4', 'Model!G5'] },
    { say: 'roll the Model sheet forward one year', active: 'Valuation', inputs: { 'Model!F1': 'FY2028', 'Model!F5': '=F3+F4' }, written: ['Model!F1', 'Model!F2', 'Model!F3', 'Model!F4', 'Model!F5'] },
    // Years typed as numbers count on as numbers; typed values are copied and named in the answer.
    { say: 'add 2 more years', book: 'titled', values: { 'FCF!E3': 2028, 'FCF!F3': 2029, 'FCF!E4': 240, 'FCF!F5': 120 }, inputs: { 'FCF!E5': '=E4*0.5' }, written: ['FCF!E3', 'FCF!E4', 'FCF!E5', 'FCF!F3', 'FCF!F4', 'FCF!F5'], check: answerSays('Typed numbers were copied as they are', 'EBITDA (FCF!D4)') },
    // A Total column right of the periods moves right; nothing is written over.
    { say: 'set F2 to =SUM(B2:E2) then add 2 more years', active: 'Model', written: 'any', check: (book, outcome) => {
      expect(book.cells.get('Model!H2')?.input, outcome.message).toBe('=SUM(B2:E2)')
      expect(book.cells.get('Model!F1')?.input).toBe('FY2028')
      expect(book.cells.get('Model!G2')?.input).toBe('=F2*(1+Inputs!$B$2)')
      expect(book.cells.has('Model!F6')).toBe(false)
      expect(outcome.message).toContain('moved right by 2')
      expect(outcome.message).toContain('These formulas still stop at FY2027; widen them or point them at the new last year where that is meant: Model!H2 (=SUM(B2:E2)), Valuation!B1 (=NPV(Inputs!B5,Model!B5:E5)), Valuation!B2 (=B1/Model!E2)')
    } },
    // One line: from its own last cell, headers written where the new periods have none.
    { say: 'project revenue for 2 more years', active: 'Model', inputs: { 'Model!F2': '=E2*(1+Inputs!$B$2)', 'Model!G2': '=F2*(1+Inputs!$B$2)', 'Model!F1': 'FY2028', 'Model!G1': 'FY2029' }, written: ['Model!F1', 'Model!F2', 'Model!G1', 'Model!G2'] },
    { say: 'project EBITDA for 2 more years at 5% growth', book: 'titled', inputs: { 'FCF!E4': '=D4*(1+5%)', 'FCF!F4': '=E4*(1+5%)' }, values: { 'FCF!E3': 2028, 'FCF!F3': 2029, 'FCF!F4': 240 * 1.05 ** 2 }, written: ['FCF!E3', 'FCF!E4', 'FCF!F3', 'FCF!F4'] },
    { say: 'project EBITDA for 2 more years', book: 'titled', check: (book, outcome, before) => {
      noChange!(book, outcome, before)
      expect(outcome.message).toContain('is a typed number, so there is no formula to carry on')
    } },
    { say: 'extend the model to FY2026', active: 'Model', check: (book, outcome, before) => {
      noChange!(book, outcome, before)
      expect(outcome.message).toContain('The periods already run to FY2027')
    } },
  ],
  'growth': [
    { say: 'grow revenue 15% a year in years 2 to 4', inputs: { 'Model!C2': '=B2*(1+15%)', 'Model!D2': '=C2*(1+15%)' }, values: { 'Model!E2': 1000 * 1.15 ** 3 }, written: ['Model!C2', 'Model!D2', 'Model!E2'] },
    { say: 'revenue growth of 20% in years 2 to 3', values: { 'Model!D2': 1440, 'Model!E2': 1440 * 1.1 }, written: ['Model!C2', 'Model!D2'] },
    { say: 'grow revenue by 5% per year', values: { 'Model!E2': 1000 * 1.05 ** 3 }, written: ['Model!C2', 'Model!D2', 'Model!E2'] },
    { say: 'project revenue growing 8% annually from FY2025 to FY2027', values: { 'Model!C2': 1080 }, written: ['Model!C2', 'Model!D2', 'Model!E2'] },
    { say: 'apply 12% annual growth to revenue', values: { 'Model!D2': 1254.4 }, written: ['Model!C2', 'Model!D2', 'Model!E2'] },
  ],
  'explain': [
    { say: 'explain Valuation!B1', check: (book, outcome, before) => {
      noChange!(book, outcome, before)
      expect(outcome.message).toContain('Inputs!B5')
      expect(outcome.message).toContain('Inputs!B5 (WACC · Value) = 0.09')
      expect(outcome.toolCalls.map((call) => call.name)).toContain('explain_formula')
    } },
    { say: 'what does Model!C2 calculate', check: (book, outcome, before) => {
      noChange!(book, outcome, before)
      expect(outcome.message).toContain('Revenue growth')
    } },
    { say: 'how is enterprise value calculated', check: answerSays('Valuation!B1', 'NPV') },
    { say: 'explain EBITDA for FY2026', check: answerSays('Model!D3', 'EBITDA margin') },
  ],
  'questions': [
    { say: 'what is the enterprise value?', check: (book, outcome, before) => {
      noChange!(book, outcome, before)
      expect(outcome.message).toContain('Valuation!B1')
      expect(outcome.message).toContain('Nothing was changed')
    } },
    { say: "what's the total revenue?", check: (book, outcome, before) => {
      noChange!(book, outcome, before)
      expect(outcome.message).toContain('It is 4641, over 4 numbers in Model!B2:E2')
    } },
    { say: 'how much is revenue in FY2026?', check: (book, outcome, before) => {
      noChange!(book, outcome, before)
      expect(outcome.message).toContain('Model!D2')
      expect(outcome.message).toContain('1210')
    } },
    { say: 'what is the total revenue?', book: 'sales', active: 'Sales', check: (book, outcome, before) => {
      noChange!(book, outcome, before)
      expect(outcome.message).toContain('It is 7110, over 6 numbers in Sales!D2:D7')
    } },
    { say: 'what are the free cash flows?', check: (book, outcome, before) => {
      noChange!(book, outcome, before)
      expect(outcome.message).toContain('FY2024: 197.5')
    } },
  ],
  'audit': [
    { say: 'audit the workbook', book: 'audit', check: (book, outcome, before) => {
      noChange!(book, outcome, before)
      // The planner runs the audit tool and words its findings.
      for (const text of ['Data!D4 shows #DIV/0!', 'Data!C2 has 1.05', 'Data!D3', 'Data!B6 totals B2:B4 but misses Data!B5', 'Data!B8 reads Data!B9, which is empty']) expect(outcome.message).toContain(text)
    } },
    { say: 'check the model for errors', book: 'audit', check: answerSays('#DIV/0!') },
  ],
  'the cell first, and ranges filled with a value': [
    { say: 'in Model!F2 put =SUM(B2:E2)', inputs: { 'Model!F2': '=SUM(B2:E2)' }, values: { 'Model!F2': 4641 } },
    { say: 'In Model!A8 write Margin', values: { 'Model!A8': 'Margin' } },
    { say: 'in Model!A8 the label Net debt', values: { 'Model!A8': 'Net debt' } },
    { say: 'fill Inputs!C2:C4 with 5%', values: { 'Inputs!C2': 0.05, 'Inputs!C3': 0.05, 'Inputs!C4': 0.05 } },
    { say: 'fill Model!F2:F3 with =B2*2', inputs: { 'Model!F2': '=B2*2', 'Model!F3': '=B3*2' }, values: { 'Model!F3': 500 } },
    { say: 'put an average of the revenue in F2', active: 'Model', inputs: { 'Model!F2': '=AVERAGE(B2:E2)' }, values: { 'Model!F2': 4641 / 4 } },
    { say: 'chart revenue over the years', written: [], check: (book) => expect(book.charts).toMatchObject([{ type: 'line', sheet: 'Model', dataRange: 'A1:E2' }]) },
  ],
  'rows calculated from other rows': [
    { say: 'add a row Net margin = free cash flow / revenue', inputs: { 'Model!A8': 'Net margin', 'Model!B8': '=B5/B2', 'Model!E8': '=E5/E2' }, values: { 'Model!B8': 0.1975 }, written: ['Model!A8', 'Model!B8', 'Model!C8', 'Model!D8', 'Model!E8'] },
    { say: 'add a Pre-tax check row that adds EBITDA and taxes', inputs: { 'Model!A8': 'Pre-tax check', 'Model!C8': '=C3+C4' }, values: { 'Model!B8': 197.5 }, written: ['Model!A8', 'Model!B8', 'Model!C8', 'Model!D8', 'Model!E8'] },
    { say: 'add a gross margin row that subtracts EBITDA from revenue', inputs: { 'Model!A8': 'gross margin', 'Model!B8': '=B2-B3' }, values: { 'Model!D8': 1210 * 0.75 }, written: ['Model!A8', 'Model!B8', 'Model!C8', 'Model!D8', 'Model!E8'] },
    { say: 'put revenue minus EBITDA in row 8', active: 'Model', inputs: { 'Model!A8': 'Revenue − EBITDA', 'Model!B8': '=B2-B3' }, values: { 'Model!B8': 750 }, written: ['Model!A8', 'Model!B8', 'Model!C8', 'Model!D8', 'Model!E8'] },
    { say: 'set free cash flow to EBITDA times 0.8', inputs: { 'Model!B5': '=B3*0.8', 'Model!E5': '=E3*0.8' }, values: { 'Model!B5': 200 }, written: ['Model!B5', 'Model!C5', 'Model!D5', 'Model!E5'] },
    { say: 'Model!B8 = revenue - EBITDA', inputs: { 'Model!B8': '=B2-B3' }, values: { 'Model!B8': 750 } },
    { say: 'set Model!B8 to B2 - B3', inputs: { 'Model!B8': '=B2-B3' } },
    // Margins and growth: a line over revenue, each period over the one before, shown as percentages.
    { say: 'add an EBITDA margin row', inputs: { 'Model!A8': 'EBITDA margin', 'Model!B8': '=B3/B2', 'Model!E8': '=E3/E2' }, values: { 'Model!C8': 0.25 }, written: ['Model!A8', 'Model!B8', 'Model!C8', 'Model!D8', 'Model!E8'], check: (book, outcome) => {
      expect(book.cells.get('Model!B8')?.format, outcome.message).toBe('0.0%')
      expect(outcome.message).toContain('shown as percentages')
    } },
    { say: 'add a revenue growth row', inputs: { 'Model!A8': 'Revenue growth', 'Model!C8': '=C2/B2-1', 'Model!E8': '=E2/D2-1' }, values: { 'Model!D8': 0.1 }, written: ['Model!A8', 'Model!C8', 'Model!D8', 'Model!E8'], check: (book) => expect(book.cells.get('Model!E8')?.format).toBe('0.0%') },
    { say: 'calculate year-over-year growth of EBITDA', book: 'titled', inputs: { 'FCF!A6': 'EBITDA growth', 'FCF!C6': '=C4/B4-1' }, values: { 'FCF!D6': 240 / 220 - 1 }, written: ['FCF!A6', 'FCF!C6', 'FCF!D6'] },
    // A line as a share of another: "margin" is a share of revenue.
    { say: 'add a row for Gross profit with a 60% margin', inputs: { 'Model!A8': 'Gross profit', 'Model!B8': '=B2*60%', 'Model!E8': '=E2*60%' }, values: { 'Model!C8': 660 }, written: ['Model!A8', 'Model!B8', 'Model!C8', 'Model!D8', 'Model!E8'] },
    { say: 'add an Opex line at 30% of revenue', inputs: { 'Model!A8': 'Opex', 'Model!D8': '=D2*30%' }, values: { 'Model!B8': 300 }, written: ['Model!A8', 'Model!B8', 'Model!C8', 'Model!D8', 'Model!E8'] },
    { say: 'add Interest at 5% of free cash flow', inputs: { 'Model!A8': 'Interest', 'Model!B8': '=B5*5%' }, written: ['Model!A8', 'Model!B8', 'Model!C8', 'Model!D8', 'Model!E8'] },
    { say: 'add a row Cash conversion = (free cash flow - taxes) / EBITDA', inputs: { 'Model!A8': 'Cash conversion', 'Model!B8': '=(B5-B4)/B3' }, values: { 'Model!E8': 1 }, written: ['Model!A8', 'Model!B8', 'Model!C8', 'Model!D8', 'Model!E8'] },
    { say: 'set Model!B8 to the difference between revenue and EBITDA', inputs: { 'Model!B8': '=B2-B3' }, values: { 'Model!B8': 750 } },
    { say: 'put revenue minus EBITDA in row 3', active: 'Model', check: (book, outcome, before) => {
      noChange!(book, outcome, before)
      expect(outcome.message).toContain('cannot be calculated from itself')
    } },
    { say: 'put revenue times 2 in row 7', active: 'Model', inputs: { 'Model!B7': '=B2*2' }, values: { 'Model!A7': 'Notes' }, written: ['Model!B7', 'Model!C7', 'Model!D7', 'Model!E7'] },
    { say: 'set Model!A8 to Revenue - EBITDA', check: (book, outcome, before) => {
      noChange!(book, outcome, before)
      expect(outcome.message).toContain('put it in quotes')
    } },
    { say: 'add a row EBITDA check = EBITDA - revenue times Inputs!B3', inputs: { 'Model!A8': 'EBITDA check', 'Model!C8': '=C3-C2*Inputs!$B$3' }, values: { 'Model!E8': 0 }, written: ['Model!A8', 'Model!B8', 'Model!C8', 'Model!D8', 'Model!E8'] },
  ],
  // A sheet whose title has the words of one of its lines: the line with numbers is the one meant.
  'a title above the line': [
    { say: 'WACC 8% to 10% against terminal growth 1% to 2%', book: 'titled', written: 'any', check: (book) => expect(book.cells.get('Sensitivity!B4')?.input.startsWith('=NPV($A4,FCF!$B$5:$D$5)')).toBe(true) },
    { say: 'chart free cash flow', book: 'titled', written: [], check: (book) => expect(book.charts).toMatchObject([{ sheet: 'FCF', dataRange: 'A5:D5' }]) },
    { say: 'explain free cash flow for 2026', book: 'titled', check: answerSays('FCF!C5', 'C4') },
    { say: 'increase EBITDA by 10%', book: 'titled', values: { 'FCF!B4': 220, 'FCF!B5': 110 }, written: ['FCF!B4', 'FCF!C4', 'FCF!D4'] },
  ],
  'several commands in one message': [
    { say: 'put Margin in Model!A8 and =B5/B2 in Model!B8', inputs: { 'Model!B8': '=B5/B2' }, values: { 'Model!A8': 'Margin', 'Model!B8': 0.25 * (1 - 0.21) } },
    { say: 'set Inputs!B2 to 12% and Inputs!B3 to 30%', values: { 'Inputs!B2': 0.12, 'Inputs!B3': 0.3, 'Model!C3': 1120 * 0.3 }, written: ['Inputs!B2', 'Inputs!B3'] },
    { say: 'in Model!A8 write Check and in Model!B8 put =B5-B3-B4', values: { 'Model!A8': 'Check', 'Model!B8': 0 } },
    { say: 'set Model!B2 to 1100; make row 1 bold', active: 'Model', values: { 'Model!B2': 1100 }, written: ['Model!B2'], check: (book) => expect(style(book, 'Model!C1').bold).toBe(true) },
    { say: 'insert a row above row 7 and then write Margin in A7', active: 'Model', written: 'any', check: (book) => {
      expect(book.cells.get('Model!A7')?.value).toBe('Margin')
      expect(book.cells.get('Model!A8')?.value).toBe('Notes')
    } },
    { say: 'set Inputs!B2 to 12% and set Foo to 5', values: { 'Inputs!B2': 0.12 }, written: ['Inputs!B2'], check: answerSays('Now Inputs!B2 = 12%', 'could not find a row labelled “Foo”') },
    { say: 'delete rows 6 and 7', active: 'Model', check: (book, outcome, before) => {
      noChange!(book, outcome, before)
      expect(outcome.message).toContain('one at a time')
    } },
  ],
  'not understood': [
    { say: 'hello there', check: (book, outcome, before) => {
      noChange!(book, outcome, before)
      expect(outcome.toolCalls).toEqual([])
      expect(outcome.message).toContain('I could not read')
      expect(outcome.message).toContain('set B3 to 15%')
    } },
    { say: "what's the weather in Paris", check: noChange },
    { say: 'undo that', check: (book, outcome, before) => {
      noChange!(book, outcome, before)
      expect(outcome.toolCalls).toEqual([])
      expect(outcome.message).toContain('Ctrl+Z')
    } },
    { say: 'set growth to banana', check: noChange },
    { say: 'set Foo to 5', check: (book, outcome, before) => {
      noChange!(book, outcome, before)
      expect(outcome.message).toContain('could not find a row labelled “Foo”')
    } },
    { say: 'create a DCF model for Acme with 7 years and 3% terminal growth', check: (book, outcome, before) => {
      noChange!(book, outcome, before)
      expect(outcome.message).toContain('create a dcf model for Acme (7 projection years, terminal growth 3%)')
    } },
  ],
}

let spreadsheet: InProcessSpreadsheet
beforeAll(async () => {
  spreadsheet = await startInProcessSpreadsheet()
})
afterAll(async () => {
  await spreadsheet?.close()
})

const total = Object.values(CASES).reduce((sum, cases) => sum + cases.length, 0)

describe(`the offline planner on ${total} phrasings`, () => {
  it('holds at least 100 phrasings', () => expect(total).toBeGreaterThanOrEqual(100))

  for (const [family, cases] of Object.entries(CASES)) {
    describe(family, () => {
      for (const entry of cases) {
        it(entry.say, async () => {
          const { api } = spreadsheet
          const workbookId = await importWorkbook(api, BOOKS[entry.book ?? 'acme'])
          const before = await readWorkbook(api, workbookId)
          const outcome = await runAgentCommand(api, { workbookId, command: entry.say, model: 'local', activeSheet: entry.active, selection: entry.selection })
          expect(outcome.failure, outcome.message).toBeUndefined()
          const after = await readWorkbook(api, workbookId)
          for (const [ref, input] of Object.entries(entry.inputs ?? {})) expect(after.cells.get(ref)?.input, `${ref}\n${outcome.message}`).toBe(input)
          for (const [ref, value] of Object.entries(entry.values ?? {})) {
            const shown = after.cells.get(ref)?.value ?? null
            if (typeof value === 'number') expect(shown, `${ref}\n${outcome.message}`).toBeCloseTo(value, 6)
            else expect(shown, `${ref}\n${outcome.message}`).toBe(value)
          }
          const written = entry.written ?? (entry.inputs || entry.values ? [...new Set([...Object.keys(entry.inputs ?? {}), ...Object.keys(entry.values ?? {})])].filter((ref) => (before.cells.get(ref)?.input ?? '') !== (after.cells.get(ref)?.input ?? '')) : undefined)
          if (written !== 'any' && written !== undefined) expect(changedInputs(before, after), outcome.message).toEqual([...written].sort())
          entry.check?.(after, outcome, before)
        })
      }
    })
  }
})

describe('more periods on a generated model', () => {
  const generated = (type: 'three-statement' | 'dcf') => {
    const built = buildFinancialModel(type, 'Acme')
    return { name: built.name, sheets: templateSheets(built.template) }
  }

  it('extends every statement whose years end together, and the balance sheet still balances', async () => {
    const { api } = spreadsheet
    const workbookId = await importWorkbook(api, generated('three-statement'))
    const before = await readWorkbook(api, workbookId)
    const outcome = await runAgentCommand(api, { workbookId, command: 'extend the model by one year', model: 'local' })
    const after = await readWorkbook(api, workbookId)
    expect(outcome.message).toContain('add 1 period after 2030 (2031) to Income Statement, Balance Sheet, Cash Flow')
    for (const sheet of ['Income Statement', 'Balance Sheet', 'Cash Flow']) expect(after.cells.get(`'${sheet}'!G3`)?.value ?? after.cells.get(`${sheet}!G3`)?.value, sheet).toBe(2031)
    const check = [...after.cells.entries()].find(([ref, cell]) => ref.includes('Balance Sheet') && cell.value === 'Balance check')![0].replace(/A(\d+)$/, 'G$1')
    expect(after.cells.get(check)?.value).toBeCloseTo(0, 6)
    // The new year follows from the one before: closing cash is the balance sheet's cash.
    const cash = (sheet: string, label: string) => [...after.cells.entries()].find(([ref, cell]) => ref.includes(sheet) && cell.value === label)![0].replace(/A(\d+)$/, 'G$1')
    expect(after.cells.get(cash('Cash Flow', 'Closing cash'))?.value).toBeCloseTo(after.cells.get(cash('Balance Sheet', 'Cash'))?.value as number, 6)
    expect(changedInputs(before, after).every((ref) => /!G\d+$/.test(ref)), outcome.message).toBe(true)
  })

  it('sets the input a column header shares words with, never the column of formulas under the header', async () => {
    const { api } = spreadsheet
    const workbookId = await importWorkbook(api, generated('dcf'))
    const before = await readWorkbook(api, workbookId)
    const outcome = await runAgentCommand(api, { workbookId, command: 'set the exit multiple to 9x', model: 'local' })
    const after = await readWorkbook(api, workbookId)
    // The Valuation sheet heads a column "Exit multiple" full of formulas; the input is "Exit EV/EBITDA multiple".
    expect(changedInputs(before, after), outcome.message).toEqual(['Assumptions!B19'])
    expect(after.cells.get('Assumptions!B19')?.value).toBe(9)
  })

  it('sets the input a calculated line is worked out from, named by fewer words', async () => {
    const { api } = spreadsheet
    const workbookId = await importWorkbook(api, generated('dcf'))
    const before = await readWorkbook(api, workbookId)
    // Valuation's "Terminal growth" is calculated; the input is Assumptions' "Terminal growth rate".
    const outcome = await runAgentCommand(api, { workbookId, command: 'make the terminal growth 2%', model: 'local' })
    const after = await readWorkbook(api, workbookId)
    expect(changedInputs(before, after), outcome.message).toEqual(['Assumptions!B18'])
    expect(after.cells.get('Assumptions!B18')?.value).toBeCloseTo(0.02, 9)
    // A line calculated with no input that carries its words is named, nothing written.
    const refused = await runAgentCommand(api, { workbookId, command: 'set EBITDA to 100', model: 'local' })
    expect(refused.message).toContain('EBITDA on Operating is calculated by formulas in Operating!B9:F9')
    expect(changedInputs(after, await readWorkbook(api, workbookId))).toEqual([])
  })

  it('leaves a sheet of typed years as it was, and says so, while the model goes on', async () => {
    const { api } = spreadsheet
    const body = {
      name: 'Two sheets',
      sheets: [
        { name: 'Model', cells: [['A1', 'Line'], ['B1', 'FY2024'], ['C1', 'FY2025'], ['A2', 'Sales'], ['B2', '100'], ['C2', '=B2*1.1']].map(([address, input]) => ({ address, input })) },
        { name: 'Actuals', cells: [['A1', 'Line'], ['B1', 'FY2024'], ['C1', 'FY2025'], ['A2', 'Sales'], ['B2', '90'], ['C2', '95']].map(([address, input]) => ({ address, input })) },
      ],
    }
    const workbookId = await importWorkbook(api, body)
    const before = await readWorkbook(api, workbookId)
    const outcome = await runAgentCommand(api, { workbookId, command: 'add another year', model: 'local', activeSheet: 'Model' })
    const after = await readWorkbook(api, workbookId)
    expect(changedInputs(before, after), outcome.message).toEqual(['Model!D1', 'Model!D2'])
    expect(after.cells.get('Model!D2')?.input).toBe('=C2*1.1')
    expect(outcome.message).toContain('Left as they were: Column C (FY2025) on Actuals holds no formulas to carry on into new periods.')
  })

  it('names the valuation formulas that still stop at the old last year', async () => {
    const { api } = spreadsheet
    const workbookId = await importWorkbook(api, generated('dcf'))
    const outcome = await runAgentCommand(api, { workbookId, command: 'add 2 more years', model: 'local' })
    expect(outcome.message).toContain('to Assumptions, Revenue, Operating, FCF')
    expect(outcome.message).toContain('These formulas still stop at 2030')
    expect(outcome.message).toContain('Valuation!B11 (=SUM(FCF!B14:F14))')
    expect(outcome.message).toContain('Typed numbers were copied as they are')
  })
})
