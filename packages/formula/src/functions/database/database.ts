/**
 * The database functions (DSUM, DAVERAGE, DCOUNT, ...): a table with a header row, a field naming one
 * of its columns, and a criteria range whose first row names columns and whose other rows hold
 * conditions. Conditions in one row must all hold; any row may match. As in Excel's advanced filter,
 * plain text matches values that begin with it ("East" matches "Eastern"), and `=East` matches exactly.
 */
import { compareText, numberToText, toNumber } from '../../coerce.js'
import { readNumber } from '../../input/parse-input.js'
import { ArrayValue, CellError, RangeRef, ReferenceList } from '../../values.js'
import type { Matrix, Scalar } from '../../values.js'
import { parseCriteria, wildcardPattern } from '../helpers.js'
import { MISSING } from '../types.js'
import type { Arg, FunctionDefinition } from '../types.js'
import { product } from '../math/aggregate.js'
import {
  average,
  maximum,
  minimum,
  populationStdev,
  populationVariance,
  sampleStdev,
  sampleVariance,
} from '../statistical/aggregates.js'
import { sum } from '../statistical/collect.js'

function matrixArg(arg: Arg | undefined): Matrix | CellError {
  if (arg === undefined || arg === MISSING) return CellError.VALUE
  if (arg instanceof CellError) return arg
  if (arg instanceof RangeRef) return arg.bottom - arg.top > 100_000 ? arg.trimmed() : arg
  if (arg instanceof ReferenceList) return arg.areas.length === 1 ? arg.areas[0].trimmed() : CellError.VALUE
  if (arg instanceof ArrayValue) return arg
  return CellError.VALUE
}

/** A header as text for matching names: numbers and booleans as Excel writes them. */
function headerText(value: Scalar): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number') return numberToText(value)
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE'
  return undefined
}

function findColumn(database: Matrix, name: string): number {
  for (let c = 0; c < database.width; c++) {
    const header = headerText(database.get(0, c))
    if (header !== undefined && compareText(header, name) === 0) return c
  }
  return -1
}

/** The column a field argument names (0-based), undefined when omitted, or #VALUE!. */
function resolveField(database: Matrix, field: Arg | undefined): number | undefined | CellError {
  if (field === undefined || field === MISSING) return undefined
  let value: Scalar
  if (field instanceof RangeRef) {
    if (!field.isSingleCell) return CellError.VALUE
    value = field.get(0, 0)
  } else if (field instanceof ArrayValue || field instanceof ReferenceList) return CellError.VALUE
  else value = field
  if (value instanceof CellError) return value
  if (value === null) return CellError.VALUE
  if (typeof value === 'string') {
    const column = findColumn(database, value)
    return column < 0 ? CellError.VALUE : column
  }
  const index = Math.trunc(toNumber(value) as number)
  return index >= 1 && index <= database.width ? index - 1 : CellError.VALUE
}

type Condition = (value: Scalar) => boolean

/** A condition from a criteria cell; plain text is a prefix match, as in Excel's advanced filter. */
function conditionOf(criterion: Scalar): Condition | undefined {
  if (criterion === null) return undefined
  if (typeof criterion !== 'string') return parseCriteria(criterion)
  if (criterion === '') return undefined
  if (/^(<=|>=|<>|=|<|>)/.test(criterion)) return parseCriteria(criterion)
  if (readNumber(criterion) !== undefined) return parseCriteria(criterion)
  const upper = criterion.toUpperCase()
  if (upper === 'TRUE' || upper === 'FALSE') return parseCriteria(criterion)
  const pattern = wildcardPattern(`${criterion}*`) as RegExp
  return (value) => typeof value === 'string' && pattern.test(value)
}

/** A condition on one database column; `column` is -1 for a heading that names no column. */
interface ColumnCondition {
  column: number
  test: Condition
}

/** The rows (1-based, within the database) of the records that meet the criteria. */
function matchingRecords(database: Matrix, criteria: Matrix): number[] {
  const columns: number[] = []
  for (let c = 0; c < criteria.width; c++) {
    const name = headerText(criteria.get(0, c))
    columns.push(name === undefined ? -1 : findColumn(database, name))
  }
  const rows: ColumnCondition[][] = []
  for (let r = 1; r < criteria.height; r++) {
    const conditions: ColumnCondition[] = []
    for (let c = 0; c < criteria.width; c++) {
      const test = conditionOf(criteria.get(r, c))
      if (test) conditions.push({ column: columns[c], test })
    }
    rows.push(conditions)
  }
  const records: number[] = []
  for (let record = 1; record < database.height; record++) {
    // A condition under a heading that names no column never holds.
    const matches = rows.some((conditions) =>
      conditions.every(({ column, test }) => column >= 0 && test(database.get(record, column))),
    )
    if (matches) records.push(record)
  }
  return records
}

