import { describe, expect, it } from 'vitest'
import { MAX_COMMAND_LENGTH, normalizeCommand, parseCommand, parseCommands, parseModelRequest, parseTargetText, splitClauses } from './command-language.js'

describe('parseModelRequest', () => {
  it.each([
    ['build an LBO for Contoso', { modelType: 'lbo', companyName: 'Contoso', parameters: {} }],
    ['10-year DCF for "Acme & Co"', { modelType: 'dcf', companyName: 'Acme & Co', parameters: { projectionYears: 10 } }],
    ['create a DCF model for Acme with 7 years and 3% terminal growth', { modelType: 'dcf', companyName: 'Acme', parameters: { projectionYears: 7, terminalGrowthRate: 3 } }],
    ['Generate a three statement model for Initech', { modelType: 'three-statement', companyName: 'Initech', parameters: {} }],
    ['make a SaaS model for Globex Corp over 8 years', { modelType: 'saas', companyName: 'Globex Corp', parameters: { projectionYears: 8 } }],
    ['build a financial model for Johnson and Johnson with a terminal growth rate of 2%', { modelType: 'dcf', companyName: 'Johnson and Johnson', parameters: { terminalGrowthRate: 2 } }],
    ['please develop a leveraged buyout model of Hooli', { modelType: 'lbo', companyName: 'Hooli', parameters: {} }],
    ['create a real estate model for "Harbour Tower"', { modelType: 'real-estate', companyName: 'Harbour Tower', parameters: {} }],
    ['build a startup model for Pied Piper with 5 years', { modelType: 'startup', companyName: 'Pied Piper', parameters: { projectionYears: 5 } }],
    ['create a 3-statement model for Umbrella with 2.5% perpetual growth', { modelType: 'three-statement', companyName: 'Umbrella', parameters: { terminalGrowthRate: 2.5 } }],
    ['DCF valuation for Tesla, 12 year projection, terminal growth of 3.5%', { modelType: 'dcf', companyName: 'Tesla', parameters: { projectionYears: 12, terminalGrowthRate: 3.5 } }],
  ])('reads %j', (text, expected) => {
    expect(parseModelRequest(text)).toEqual(expected)
  })

  it('takes a company name with quotes and markup as text, never as more of the request', () => {
    expect(parseModelRequest('build a DCF for "<script>alert(1)</script>"')?.companyName).toBe('<script>alert(1)</script>')
    expect(parseModelRequest("create an LBO for 'O Brien & Sons'")?.companyName).toBe('O Brien & Sons')
  })

  it('names a default company when the request names none, and passes out-of-range years on for the generator to refuse', () => {
    expect(parseModelRequest('create a DCF model')).toEqual({ modelType: 'dcf', companyName: 'Company', parameters: {} })
    expect(parseModelRequest('build a 30-year DCF for Acme')?.parameters).toEqual({ projectionYears: 30 })
  })

  it('is null for what is not a model request', () => {
    for (const text of ['set B3 to 15%', 'make row 1 bold', 'hello', '', 'x'.repeat(MAX_COMMAND_LENGTH + 1)]) expect(parseModelRequest(text)).toBeNull()
  })
})

