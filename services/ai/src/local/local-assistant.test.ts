import { describe, expect, it } from 'vitest'
import { FINANCE_GLOSSARY, glossaryEntriesIn } from './finance-glossary.js'
import { catalogueEntries, namedFunctions, searchFunctions } from './function-search.js'
import { answerLocally } from './local-assistant.js'

const names = (entries: Array<{ name: string }>) => entries.map((entry) => entry.name)

describe('function search', () => {
  it('takes names that are called or written in capitals, and everyday words only then', () => {
    expect(names(namedFunctions('How does XLOOKUP differ from vlookup?'))).toEqual(['XLOOKUP', 'VLOOKUP'])
    expect(names(namedFunctions('what does npv( do'))).toEqual(['NPV'])
    expect(names(namedFunctions('what is the revenue growth and the rate'))).toEqual([])
    expect(names(namedFunctions('use RATE and IF'))).toEqual(['RATE', 'IF'])
  })

  it('finds functions by what a modeller describes', () => {
    const cases: Array<[string, string]> = [
      ['monthly loan payment', 'PMT'],
      ['net present value of cash flows', 'NPV'],
      ['internal rate of return on dated cash flows', 'IRR'],
      ['sum sales where region is East', 'SUMIFS'],
      ['count orders when status is open', 'COUNTIFS'],
      ['compound annual growth rate', 'RRI'],
      ['days between two dates', 'DATEDIF'],
      ['straight line depreciation', 'SLN'],
      ['last day of the month', 'EOMONTH'],
      ['standard deviation of returns', 'STDEV.P'],
    ]
    for (const [text, expected] of cases) expect(names(searchFunctions(text, 5)), text).toContain(expected)
    expect(searchFunctions('monthly loan payment', 5)[0].name).toBe('PMT')
    expect(searchFunctions('zebra giraffe', 5)).toEqual([])
  })
})

describe('glossary', () => {
  it('finds terms by their names and abbreviations, in the order asked', () => {
    expect(glossaryEntriesIn('How do WACC and terminal value drive a DCF?').map((entry) => entry.aliases[0])).toEqual(['wacc', 'terminal value', 'dcf'])
    expect(glossaryEntriesIn('what is ebitda margin').map((entry) => entry.aliases[0])).toEqual(['ebitda'])
    expect(glossaryEntriesIn('Can I select multiple cells?')).toEqual([])
  })

  it('names only functions the engine has', () => {
    const known = new Set(names(catalogueEntries()))
    for (const entry of FINANCE_GLOSSARY) for (const name of entry.functions) expect(known.has(name), `${entry.term}: ${name}`).toBe(true)
  })
})

describe('answerLocally', () => {
  it('explains a function with its syntax, example and the example’s result', () => {
    const answer = answerLocally({ message: 'How do I use PMT?' })
    expect(answer).toContain('**PMT** (Financial)')
    expect(answer).toContain('Syntax: `PMT(rate, nper, pv, [fv], [type])`')
    expect(answer).toContain('Example: `=PMT(5%/12, 360, 300000)`')
    expect(answer).toMatch(/Result of the example: .*1,610\.46/)
  })

  it('defines finance terms, with the functions that compute them', () => {
    const answer = answerLocally({ message: 'What is IRR and how does it compare with MOIC?' })
    expect(answer).toContain('**IRR (internal rate of return)**')
    expect(answer).toContain('**MOIC (multiple on invested capital)**')
    expect(answer).toContain('`XIRR(values, dates, [guess])`')
  })

  it('finds functions for a described calculation, and answers the same every time', () => {
    const first = answerLocally({ message: 'Which formula calculates a loan payment?' })
    expect(first).toContain('These functions fit what you describe')
    expect(first.indexOf('**PMT**')).toBeGreaterThan(0)
    expect(answerLocally({ message: 'Which formula calculates a loan payment?' })).toBe(first)
  })

  it('answers about a document’s figures when the question names them', () => {
    const document = {
      fileName: 'results.pdf',
      data: [
        { label: 'Revenue', value: 2_500_000, notes: 'page 2' },
        { label: 'Cost of revenue', value: 1_000_000, notes: 'page 2' },
        { label: 'Net income', value: 400_000, notes: 'page 3' },
      ],
    }
    expect(answerLocally({ message: 'what was revenue?', document })).toBe('From **results.pdf**:\n\n- **Revenue**: 2,500,000 (page 2)')
    const margin = answerLocally({ message: 'what is the gross margin?', document })
    expect(margin).toContain('**Gross margin**: 60.0%')
    const summary = answerLocally({ message: 'summarise the document', document })
    expect(summary).toContain('3 figures were extracted')
    // A finance question with a document open is still answered from the glossary.
    expect(answerLocally({ message: 'what is WACC?', document })).toContain('weighted average cost of capital')
  })

  it('says what works offline for anything else', () => {
    const answer = answerLocally({ message: 'Write me a poem about spreadsheets' })
    expect(answer).toContain('I am answering offline')
    expect(answer).toContain(`${catalogueEntries().length} functions`)
  })
})
