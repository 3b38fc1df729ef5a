/**
 * How to write a spreadsheet function
 * ===================================
 *
 * A function is a {@link FunctionDefinition}: its metadata (shown in the function catalogue, used for
 * autocomplete and for checking the number of arguments) sits beside its implementation. Put it in the
 * folder of its category and add it to that folder's `index.ts` list; `functions/index.ts` registers
 * every category. Example:
 *
 * ```ts
 * export const ABS: FunctionDefinition = {
 *   name: 'ABS', category: 'math', minArgs: 1, maxArgs: 1, args: ['number'],
 *   syntax: 'ABS(number)', description: 'Returns the absolute value of a number.', example: 'ABS(-4)',
 *   impl: ([x]) => Math.abs(x as number),
 * }
 * ```
 *
 * Argument kinds say what the engine does before calling `impl` (`args[i]` holds the prepared value):
 * - `number`, `text`, `boolean`: a scalar coerced by Excel's rules ("3" → 3, TRUE → 1, empty → 0 or "").
 *   A coercion failure or an error value makes the call return that error without calling `impl`.
 * - `scalar`: any scalar, uncoerced (empty cells arrive as null); errors are returned without a call.
 * - `scalarOrError`: any scalar including errors (ISERROR, IFNA's first argument...).
 * - `any`: the value as evaluated — a scalar, a {@link RangeRef}, a {@link ReferenceList} or an
 *   {@link ArrayValue}; errors are passed in. Use it for ranges (SUM, MATCH's lookup array).
 * - `reference`: must be a reference ({@link RangeRef} or {@link ReferenceList}); otherwise #VALUE!.
 *
 * When an argument of kind number/text/boolean/scalar/scalarOrError receives a range or an array, the
 * engine broadcasts: it calls `impl` once per element and returns an array (`=ABS(A1:A3)` spills), as
 * Excel 365 does. A single cell reference is read as its value. `args` beyond the last kind reuse the
 * last kind (variadic functions: `maxArgs: Infinity`).
 *
 * Omitted arguments (`IF(A1,,2)`) arrive as {@link MISSING}; check for it where Excel gives a default.
 * Trailing arguments that were not written at all are simply absent (`args.length` is smaller).
 *
 * Lazy functions (`lazy: true`: IF, IFERROR, CHOOSE, AND's short-circuit...) get {@link LazyArg}s and
 * evaluate only what they need with `args[i].evaluate(ctx)` — the result is unprepared (a reference
 * stays a reference), so use the helpers in `helpers.ts` to coerce.
 *
 * Return any {@link Value}: a scalar, an array (it spills), or a reference (INDEX, OFFSET, INDIRECT).
 * Return errors as values (`CellError.VALUE`), never throw them. Helpers for Excel's argument rules
 * (coercion, iterating the numbers of a range as SUM does, *IF criteria, broadcasting) are in
 * `helpers.ts`. Volatile functions (`volatile: true`) recalculate on every recalculation.
 */
import type { CellError, RangeRef, Scalar, SheetView, Value } from '../values.js'

export type FunctionCategory =
  | 'math'
  | 'statistical'
  | 'logical'
  | 'information'
  | 'text'
  | 'lookup'
  | 'financial'
  | 'date'
  | 'engineering'
  | 'database'
  | 'web'
  | 'cube'

/** Human-readable names of the categories, for the catalogue. */
export const CATEGORY_LABELS: Record<FunctionCategory, string> = {
  math: 'Math & Trigonometry',
  statistical: 'Statistical',
  logical: 'Logical',
  information: 'Information',
  text: 'Text',
  lookup: 'Lookup & Reference',
  financial: 'Financial',
  date: 'Date & Time',
  engineering: 'Engineering',
  database: 'Database',
  web: 'Web',
  cube: 'Cube',
}

export type ArgKind = 'number' | 'text' | 'boolean' | 'scalar' | 'scalarOrError' | 'any' | 'reference'

/** Marks an argument left empty between commas, such as the second one of `IF(A1,,2)`. */
export const MISSING: unique symbol = Symbol('missing argument')
export type Missing = typeof MISSING

/** A prepared argument: a value, or MISSING for an argument left empty. */
export type Arg = Value | Missing