describe('parseCommand', () => {
  it('reads each family into its typed command', () => {
    expect(parseCommand('set B3 to 15%')).toEqual({ type: 'set', target: { kind: 'address', address: 'B3' }, value: { kind: 'percent', input: '15%', value: 0.15 } })
    expect(parseCommand('put =SUM(B2:B9) in B10')).toMatchObject({ type: 'set', target: { address: 'B10' }, value: { kind: 'formula', input: '=SUM(B2:B9)' } })
    expect(parseCommand('set debt to equity to 1.5')).toMatchObject({ target: { kind: 'label', text: 'debt to equity' }, value: { value: 1.5 } })
    expect(parseCommand('fill B5 right to F5')).toMatchObject({ type: 'fill', direction: 'right', destination: { address: 'F5' } })
    expect(parseCommand('insert 2 rows below row 3')).toMatchObject({ type: 'insert', axis: 'rows', count: 2, side: 'after' })
    expect(parseCommand('remove columns C through E')).toMatchObject({ type: 'delete', target: { kind: 'columns', from: 'C', to: 'E' } })
    expect(parseCommand('rename Sheet1 to Inputs')).toEqual({ type: 'rename_sheet', from: 'Sheet1', to: 'Inputs' })
    expect(parseCommand('format C2:C9 as percent with 1 decimal')).toMatchObject({ type: 'format', spec: { kind: 'percent', decimals: 1 } })
    expect(parseCommand('sum column C')).toMatchObject({ type: 'aggregate', fn: 'SUM', source: { kind: 'columns', from: 'C' } })
    expect(parseCommand('sort A2:C10 by column B descending')).toMatchObject({ type: 'sort', key: { column: 'B' }, order: 'desc' })
    expect(parseCommand('bar chart of A1:B12')).toMatchObject({ type: 'chart', chartType: 'bar' })
    expect(parseCommand('WACC 8% to 12% against terminal growth 1% to 3%')).toMatchObject({ type: 'sensitivity', axes: [{ name: 'wacc', from: 0.08, to: 0.12 }, { name: 'growth', from: 0.01, to: 0.03 }] })
    expect(parseCommand('grow revenue 15% a year in years 2 to 5')).toMatchObject({ type: 'grow', rate: 0.15, span: { from: { year: 2 }, to: { year: 5 } } })
    expect(parseCommand('how is enterprise value calculated')).toMatchObject({ type: 'explain', target: { kind: 'label', text: 'enterprise value' } })
    expect(parseCommand('audit the workbook')).toEqual({ type: 'audit' })
  })

  it('reads the sheet a target names after it, and a label that holds the words of the command', () => {
    expect(parseTargetText('the tax rate on Assumptions')).toEqual({ kind: 'label', text: 'tax rate', sheet: 'Assumptions' })
    expect(parseTargetText("'Q1 Data'!B2:C4")).toEqual({ kind: 'range', from: 'B2', to: 'C4', sheet: 'Q1 Data' })
    expect(parseTargetText('B3 in the sheet FCF')).toEqual({ kind: 'address', address: 'B3', sheet: 'FCF' })
  })

  it('reads none of what is not a command', () => {
    for (const text of ['hello there', 'set growth to banana', '', '   ', 'set B3 to 15%'.padEnd(MAX_COMMAND_LENGTH + 1, '!x')]) expect(parseCommand(text)).toBeNull()
  })

  it('ignores politeness, typographic quotes and the closing punctuation of a sentence', () => {
    expect(normalizeCommand('  Please   set B3 to “Total”?! ')).toBe('Please set B3 to "Total"')
    expect(parseCommand('Could you please set B3 to “Total”?')).toMatchObject({ type: 'set', value: { kind: 'text', input: 'Total' } })
  })
})

