/**
 * @finsheet/formula — the calculation engine.
 */
export { CellError, ArrayValue, RangeRef, ReferenceList, ERROR_CODES, MAX_ROW, MAX_COL, errorFromText, isCellError } from './values.js'
export type { ErrorCode, Scalar, Value, Matrix, SheetView } from './values.js'

export { MISSING, CATEGORY_LABELS } from './functions/types.js'
export type {
  Arg,
  ArgKind,
  FunctionCategory,
  FunctionContext,
  FunctionDefinition,
  EagerFunctionDefinition,
  LazyFunctionDefinition,
  LazyArg,
  FunctionCatalogueEntry,
} from './functions/types.js'
export { FunctionRegistry } from './functions/registry.js'
export { builtinFunctionDefinitions, createBuiltinRegistry } from './functions/index.js'
export * as functionHelpers from './functions/helpers.js'

export { toNumber, toText, toBoolean, compareScalars, numberToText } from './coerce.js'
export { parseCellInput, readNumber } from './input/parse-input.js'
export type { CellInput, NumberReading } from './input/parse-input.js'
export { serialFromDate, dateFromSerial, timeFromSerial, serialFromTime, weekdayFromSerial } from './dates.js'
export type { CivilDate } from './dates.js'
