/**
 * The IS functions: what kind of value a value is.
 */
import { ArrayValue, CellError, RangeRef, ReferenceList } from '../../values.js'
import type { Scalar, Value } from '../../values.js'
import { MISSING } from '../types.js'
import type { FunctionDefinition } from '../types.js'

function isFunction(name: string, description: string, test: (value: Scalar) => boolean): FunctionDefinition {
  return {
    name,
    category: 'information',
    minArgs: 1,
    maxArgs: 1,
    args: ['scalarOrError'],
    syntax: `${name}(value)`,
    description,
    example: `${name}(A1)`,
    impl: ([value]) => test(value === MISSING ? null : (value as Scalar)),
  }
}

export const ISBLANK = isFunction('ISBLANK', 'Returns TRUE if the value refers to an empty cell.', (v) => v === null)
export const ISERROR = isFunction('ISERROR', 'Returns TRUE if the value is any error value.', (v) => v instanceof CellError)
export const ISERR = isFunction(
  'ISERR',
  'Returns TRUE if the value is any error value except #N/A.',
  (v) => v instanceof CellError && v.code !== '#N/A',
)
export const ISNA = isFunction(
  'ISNA',
  'Returns TRUE if the value is the #N/A error.',
  (v) => v instanceof CellError && v.code === '#N/A',
)
export const ISNUMBER = isFunction('ISNUMBER', 'Returns TRUE if the value is a number.', (v) => typeof v === 'number')
export const ISTEXT = isFunction('ISTEXT', 'Returns TRUE if the value is text.', (v) => typeof v === 'string')
export const ISNONTEXT = isFunction(
  'ISNONTEXT',
  'Returns TRUE if the value is not text (an empty cell is not text).',
  (v) => typeof v !== 'string',
)
export const ISLOGICAL = isFunction('ISLOGICAL', 'Returns TRUE if the value is TRUE or FALSE.', (v) => typeof v === 'boolean')

/** ISEVEN and ISODD take numbers and numeric text, but not booleans. */
function parity(name: string, wantOdd: boolean): FunctionDefinition {
  return {
    name,
    category: 'information',
    minArgs: 1,
    maxArgs: 1,
    args: ['scalar'],
    syntax: `${name}(number)`,
    description: `Returns TRUE if the number is ${wantOdd ? 'odd' : 'even'}; the fraction is ignored.`,
    example: `${name}(${wantOdd ? 3 : 2})`,
    impl: ([arg]) => {
      let number: number
      if (arg === null || arg === MISSING) number = 0
      else if (typeof arg === 'number') number = arg
      else if (typeof arg === 'string') {
        const trimmed = arg.trim()
        number = trimmed === '' ? NaN : Number(trimmed)
        if (!Number.isFinite(number)) return CellError.VALUE
      } else return CellError.VALUE
      const odd = Math.abs(Math.trunc(number)) % 2 === 1
      return odd === wantOdd
    },
  }
}

export const ISEVEN = parity('ISEVEN', false)
export const ISODD = parity('ISODD', true)

export const ISREF: FunctionDefinition = {
  name: 'ISREF',
  category: 'information',
  minArgs: 1,
  maxArgs: 1,
  args: ['any'],
  syntax: 'ISREF(value)',
  description: 'Returns TRUE if the value is a reference to cells.',
  example: 'ISREF(A1)',
  impl: ([value]) => value instanceof RangeRef || value instanceof ReferenceList,
}

export const ISFORMULA: FunctionDefinition = {
  name: 'ISFORMULA',
  category: 'information',
  minArgs: 1,
  maxArgs: 1,
  args: ['any'],
  syntax: 'ISFORMULA(reference)',
  description: 'Returns TRUE if the referenced cell holds a formula.',
  example: 'ISFORMULA(A1)',
  impl: ([value]) => {
    if (value instanceof CellError) return value
    const reference = value instanceof ReferenceList && value.areas.length === 1 ? value.areas[0] : value
    if (!(reference instanceof RangeRef)) return CellError.VALUE
    if (reference.isSingleCell) return reference.sheet.hasFormula(reference.top, reference.left)
    const data: Scalar[] = []
    for (let r = reference.top; r <= reference.bottom; r++) {
      for (let c = reference.left; c <= reference.right; c++) data.push(reference.sheet.hasFormula(r, c))
    }
    return new ArrayValue(reference.height, reference.width, data)
  },
}

export const N: FunctionDefinition = {
  name: 'N',
  category: 'information',
  minArgs: 1,
  maxArgs: 1,
  args: ['scalarOrError'],
  syntax: 'N(value)',
  description: 'Returns a value converted to a number: numbers and dates as they are, TRUE as 1, anything else 0.',
  example: 'N(A1)',
  impl: ([value]) => {
    if (value instanceof CellError) return value
    if (typeof value === 'number') return value
    if (typeof value === 'boolean') return value ? 1 : 0
    return 0
  },
}

export const NA: FunctionDefinition = {
  name: 'NA',
  category: 'information',
  minArgs: 0,
  maxArgs: 0,
  args: [],
  syntax: 'NA()',
  description: 'Returns the error value #N/A, "no value available".',
  example: 'NA()',
  impl: () => CellError.NA,
}

/** The type number TYPE gives a value: 1 number, 2 text, 4 logical, 16 error, 64 array. */
function typeOf(value: Value): number {
  if (value === null || typeof value === 'number') return 1
  if (typeof value === 'string') return 2
  if (typeof value === 'boolean') return 4
  if (value instanceof CellError) return 16
  if (value instanceof RangeRef) return value.isSingleCell ? typeOf(value.get(0, 0)) : 64
  return value instanceof ReferenceList ? 16 : 64
}

export const TYPE: FunctionDefinition = {
  name: 'TYPE',
  category: 'information',
  minArgs: 1,
  maxArgs: 1,
  args: ['any'],
  syntax: 'TYPE(value)',
  description: 'Returns the type of a value: 1 number, 2 text, 4 logical value, 16 error, 64 array.',
  example: 'TYPE(A1)',
  impl: ([value]) => (value === MISSING ? 1 : typeOf(value)),
}

const ERROR_TYPE_NUMBERS: Record<string, number> = {
  '#NULL!': 1,
  '#DIV/0!': 2,
  '#VALUE!': 3,
  '#REF!': 4,
  '#NAME?': 5,
  '#NUM!': 6,
  '#N/A': 7,
  '#SPILL!': 9,
  '#CALC!': 14,
}

export const ERROR_TYPE: FunctionDefinition = {
  name: 'ERROR.TYPE',
  category: 'information',
  minArgs: 1,
  maxArgs: 1,
  args: ['scalarOrError'],
  syntax: 'ERROR.TYPE(error_val)',
  description: 'Returns a number for an error value (1 #NULL!, 2 #DIV/0!, 3 #VALUE!, 4 #REF!, 5 #NAME?, 6 #NUM!, 7 #N/A); #N/A for anything else.',
  example: 'ERROR.TYPE(A1)',
  impl: ([value]) => (value instanceof CellError ? (ERROR_TYPE_NUMBERS[value.code] ?? CellError.NA) : CellError.NA),
}

export const functions: readonly FunctionDefinition[] = [
  ISBLANK,
  ISERROR,
  ISERR,
  ISNA,
  ISNUMBER,
  ISTEXT,
  ISNONTEXT,
  ISLOGICAL,
  ISEVEN,
  ISODD,
  ISREF,
  ISFORMULA,
  N,
  NA,
  TYPE,
  ERROR_TYPE,
]