describe('parseCommand, more phrasings', () => {
  it('reads the cell first, then what goes in it', () => {
    expect(parseCommand('In A5 put Gross profit')).toEqual({ type: 'set', target: { kind: 'address', address: 'A5' }, value: { kind: 'text', input: 'Gross profit' } })
    expect(parseCommand('in B5 put =B2-B3')).toEqual({ type: 'set', target: { kind: 'address', address: 'B5' }, value: { kind: 'formula', input: '=B2-B3' } })
    expect(parseCommand('in C2 the formula =C1/B1-1')).toMatchObject({ target: { address: 'C2' }, value: { kind: 'formula', input: '=C1/B1-1' } })
    expect(parseCommand('into Inputs!B3 enter 12%')).toMatchObject({ target: { address: 'B3', sheet: 'Inputs' }, value: { kind: 'percent', value: 0.12 } })
    expect(parseCommand('in A8 the label Net debt')).toMatchObject({ target: { address: 'A8' }, value: { kind: 'text', input: 'Net debt' } })
  })

  it('fills a range with a value or a formula', () => {
    expect(parseCommand('Fill B3:F3 with 5')).toEqual({ type: 'set', target: { kind: 'range', from: 'B3', to: 'F3' }, value: { kind: 'number', input: 5, value: 5, shown: '5' } })
    expect(parseCommand('fill C2:C9 with =B2*1.1')).toMatchObject({ type: 'set', target: { kind: 'range', from: 'C2', to: 'C9' }, value: { kind: 'formula', input: '=B2*1.1' } })
    // A fill along a row or a column is still a fill.
    expect(parseCommand('fill B5 right to F5')).toMatchObject({ type: 'fill', direction: 'right' })
  })

  it('reads "an average of" as an aggregate, never as a text to write', () => {
    expect(parseCommand('Put an average of the costs in E3')).toEqual({ type: 'aggregate', fn: 'AVERAGE', source: { kind: 'label', text: 'costs' }, destination: { kind: 'address', address: 'E3' } })
    expect(parseCommand('calculate an average of B2:D2 in E2')).toMatchObject({ type: 'aggregate', fn: 'AVERAGE', source: { kind: 'range', from: 'B2', to: 'D2' } })
  })

  it('reads the time a chart spans apart from the row it charts', () => {
    expect(parseCommand('chart revenue over the years')).toMatchObject({ type: 'chart', source: { kind: 'label', text: 'revenue' } })
    expect(parseCommand('make a bar chart of EBITDA by year')).toMatchObject({ type: 'chart', chartType: 'bar', source: { kind: 'label', text: 'EBITDA' } })
  })

  it('reads rows and columns joined by "and" as those rows and columns, and "between … and" as a span', () => {
    expect(parseCommand('delete rows 3 and 5')).toBeNull()
    expect(parseCommand('delete rows 3 to 5')).toMatchObject({ type: 'delete', target: { kind: 'rows', from: 3, to: 5 } })
    expect(parseCommand('delete rows between 3 and 5')).toMatchObject({ type: 'delete', target: { kind: 'rows', from: 3, to: 5 } })
    expect(parseCommand('remove columns between C and E')).toMatchObject({ type: 'delete', target: { kind: 'columns', from: 'C', to: 'E' } })
  })
})

describe('parseCommands', () => {
  it('splits a message into its commands, a clause without its verb taking the one before it', () => {
    expect(parseCommands('Put Revenue in A1 and 1000 in B1')).toEqual([
      { type: 'set', target: { kind: 'address', address: 'A1' }, value: { kind: 'text', input: 'Revenue' } },
      { type: 'set', target: { kind: 'address', address: 'B1' }, value: { kind: 'number', input: 1000, value: 1000, shown: '1000' } },
    ])
    expect(parseCommands('Set B2 to 1200 and C2 to 1300')?.map((command) => command.type === 'set' && command.target)).toEqual([
      { kind: 'address', address: 'B2' },
      { kind: 'address', address: 'C2' },
    ])
    expect(parseCommands('In A2 put Growth and in C2 the formula =C1/B1-1')).toMatchObject([{ value: { kind: 'text', input: 'Growth' } }, { target: { address: 'C2' }, value: { kind: 'formula', input: '=C1/B1-1' } }])
    expect(parseCommands('set B2 to 5; make row 1 bold')?.map((command) => command.type)).toEqual(['set', 'format'])
    expect(parseCommands('insert a row above row 3, then write Total in A3')?.map((command) => command.type)).toEqual(['insert', 'set'])
    expect(parseCommands('delete rows 3 and 5')).toEqual([
      { type: 'delete', target: { kind: 'rows', from: 3, to: 3 } },
      { type: 'delete', target: { kind: 'rows', from: 5, to: 5 } },
    ])
  })

  it('keeps a message whole where "and" belongs to it', () => {
    expect(parseCommands('make A1:D1 bold and blue')).toEqual([{ type: 'format', target: { kind: 'range', from: 'A1', to: 'D1' }, spec: { kind: 'style', style: { bold: true, color: '#0000ff' }, words: 'bold and blue' } }])
    expect(parseCommands('set sales and marketing to 500')).toMatchObject([{ target: { kind: 'label', text: 'sales and marketing' } }])
    expect(parseCommands('write Profit and loss in A1')).toMatchObject([{ value: { kind: 'text', input: 'Profit and loss' } }])
    expect(parseCommands('put =IF(A1>0,"up and away","") in B1')).toMatchObject([{ value: { kind: 'formula', input: '=IF(A1>0,"up and away","")' } }])
    expect(parseCommands('add a sheet called Profit and Loss')).toEqual([{ type: 'add_sheet', name: 'Profit and Loss' }])
  })

  it('reads none of a message whose clauses are not all commands', () => {
    expect(parseCommands('hello and goodbye')).toBeNull()
    expect(parseCommands('')).toBeNull()
  })

  it('splits outside quotes and parentheses only', () => {
    expect(splitClauses('put =IF(A1 and B1, 1, 2) in C1 and bold C1')).toEqual(['put =IF(A1 and B1, 1, 2) in C1', 'bold C1'])
    expect(splitClauses('write "this and that" in A1; sum column B')).toEqual(['write "this and that" in A1', 'sum column B'])
  })
})

