import { describe, expect, it } from 'vitest'
import { validRules } from './valid-rules.js'

describe('validation rules of an imported workbook', () => {
  it('keeps good rules and leaves out one the model refuses', () => {
    expect(
      validRules([
        { ranges: ['A1:A5'], type: 'list', formula1: '"Yes,No"' },
        { ranges: ['B1'], type: 'whole', operator: 'between', formula1: '1' },
        { ranges: ['C1'], type: 'custom', formula1: '=C1>0' },
      ]),
    ).toEqual([
      { ranges: ['A1:A5'], type: 'list', formula1: '"Yes,No"' },
      { ranges: ['C1'], type: 'custom', formula1: 'C1>0' },
    ])
    expect(validRules(undefined)).toBeUndefined()
  })
})