/** What functions may ask of the engine while they run. */
export interface FunctionContext {
  /** The sheet of the formula being calculated. */
  readonly sheet: SheetView
  /** The 0-based row of the formula's cell. */
  readonly row: number
  /** The 0-based column of the formula's cell. */
  readonly col: number
  /** The date-time serial of this recalculation (TODAY and NOW), the same for every cell of it. */
  now(): number
  /** A reference to a rectangle of a sheet (0-based, inclusive), or #REF! when it leaves the sheet. */
  reference(sheet: SheetView, top: number, left: number, bottom: number, right: number): RangeRef | CellError
  /** Resolves reference text such as `B2`, `Sheet2!A1:C3` or a defined name (INDIRECT). */
  parseReference(text: string, a1Style: boolean): RangeRef | CellError
  /** A sheet by name (case-insensitive), for functions that take sheet names. */
  sheetByName(name: string): SheetView | undefined
  /** The workbook's sheets in tab order (SHEET and SHEETS number them from 1). */
  sheets(): readonly SheetView[]
  /** Binds names for the rest of a LET; undo with `popBindings`. */
  pushBindings(bindings: Map<string, Value>): void
  popBindings(): void
}

/** An argument of a lazy function: evaluated only when asked. */
export interface LazyArg {
  /** Evaluates the argument expression; a reference comes back as a reference. */
  evaluate(ctx: FunctionContext): Value
  /** The bare name written as this argument (`x` in `LET(x, 1, x+1)`), upper-cased; else undefined. */
  readonly identifier: string | undefined
  /** Whether the argument was left empty (`IF(A1,,2)`). */
  readonly isMissing: boolean
}

interface FunctionMetadata {
  /** Upper-case name as typed in formulas, e.g. 'SUM' or 'STDEV.S'. */
  readonly name: string
  readonly category: FunctionCategory
  readonly minArgs: number
  /** `Infinity` for a variadic function (Excel allows 255 arguments). */
  readonly maxArgs: number
  /** Signature as shown to users, e.g. 'SUM(number1, [number2], ...)'. */
  readonly syntax: string
  /** One sentence saying what the function returns. */
  readonly description: string
  /** A formula without '=' that uses the function, e.g. 'SUM(A1:A10)'. */
  readonly example: string
  /** Recalculated on every recalculation (TODAY, NOW, RAND, OFFSET, INDIRECT). */
  readonly volatile?: boolean
  /** Shown with a number format by default: the engine suggests it for cells whose formula starts here. */
  readonly resultFormat?: string
  /**
   * The function's value comes from outside the workbook (market data, a web service, an OLAP cube) or
   * from a calculation the engine does not make; this says which. A formula calling it keeps the value
   * its file was saved with until one of its inputs changes (see Engine.isSavedValue).
   */
  readonly savedValue?: string
  /**
   * The function skips rows that are hidden (SheetView.hiddenRows): formulas calling it recalculate
   * when a sheet's hidden rows change, although no cell they read did.
   */
  readonly readsHiddenRows?: boolean
}

export interface EagerFunctionDefinition extends FunctionMetadata {
  readonly lazy?: false
  /** The kind of each argument; arguments past the end reuse the last kind. Defaults to all `any`. */
  readonly args?: readonly ArgKind[]
  /**
   * The function reads a required argument left empty itself, as MISSING: the Analysis ToolPak's
   * functions answer #N/A, the dynamic-array ones take their default. Otherwise such an argument of a
   * number, text or boolean kind arrives as 0, "" or FALSE, as Excel's classic functions take it
   * (DATE(2024,,15) is DATE(2024,0,15)).
   */
  readonly readsEmptyArguments?: boolean
  readonly impl: (args: Arg[], ctx: FunctionContext) => Value
}

export interface LazyFunctionDefinition extends FunctionMetadata {
  readonly lazy: true
  readonly impl: (args: readonly LazyArg[], ctx: FunctionContext) => Value
}

export type FunctionDefinition = EagerFunctionDefinition | LazyFunctionDefinition

/** The catalogue entry shown in autocomplete and function search (spec: name, syntax, description, category). */
export interface FunctionCatalogueEntry {
  readonly name: string
  readonly syntax: string
  readonly description: string
  readonly category: string
  readonly example: string
  readonly minArgs: number
  readonly maxArgs: number
}

export type { Scalar }