describe('parseCommand, rows calculated from other rows', () => {
  const row = (text: string) => ({ kind: 'cells', target: { kind: 'label', text } })
  it('reads a new row, a row by number or label, and a cell, each with its calculation', () => {
    expect(parseCommand('add a row Gross profit = revenue - costs')).toEqual({ type: 'derive', label: 'Gross profit', terms: [{ op: null, operand: row('revenue') }, { op: '-', operand: row('costs') }] })
    expect(parseCommand('add a gross profit row that subtracts costs from revenue')).toEqual({ type: 'derive', label: 'gross profit', terms: [{ op: null, operand: row('revenue') }, { op: '-', operand: row('costs') }] })
    expect(parseCommand('add a row called Margin equal to gross profit divided by revenue')).toMatchObject({ label: 'Margin', terms: [{ operand: row('gross profit') }, { op: '/', operand: row('revenue') }] })
    expect(parseCommand('put revenue minus costs in row 4')).toMatchObject({ type: 'derive', at: { kind: 'rows', from: 4 } })
    expect(parseCommand('set gross profit to revenue minus costs')).toMatchObject({ type: 'derive', at: { kind: 'label', text: 'gross profit' } })
    expect(parseCommand('margin = gross profit / revenue')).toMatchObject({ type: 'derive', at: { kind: 'label', text: 'margin' } })
    expect(parseCommand('B5 = B2 - B3')).toMatchObject({ type: 'derive', at: { kind: 'address', address: 'B5' }, terms: [{ operand: { target: { address: 'B2' } } }, { op: '-' }] })
    expect(parseCommand('add a row EBITDA = revenue times 20%')).toMatchObject({ terms: [{ operand: row('revenue') }, { op: '*', operand: { kind: 'number', input: '20%' } }] })
  })

  it('keeps parentheses and reads "the difference between … and …"', () => {
    expect(parseCommand('add a row Margin = (revenue - costs) / revenue')).toEqual({
      type: 'derive',
      label: 'Margin',
      terms: [{ op: null, operand: { kind: 'group', terms: [{ op: null, operand: row('revenue') }, { op: '-', operand: row('costs') }] } }, { op: '/', operand: row('revenue') }],
    })
    expect(parseCommand('set B8 to the difference between revenue and costs')).toMatchObject({ at: { address: 'B8' }, terms: [{ operand: row('revenue') }, { op: '-', operand: row('costs') }] })
  })

  it('leaves formulas typed with "=" and values to the commands that write them', () => {
    expect(parseCommand('set Model!F2:F3 to =B2*2')).toMatchObject({ type: 'set', value: { kind: 'formula', input: '=B2*2' } })
    expect(parseCommand('put =B5/B2 in B8')).toMatchObject({ type: 'set', value: { kind: 'formula', input: '=B5/B2' } })
    expect(parseCommand('in C2 the formula =C1/B1-1')).toMatchObject({ type: 'set' })
    expect(parseCommand('set growth to 10% - 2%')).toBeNull()
    expect(parseCommand('write Gross profit - costs in A5')).toMatchObject({ type: 'set', value: { kind: 'text', input: 'Gross profit - costs' } })
  })
})

