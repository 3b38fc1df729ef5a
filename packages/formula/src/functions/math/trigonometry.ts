/**
 * Trigonometric and hyperbolic functions and their inverses.
 */
import { CellError } from '../../values.js'
import { numberResult } from '../helpers.js'
import type { FunctionDefinition } from '../types.js'
import { unaryNumberFunction } from './numeric.js'

/** Excel refuses the circular functions of angles of 2^27 radians or more: their digits mean nothing there. */
const ANGLE_LIMIT = 2 ** 27

/**
 * Excel reduces angles with the x87 processor's pi (64-bit mantissa, 5.0e-20 above the true pi), which
 * shows near the zeros of sine, cosine and tangent: SIN(PI()) is 1.22515E-16 in Excel, not 1.22465E-16.
 * Its half is split in three doubles so that k × each part is exact for every k below 2^27.
 */
const HALF_PI_1 = 1.5707963109016418
const HALF_PI_2 = 1.5893254712295857e-8
const HALF_PI_3 = 6.1257422745431e-17

/** The angle as a multiple k of Excel's pi/2 plus a remainder of at most pi/4, and k's quadrant. */
function reduce(x: number): { remainder: number; quadrant: number } {
  const k = Math.round(x / (Math.PI / 2))
  const remainder = x - k * HALF_PI_1 - k * HALF_PI_2 - k * HALF_PI_3
  return { remainder, quadrant: ((k % 4) + 4) % 4 }
}

export function excelSin(x: number): number {
  const { remainder, quadrant } = reduce(x)
  return [Math.sin, Math.cos, (r: number) => -Math.sin(r), (r: number) => -Math.cos(r)][quadrant](remainder)
}

export function excelCos(x: number): number {
  const { remainder, quadrant } = reduce(x)
  return [Math.cos, (r: number) => -Math.sin(r), (r: number) => -Math.cos(r), Math.sin][quadrant](remainder)
}

export function excelTan(x: number): number {
  const { remainder, quadrant } = reduce(x)
  return quadrant % 2 === 0 ? Math.tan(remainder) : -1 / Math.tan(remainder)
}

function circular(name: string, description: string, example: string, compute: (x: number) => number | CellError) {
  return unaryNumberFunction('math', name, description, example, (x) => (Math.abs(x) >= ANGLE_LIMIT ? CellError.NUM : compute(x)))
}

export const SIN = circular('SIN', 'Returns the sine of an angle in radians.', 'SIN(PI()/2)', excelSin)
export const COS = circular('COS', 'Returns the cosine of an angle in radians.', 'COS(0)', excelCos)
export const TAN = circular('TAN', 'Returns the tangent of an angle in radians.', 'TAN(PI()/4)', excelTan)
export const COT = circular('COT', 'Returns the cotangent of an angle in radians.', 'COT(PI()/4)', (x) =>
  x === 0 ? CellError.DIV0 : 1 / excelTan(x),
)
export const CSC = circular('CSC', 'Returns the cosecant of an angle in radians.', 'CSC(PI()/2)', (x) =>
  x === 0 ? CellError.DIV0 : 1 / excelSin(x),
)
export const SEC = circular('SEC', 'Returns the secant of an angle in radians.', 'SEC(0)', (x) => 1 / excelCos(x))

export const ASIN = unaryNumberFunction('math', 'ASIN', 'Returns the arcsine of a number, in radians.', 'ASIN(1)', (x) =>
  Math.abs(x) > 1 ? CellError.NUM : Math.asin(x),
)
export const ACOS = unaryNumberFunction('math', 'ACOS', 'Returns the arccosine of a number, in radians.', 'ACOS(0)', (x) =>
  Math.abs(x) > 1 ? CellError.NUM : Math.acos(x),
)
export const ATAN = unaryNumberFunction('math', 'ATAN', 'Returns the arctangent of a number, in radians.', 'ATAN(1)', Math.atan)
export const ACOT = unaryNumberFunction(
  'math',
  'ACOT',
  'Returns the arccotangent of a number, in radians between 0 and pi.',
  'ACOT(1)',
  (x) => Math.PI / 2 - Math.atan(x),
)

export const ATAN2: FunctionDefinition = {
  name: 'ATAN2',
  category: 'math',
  minArgs: 2,
  maxArgs: 2,
  args: ['number', 'number'],
  syntax: 'ATAN2(x_num, y_num)',
  description: 'Returns the angle, in radians, of the point (x_num, y_num) from the x-axis.',
  example: 'ATAN2(1, 1)',
  impl: ([x, y]) => {
    if (x === 0 && y === 0) return CellError.DIV0
    return Math.atan2(y as number, x as number)
  },
}

export const SINH = unaryNumberFunction('math', 'SINH', 'Returns the hyperbolic sine of a number.', 'SINH(1)', Math.sinh)
export const COSH = unaryNumberFunction('math', 'COSH', 'Returns the hyperbolic cosine of a number.', 'COSH(1)', Math.cosh)
export const TANH = unaryNumberFunction('math', 'TANH', 'Returns the hyperbolic tangent of a number.', 'TANH(0.5)', Math.tanh)
export const COTH = unaryNumberFunction('math', 'COTH', 'Returns the hyperbolic cotangent of a number.', 'COTH(2)', (x) =>
  x === 0 ? CellError.DIV0 : 1 / Math.tanh(x),
)
export const CSCH = unaryNumberFunction('math', 'CSCH', 'Returns the hyperbolic cosecant of a number.', 'CSCH(1)', (x) =>
  x === 0 ? CellError.DIV0 : 1 / Math.sinh(x),
)
export const SECH = unaryNumberFunction('math', 'SECH', 'Returns the hyperbolic secant of a number.', 'SECH(1)', (x) =>
  numberResult(1 / Math.cosh(x)),
)
export const ASINH = unaryNumberFunction(
  'math',
  'ASINH',
  'Returns the inverse hyperbolic sine of a number.',
  'ASINH(1)',
  Math.asinh,
)
export const ACOSH = unaryNumberFunction(
  'math',
  'ACOSH',
  'Returns the inverse hyperbolic cosine of a number of at least 1.',
  'ACOSH(1)',
  (x) => (x < 1 ? CellError.NUM : Math.acosh(x)),
)
export const ATANH = unaryNumberFunction(
  'math',
  'ATANH',
  'Returns the inverse hyperbolic tangent of a number between -1 and 1.',
  'ATANH(0.5)',
  (x) => (Math.abs(x) >= 1 ? CellError.NUM : Math.atanh(x)),
)
export const ACOTH = unaryNumberFunction(
  'math',
  'ACOTH',
  'Returns the inverse hyperbolic cotangent of a number whose absolute value is more than 1.',
  'ACOTH(6)',
  (x) => (Math.abs(x) <= 1 ? CellError.NUM : 0.5 * Math.log((x + 1) / (x - 1))),
)

export const functions: readonly FunctionDefinition[] = [
  SIN,
  COS,
  TAN,
  COT,
  CSC,
  SEC,
  ASIN,
  ACOS,
  ATAN,
  ACOT,
  ATAN2,
  SINH,
  COSH,
  TANH,
  COTH,
  CSCH,
  SECH,
  ASINH,
  ACOSH,
  ATANH,
  ACOTH,
]
