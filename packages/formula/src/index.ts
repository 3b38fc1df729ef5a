/**
 * @finsheet/formula — the calculation engine (isomorphic: no Node or DOM imports).
 *
 * ```ts
 * const engine = new Engine({ iterative: { enabled: false, maxIterations: 100, maxChange: 0.001 } })
 * engine.addSheet('Sheet1')
 * engine.setCell('Sheet1', 'A1', '=SUM(B1:B3)')       // returns the changed cells
 * engine.setCells([{ sheet: 'Sheet1', address: 'B1', input: '15%' }])
 * engine.getValue('Sheet1', 'A1')                     // number | string | boolean | null | CellError
 * engine.getDisplay('Sheet1', 'A1', '0.00%')
 * ```
 * Rows and columns are 0-based in numeric arguments (`insertRows(sheet, 4)` inserts before row 5);
 * addresses are A1 text. Misuse of the API throws (InvalidAddressError, SheetNotFoundError,
 * EngineUsageError); spreadsheet errors are values (CellError).
 */
export { Engine } from './engine/engine.js'
export type { TableDefinition, TableInfo } from './engine/tables.js'
export type { CellValue, CellInputValue, CellUpdate, CellSnapshot, StoredCell, EngineOptions, CellChange, CellLoad, LoadOptions, IterationSettings, FormulaEvaluation, RelativeFormula, ExternalWorkbook, ExternalWorkbookSheet, ExternalLinkInfo, HiddenRows, StructureReport } from './engine/engine.js'
export { DEFAULT_EVALUATION_LIMITS } from './evaluator/budget.js'
export type { EvaluationLimits } from './evaluator/budget.js'
export type { NameInfo } from './engine/names.js'
export { isValidName } from './engine/names.js'

export { CellError, BudgetError, ArrayValue, RangeRef, ReferenceList, ERROR_CODES, MAX_ROW, MAX_COL, errorFromText, isCellError, isBudgetError } from './values.js'
export type { ErrorCode, Scalar, Value, Matrix, SheetView } from './values.js'
export { InvalidAddressError, SheetNotFoundError, EngineUsageError } from './errors.js'

// A1 helpers
export {
  columnToLetters,
  lettersToColumn,
  formatAddress,
  parseAddress,
  tryParseAddress,
  parseRange,
  tryParseRange,
  formatRange,
  formatSheetPrefix,
  sheetNameNeedsQuotes,
} from './address/a1.js'
export type { CellAddress, RangeAddress } from './address/a1.js'
export { isExternalSheetName, splitExternalSheetName, formatExternalSheetPrefix, fileNameOf } from './address/external.js'
export type { ExternalSheetName } from './address/external.js'
export { sheetNameFormatProblem, isWellFormedText, toSheetName, MAX_SHEET_NAME_LENGTH } from './address/sheet-names.js'

// Formulas as text
export { translateFormula, parseFormulaText, printFormulaTree, shiftFormula, renameSheetInFormula, renameNameInFormula } from './parser/translate.js'
export type { StructuralChange } from './engine/structure.js'
export { mapTree as mapFormulaTree } from './engine/structure.js'
export { FormulaSyntaxError } from './parser/parser.js'
export { parseStructured, printStructured, scanBrackets } from './parser/structured.js'
export type { StructuredParts } from './parser/structured.js'
export type { Node as FormulaNode } from './parser/ast.js'

// Input and display
export { parseCellInput, readNumber } from './input/parse-input.js'
export type { CellInput, NumberReading } from './input/parse-input.js'
export { formatValue, formatValueWithColor, isDateFormat } from './format/number-format.js'
export type { FormattedValue } from './format/number-format.js'
export { toNumber, toText, toBoolean, compareScalars, numberToText } from './coerce.js'
export { serialFromDate, dateFromSerial, timeFromSerial, serialFromTime, weekdayFromSerial } from './dates.js'
export type { CivilDate } from './dates.js'

// Functions
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
export { builtinFunctionDefinitions, createBuiltinRegistry, functionCatalogue } from './functions/index.js'
export * as functionHelpers from './functions/helpers.js'