describe('parseCommand, borders and number format codes', () => {
  const thin = { line: 'thin' }
  it('reads borders on every edge, a line around, a bottom border, none, and wrapping', () => {
    expect(parseCommand('add borders to A1:D3')).toMatchObject({ type: 'format', spec: { kind: 'style', style: { borders: { top: thin, right: thin, bottom: thin, left: thin } } } })
    expect(parseCommand('put a border around A1:D3')).toEqual({ type: 'format', target: { kind: 'range', from: 'A1', to: 'D3' }, spec: { kind: 'outline' } })
    expect(parseCommand('add a bottom border under row 1')).toMatchObject({ target: { kind: 'rows', from: 1 }, spec: { style: { borders: { bottom: thin } } } })
    expect(parseCommand('remove the borders from A1:D3')).toMatchObject({ spec: { style: { borders: null } } })
    expect(parseCommand('wrap the text in A1:D1')).toMatchObject({ spec: { style: { wrap: true } } })
  })

  it('reads number format codes as typed', () => {
    expect(parseCommand('format B2:D3 as #,##0;(#,##0)')).toMatchObject({ spec: { kind: 'code', code: '#,##0;(#,##0)' } })
    expect(parseCommand('set the number format of B2:D2 to $#,##0')).toMatchObject({ target: { kind: 'range', from: 'B2' }, spec: { kind: 'code', code: '$#,##0' } })
    expect(parseCommand('format B2 as "0.0x"')).toMatchObject({ spec: { kind: 'code', code: '0.0x' } })
    expect(parseCommand('format C2 as 15')).toBeNull()
    // A value set is a value, even one that looks like a code.
    expect(parseCommand('set B3 to 30%')).toMatchObject({ type: 'set', value: { kind: 'percent' } })
    expect(parseCommand('set G1 to "Comment"')).toMatchObject({ type: 'set', value: { kind: 'text', input: 'Comment' } })
    expect(parseCommand('show B2 as 15%')).toBeNull()
  })
})

describe('parseCommand, a new projected line', () => {
  it('reads its words, years, first value, growth and first year in any order', () => {
    expect(parseCommand('Create a 5 year revenue projection growing 10% a year starting at 1000')).toEqual({ type: 'project', label: 'revenue', periods: 5, start: { kind: 'number', input: 1000, value: 1000, shown: '1000' }, rate: 0.1 })
    expect(parseCommand('project sales of 500 at 8% growth for 5 years from 2025')).toMatchObject({ label: 'sales', periods: 5, start: { value: 500 }, rate: 0.08, firstYear: 2025 })
    expect(parseCommand('build a revenue forecast starting at $1,000 with 12% annual growth over the next 7 years')).toMatchObject({ label: 'revenue', periods: 7, start: { kind: 'currency', value: 1000 }, rate: 0.12 })
  })

  it('leaves growth of an existing line and new models to their commands', () => {
    expect(parseCommand('project revenue growing 8% annually from FY2025 to FY2027')).toMatchObject({ type: 'grow' })
    expect(parseCommand('create a DCF model for Acme')).toMatchObject({ type: 'create_model' })
    // Without a first value there is nothing to project from: a projection it is not.
    expect(parseCommand('create a 5 year revenue projection growing 10% a year')?.type).not.toBe('project')
  })
})

