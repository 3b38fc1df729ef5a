import { describe, expect, it } from 'vitest'
import { asksForFormula, matchingPrompts, routeOf } from './routing'
import { SUGGESTED_PROMPTS } from './texts'

describe('routeOf', () => {
  it('keeps everything in chat in Chat mode', () => {
    expect(routeOf('chat', 'Create a DCF model for Acme')).toBe('chat')
    expect(routeOf('chat', 'Add a totals row')).toBe('chat')
  })

  it('sends a new financial model without a workbook, an action word to the workbook, and anything else to chat in Agent mode', () => {
    expect(routeOf('agent', 'Create a DCF model for Acme')).toBe('create_model')
    expect(routeOf('agent', 'build an LBO for the target')).toBe('create_model')
    expect(routeOf('agent', 'Add a totals row under the data')).toBe('action')
    expect(routeOf('agent', 'Change the selected cells to currency format')).toBe('action')
    expect(routeOf('agent', 'Update the Revenue tab')).toBe('action')
    expect(routeOf('agent', 'What is WACC?')).toBe('chat')
  })

  it('sends every suggested prompt to the action path', () => {
    for (const prompt of SUGGESTED_PROMPTS) expect(routeOf('agent', prompt), prompt).not.toBe('chat')
  })

  it('sends an imperative that opens with a command verb to the action path, and a question that contains one to chat', () => {
    for (const command of ['Set B3 to 15%', 'delete column C', 'Please move A7:B7 to A10', 'can you freeze the top row?', 'sort the table by revenue', 'hide column C', 'extend the forecast to 2030', 'increase all prices by 5%', 'Fill B5 right to F5'])
      expect(routeOf('agent', command), command).toBe('action')
    for (const question of ['What is the sum of revenue?', 'Why would I hide a column?', 'How do I sort by two columns?']) expect(routeOf('agent', question), question).toBe('chat')
  })

  it('matches action words as words, not inside others', () => {
    expect(routeOf('agent', 'What is the address of the remodel?')).toBe('chat')
  })
})

describe('asksForFormula', () => {
  it('hears a request for a formula or a function', () => {
    expect(asksForFormula('Which function calculates a loan payment?')).toBe(true)
    expect(asksForFormula('Give me a formula for CAGR')).toBe(true)
    expect(asksForFormula('How do I calculate NPV?')).toBe(true)
    expect(asksForFormula('What is WACC?')).toBe(false)
  })
})

describe('matchingPrompts', () => {
  it("lists every prompt after '/', then those containing what follows it", () => {
    expect(matchingPrompts('/', SUGGESTED_PROMPTS)).toHaveLength(6)
    expect(matchingPrompts('/wacc', SUGGESTED_PROMPTS)).toEqual(['Build a WACC sensitivity table from 8% to 12%'])
    expect(matchingPrompts('/nothing like it', SUGGESTED_PROMPTS)).toEqual([])
    expect(matchingPrompts('wacc', SUGGESTED_PROMPTS)).toEqual([])
  })
})