interface Selection {
  /** The field's values of the matching records (or the records themselves when no field is given). */
  values: Scalar[]
}

function select(args: Arg[]): Selection | CellError {
  const database = matrixArg(args[0])
  if (database instanceof CellError) return database
  const criteria = matrixArg(args[2])
  if (criteria instanceof CellError) return criteria
  if (database.height < 2) return CellError.VALUE
  const column = resolveField(database, args[1])
  if (column instanceof CellError) return column
  const records = matchingRecords(database, criteria)
  return { values: records.map((record) => (column === undefined ? 0 : database.get(record, column))) }
}

function numbersOf(values: readonly Scalar[]): number[] {
  return values.filter((value): value is number => typeof value === 'number')
}

function databaseFunction(
  name: string,
  description: string,
  compute: (values: Scalar[]) => Scalar,
  fieldOptional = false,
): FunctionDefinition {
  return {
    name,
    category: 'database',
    minArgs: fieldOptional ? 2 : 3,
    maxArgs: 3,
    args: ['any', 'any', 'any'],
    syntax: `${name}(database, ${fieldOptional ? '[field]' : 'field'}, criteria)`,
    description,
    example: `${name}(A1:F20, "Revenue", H1:I2)`,
    impl: (args) => {
      const selection = select(args.length === 2 ? [args[0], MISSING, args[1]] : args)
      return selection instanceof CellError ? selection : compute(selection.values)
    },
  }
}

export const DSUM = databaseFunction('DSUM', 'Adds the numbers in a column of the records that meet the criteria.', (values) =>
  sum(numbersOf(values)),
)
export const DAVERAGE = databaseFunction('DAVERAGE', 'Averages the numbers in a column of the records that meet the criteria.', (values) =>
  average(numbersOf(values)),
)
export const DCOUNT = databaseFunction(
  'DCOUNT',
  'Counts the numbers in a column of the records that meet the criteria (the records themselves when field is omitted).',
  (values) => numbersOf(values).length,
  true,
)
export const DCOUNTA = databaseFunction(
  'DCOUNTA',
  'Counts the non-empty cells in a column of the records that meet the criteria.',
  (values) => values.filter((value) => value !== null).length,
  true,
)
export const DMAX = databaseFunction('DMAX', 'Returns the largest number in a column of the records that meet the criteria.', (values) =>
  maximum(numbersOf(values)),
)
export const DMIN = databaseFunction('DMIN', 'Returns the smallest number in a column of the records that meet the criteria.', (values) =>
  minimum(numbersOf(values)),
)
export const DPRODUCT = databaseFunction('DPRODUCT', 'Multiplies the numbers in a column of the records that meet the criteria.', (values) =>
  product(numbersOf(values), 0),
)
export const DGET = databaseFunction(
  'DGET',
  'Returns the value in a column of the one record that meets the criteria (#VALUE! for none, #NUM! for several).',
  (values) => {
    if (values.length === 0) return CellError.VALUE
    if (values.length > 1) return CellError.NUM
    return values[0]
  },
)
export const DVAR = databaseFunction('DVAR', 'Returns the sample variance of a column of the records that meet the criteria.', (values) =>
  sampleVariance(numbersOf(values)),
)
export const DVARP = databaseFunction('DVARP', 'Returns the population variance of a column of the records that meet the criteria.', (values) =>
  populationVariance(numbersOf(values)),
)
export const DSTDEV = databaseFunction('DSTDEV', 'Returns the sample standard deviation of a column of the records that meet the criteria.', (values) =>
  sampleStdev(numbersOf(values)),
)
export const DSTDEVP = databaseFunction(
  'DSTDEVP',
  'Returns the population standard deviation of a column of the records that meet the criteria.',
  (values) => populationStdev(numbersOf(values)),
)

export const functions: readonly FunctionDefinition[] = [
  DSUM,
  DAVERAGE,
  DCOUNT,
  DCOUNTA,
  DMAX,
  DMIN,
  DPRODUCT,
  DGET,
  DVAR,
  DVARP,
  DSTDEV,
  DSTDEVP,
]