describe('parseCommand, questions', () => {
  it('reads a question about cells as a read, never a write', () => {
    expect(parseCommand('what is the enterprise value?')).toEqual({ type: 'read', target: { kind: 'label', text: 'enterprise value' } })
    expect(parseCommand("what's the total revenue?")).toEqual({ type: 'read', target: { kind: 'label', text: 'revenue' }, fn: 'SUM' })
    expect(parseCommand('what is the sum of revenue?')).toMatchObject({ type: 'read', fn: 'SUM' })
    expect(parseCommand('show me the average costs')).toMatchObject({ type: 'read', fn: 'AVERAGE', target: { text: 'costs' } })
    expect(parseCommand('what is in B5')).toEqual({ type: 'read', target: { kind: 'address', address: 'B5' } })
    // The formula behind a cell is still explained.
    expect(parseCommand('what is the formula in B5?')).toMatchObject({ type: 'explain' })
  })
})

describe('parseCommand, more periods', () => {
  it.each([
    ['add 2 more years', { type: 'extend', count: 2 }],
    ['add two more years to the model', { type: 'extend', count: 2, target: { kind: 'label', text: 'model' } }],
    ['add another year', { type: 'extend', count: 1 }],
    ['add 3 more years of projections to Model', { type: 'extend', count: 3, target: { kind: 'label', text: 'Model' } }],
    ['extend the model by 2 years', { type: 'extend', count: 2, target: { kind: 'label', text: 'model' } }],
    ['extend the forecast to 2030', { type: 'extend', to: 2030, target: { kind: 'label', text: 'forecast' } }],
    ['extend the projections through FY2030', { type: 'extend', to: 2030, target: { kind: 'label', text: 'projections' } }],
    ['roll the model forward one year', { type: 'extend', count: 1, target: { kind: 'label', text: 'model' } }],
    ['roll forward by a year', { type: 'extend', count: 1 }],
    ['extend the Model sheet by 3 years', { type: 'extend', count: 3, target: { kind: 'label', text: 'Model sheet' } }],
    ['project revenue for 3 more years', { type: 'extend', count: 3, target: { kind: 'label', text: 'revenue' } }],
    ['project revenue for 3 more years at 8% growth', { type: 'extend', count: 3, rate: 0.08, target: { kind: 'label', text: 'revenue' } }],
    ['project revenue at 8% growth for 3 more years', { type: 'extend', count: 3, rate: 0.08, target: { kind: 'label', text: 'revenue' } }],
    ['extend revenue out to FY30', { type: 'extend', to: 2030, target: { kind: 'label', text: 'revenue' } }],
  ])('reads %j', (text, expected) => {
    expect(parseCommand(text)).toEqual(expected)
  })

  it('leaves growth inside the periods and new lines to their commands', () => {
    expect(parseCommand('grow revenue 10% a year for the next 3 years')).toMatchObject({ type: 'grow' })
    expect(parseCommand('extend revenue by 10% a year')).toMatchObject({ type: 'grow' })
    expect(parseCommand('project sales of 500 at 8% growth for 5 years from 2025')).toMatchObject({ type: 'project' })
    expect(parseCommand('add 2 columns after C')).toMatchObject({ type: 'insert' })
  })
})

describe('parseCommand, a line as a share of another', () => {
  const share = (label: string, base: string, rate: string) => ({ type: 'derive', label, terms: [{ op: null, operand: { kind: 'cells', target: { kind: 'label', text: base } } }, { op: '*', operand: { kind: 'number', input: rate } }] })
  it.each([
    ['add a row for EBITDA with 20% margin', share('EBITDA', 'revenue', '20%')],
    ['add an EBITDA line at a 20% margin', share('EBITDA', 'revenue', '20%')],
    ['add COGS at 40% of revenue', share('COGS', 'revenue', '40%')],
    ['add a row called Opex as 30% of sales', share('Opex', 'sales', '30%')],
    ['add taxes at 21% of EBT', share('taxes', 'EBT', '21%')],
    ['add a Gross profit row with a 60% margin on net sales', share('Gross profit', 'net sales', '60%')],
  ])('reads %j', (text, expected) => {
    expect(parseCommand(text)).toEqual(expected)
  })
})

