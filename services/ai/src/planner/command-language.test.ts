import { describe, expect, it } from 'vitest'
import { MAX_COMMAND_LENGTH, normalizeCommand, parseCommand, parseModelRequest, parseTargetText } from './command-language.js'

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
    for (const text of ['hello there', 'what is the weather', 'set growth to banana', '', '   ', 'set B3 to 15%'.padEnd(MAX_COMMAND_LENGTH + 1, '!x')]) expect(parseCommand(text)).toBeNull()
  })

  it('ignores politeness, typographic quotes and the closing punctuation of a sentence', () => {
    expect(normalizeCommand('  Please   set B3 to “Total”?! ')).toBe('Please set B3 to "Total"')
    expect(parseCommand('Could you please set B3 to “Total”?')).toMatchObject({ type: 'set', value: { kind: 'text', input: 'Total' } })
  })
})