describe('parseCommand, moves', () => {
  it.each([
    ['move B2 to C2', { type: 'move', source: { kind: 'address', address: 'B2' }, destination: { kind: 'address', address: 'C2' } }],
    ['move A7:B7 to A10', { type: 'move', source: { kind: 'range', from: 'A7', to: 'B7' }, destination: { kind: 'address', address: 'A10' } }],
    ['cut A7:B7 and paste it in A10', { type: 'move', source: { kind: 'range', from: 'A7', to: 'B7' }, destination: { kind: 'address', address: 'A10' } }],
    ['move the notes row to row 10', { type: 'move', source: { kind: 'label', text: 'notes' }, destination: { kind: 'rows', from: 10, to: 10 } }],
    ['move Inputs!A2:B2 over to Summary!D4', { type: 'move', source: { kind: 'range', from: 'A2', to: 'B2', sheet: 'Inputs' }, destination: { kind: 'address', address: 'D4', sheet: 'Summary' } }],
  ])('reads %j', (text, expected) => {
    expect(parseCommand(text)).toEqual(expected)
  })

  it('leaves cutting by an amount to adjust', () => {
    expect(parseCommand('cut Model!B2 by 100')).toMatchObject({ type: 'adjust', direction: 'down' })
  })
})

describe('parseCommand, the sheet layout', () => {
  it.each([
    ['freeze the top row', { type: 'layout', freeze: { rows: 1, columns: 0 } }],
    ['freeze the first 2 columns', { type: 'layout', freeze: { rows: 0, columns: 2 } }],
    ['freeze the header row and the first column', { type: 'layout', freeze: { rows: 'header', columns: 1 } }],
    ['freeze panes at B2', { type: 'layout', freeze: { at: 'B2' } }],
    ['freeze columns A to C on the Model sheet', { type: 'layout', freeze: { rows: 0, columns: 3 }, sheet: 'Model' }],
    ['unfreeze panes', { type: 'layout', freeze: { rows: 0, columns: 0 } }],
    ['hide column C', { type: 'layout', hide: { kind: 'columns', from: 'C', to: 'C' } }],
    ['hide rows 5 to 7', { type: 'layout', hide: { kind: 'rows', from: 5, to: 7 } }],
    ['hide the notes row', { type: 'layout', hide: { kind: 'label', text: 'notes' } }],
    ['unhide all rows', { type: 'layout', unhide: { kind: 'label', text: 'rows' } }],
    ['show column C again', { type: 'layout', unhide: { kind: 'columns', from: 'C', to: 'C' } }],
    ['set the width of column A to 30', { type: 'layout', width: { target: { kind: 'columns', from: 'A', to: 'A' }, value: 30 } }],
    ['set column B width to 150 pixels', { type: 'layout', width: { target: { kind: 'columns', from: 'B', to: 'B' }, value: 150, unit: 'pixels' } }],
    ['make column A wider', { type: 'layout', width: { target: { kind: 'columns', from: 'A', to: 'A' }, change: 'wider' } }],
  ])('reads %j', (text, expected) => {
    expect(JSON.parse(JSON.stringify(parseCommand(text)))).toEqual(expected)
  })

  it('leaves showing values and making cells bold to their commands', () => {
    expect(parseCommand('show me the average costs')).toMatchObject({ type: 'read' })
    expect(parseCommand('show B2:B9 as percentages')).toMatchObject({ type: 'format' })
    expect(parseCommand('make column A bold')).toMatchObject({ type: 'format' })
  })
})

describe('parseCommand, margins and growth rows', () => {
  const over = (label: string, top: string, base: string) => ({ type: 'derive', label, terms: [{ op: null, operand: { kind: 'cells', target: { kind: 'label', text: top } } }, { op: '/', operand: { kind: 'cells', target: { kind: 'label', text: base } } }], percent: true })
  it.each([
    ['add an EBITDA margin row', over('EBITDA margin', 'EBITDA', 'revenue')],
    ['calculate the free cash flow margin', over('Free cash flow margin', 'free cash flow', 'revenue')],
    ['add a row for EBITDA margin', over('EBITDA margin', 'EBITDA', 'revenue')],
    ['add the gross profit margin on net sales', over('Gross profit margin', 'gross profit', 'net sales')],
    ['show taxes as a % of EBITDA', over('Taxes % of EBITDA', 'taxes', 'EBITDA')],
    ['add a revenue growth row', { type: 'growth_row', line: { kind: 'label', text: 'revenue' } }],
    ['calculate year-over-year growth of revenue', { type: 'growth_row', line: { kind: 'label', text: 'revenue' } }],
    ['add yoy growth rates for EBITDA', { type: 'growth_row', line: { kind: 'label', text: 'EBITDA' } }],
    ['add revenue growth', { type: 'growth_row', line: { kind: 'label', text: 'revenue' } }],
  ])('reads %j', (text, expected) => {
    expect(parseCommand(text)).toEqual(expected)
  })

  it('leaves growth at a rate and margins set to a value to their commands', () => {
    expect(parseCommand('add revenue growth of 10%')?.type).not.toBe('growth_row')
    expect(parseCommand('set the EBITDA margin to 30%')).toMatchObject({ type: 'set' })
    expect(parseCommand('add a row for EBITDA with 20% margin')).toMatchObject({ type: 'derive', terms: [{}, { op: '*' }] })
  })
})

describe('parseCommand, swaps', () => {
  it.each([
    ['swap rows 3 and 4', { type: 'swap', a: { kind: 'rows', from: 3, to: 3 }, b: { kind: 'rows', from: 4, to: 4 } }],
    ['swap row 3 with row 5', { type: 'swap', a: { kind: 'rows', from: 3, to: 3 }, b: { kind: 'rows', from: 5, to: 5 } }],
    ['swap columns b and c', { type: 'swap', a: { kind: 'columns', from: 'B', to: 'B' }, b: { kind: 'columns', from: 'C', to: 'C' } }],
    ['swap the EBITDA and taxes rows', { type: 'swap', a: { kind: 'label', text: 'EBITDA' }, b: { kind: 'label', text: 'taxes' } }],
  ])('reads %j', (text, expected) => {
    expect(parseCommand(text)).toEqual(expected)
  })
})

describe('parseCommand, a sensitivity grid named without ranges', () => {
  it('reads the axes by name, the ranges left to the model', () => {
    expect(parseCommand('add a sensitivity table for WACC and terminal growth')).toEqual({ type: 'sensitivity', axes: [] })
    expect(parseCommand('build a sensitivity analysis of the discount rate against growth')).toEqual({ type: 'sensitivity', axes: [] })
    expect(parseCommand('WACC 8% to 12% against terminal growth 1% to 3%')).toMatchObject({ type: 'sensitivity', axes: [{ name: 'wacc' }, { name: 'growth' }] })
  })
})

describe('parseCommand, adding to what a cell holds', () => {
  it('reads "add 5 to B2" as an increase, and "add Revenue to A1" as text', () => {
    expect(parseCommand('add 5 to B2')).toEqual({ type: 'adjust', target: { kind: 'address', address: 'B2' }, direction: 'up', amount: 5, unit: 'absolute' })
    expect(parseCommand('subtract 2% from prices')).toMatchObject({ type: 'adjust', direction: 'down', amount: 0.02, unit: 'percent' })
    expect(parseCommand('add "Revenue" to A1')).toMatchObject({ type: 'set', value: { kind: 'text', input: 'Revenue' } })
  })
})
