/**
 * Budgets for the work a formula may do, so that one formula cannot hold the process: the cells of the
 * arrays it builds, and time, checked cooperatively inside the loops that can run long (operators over
 * ranges, LAMBDA helpers, matrix products, joins).
 *
 * - Any one array a formula builds holds at most `maxArrayCells` cells, and all the arrays of one
 *   formula's evaluation together at most `maxFormulaCells`. Past either the formula is #NUM!, the error
 *   Excel shows for an array too large to calculate (its "array too large" kind of #NUM!).
 * - An array result spills into at most `maxSpillCells` cells; a larger one is #SPILL!, Excel's error
 *   for a dynamic array it has no memory to spill (its "out of memory while calculating" kind). Every
 *   spilled cell is a cell kept, stored and sent to clients: a whole column spilled is a million.
 * - A formula runs for at most `formulaTimeMs`, and a recalculation for `recalculationTimeMs`: each
 *   formula gets its own share or what is left of the recalculation's, whichever is less. A formula
 *   stopped by the clock is #CALC!, Excel's error for a calculation it could not carry out (as opposed
 *   to #VALUE! or #NUM!, which say that an argument is wrong); the same formula may succeed on a
 *   faster machine, so it is not reported as a wrong input. Formulas that loop over nothing (plain
 *   arithmetic, references) never read the clock and always finish.
 *
 * The meter is module state rather than a parameter: array constructors, operators and helpers reach
 * it without a context being handed to them, and evaluation is synchronous, so exactly one formula is
 * measured at a time in a JavaScript realm (the calculator arms it before each formula and disarms it
 * after). Outside a calculation only single arrays are checked, against the default limit.
 */

/** The limits of one formula's evaluation and of one recalculation. */
export interface EvaluationLimits {
  /** Most cells one array a formula builds may hold (SEQUENCE, MAKEARRAY, an operator over ranges…). */
  maxArrayCells: number
  /** Most cells the arrays one formula's evaluation builds may hold together. */
  maxFormulaCells: number
  /** Most cells one formula's array result may spill into. */
  maxSpillCells: number
  /** Milliseconds one formula may calculate for. */
  formulaTimeMs: number
  /** Milliseconds one recalculation may take; formulas calculated after it is spent get no time of their own. */
  recalculationTimeMs: number
}

/**
 * Far beyond what financial models need (a model's largest arrays are a few columns of a data table,
 * its largest spills a sorted or filtered table, and its slowest formulas take milliseconds), small
 * enough that a hostile formula costs a second and a few hundred megabytes: four whole columns in one
 * array, sixteen in all, a hundred thousand cells spilled, one second a formula.
 */
export const DEFAULT_EVALUATION_LIMITS: Readonly<EvaluationLimits> = {
  maxArrayCells: 4 * 1_048_576,
  maxFormulaCells: 16 * 1_048_576,
  maxSpillCells: 100_000,
  formulaTimeMs: 1_000,
  recalculationTimeMs: 15_000,
}

/** Units of work (an element of an array, a cell read, a call of a LAMBDA) between two reads of the clock. */
const CLOCK_INTERVAL = 16_384

/**
 * Thrown from inside an evaluation that went over its budget; the calculator catches it and stores the
 * error it carries. Not an Error: nothing in a function's code should catch it.
 */
export class OverBudget {
  constructor(
    readonly code: '#NUM!' | '#CALC!',
    readonly message: string,
  ) {}
}

let arrayLimit = DEFAULT_EVALUATION_LIMITS.maxArrayCells
let cellsLeft = Infinity
let workLeft = Infinity
/** NaN until the formula's first clock read sets it, so that cheap formulas never read the clock. */
let formulaDeadline = Number.NaN
let meter: EvaluationMeter | undefined

/** The budget of an engine: its limits, its clock, and the deadline of the recalculation under way. */
export class EvaluationMeter {
  private recalculationDeadline = Infinity

  constructor(
    readonly limits: Readonly<EvaluationLimits>,
    /** Milliseconds from any fixed origin. */
    readonly clock: () => number,
  ) {}

  /** Starts a recalculation's time. */
  beginRecalculation(): void {
    this.recalculationDeadline = this.clock() + this.limits.recalculationTimeMs
  }

  /** Arms the meter for one formula; `disarm` ends it. */
  arm(): void {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the armed meter is module state (see above)
    meter = this
    arrayLimit = this.limits.maxArrayCells
    cellsLeft = this.limits.maxFormulaCells
    workLeft = CLOCK_INTERVAL
    formulaDeadline = Number.NaN
  }

  disarm(): void {
    meter = undefined
    arrayLimit = DEFAULT_EVALUATION_LIMITS.maxArrayCells
    cellsLeft = Infinity
    workLeft = Infinity
  }

  /** Reads the clock: the first read starts the formula's own time; past either deadline the formula stops. */
  check(): void {
    workLeft = CLOCK_INTERVAL
    const now = this.clock()
    if (formulaDeadline !== formulaDeadline) formulaDeadline = now + this.limits.formulaTimeMs
    if (now > this.recalculationDeadline) {
      throw new OverBudget('#CALC!', `The recalculation took longer than ${duration(this.limits.recalculationTimeMs)}, so this formula was stopped`)
    }
    if (now > formulaDeadline) {
      throw new OverBudget('#CALC!', `The formula took longer than ${duration(this.limits.formulaTimeMs)} to calculate and was stopped`)
    }
  }
}

function duration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms.toLocaleString('en-US')} ms`
}

/** Counts `units` of work; reads the clock every few thousand. */
export function work(units: number): void {
  if ((workLeft -= units) > 0) return
  if (meter === undefined) workLeft = Infinity
  else meter.check()
}

/** Stops the formula before it allocates an array of `height` × `width` cells that would exceed its budget. */
export function reserveCells(height: number, width: number): void {
  const cells = height * width
  if (cells > arrayLimit || cells > cellsLeft) throw overArrays(cells)
}

/** Counts a new array's cells against the formula's budget (ArrayValue does, for every array). */
export function chargeCells(cells: number): void {
  if (cells > arrayLimit || (cellsLeft -= cells) < 0) throw overArrays(cells)
  work(cells)
}

function overArrays(cells: number): OverBudget {
  const limits = meter?.limits ?? DEFAULT_EVALUATION_LIMITS
  if (cells > limits.maxArrayCells) return new OverBudget('#NUM!', arrayTooLargeMessage(cells, limits.maxArrayCells))
  return new OverBudget('#NUM!', `The formula's arrays would hold more than ${count(limits.maxFormulaCells)} cells together, the most one formula may build`)
}

/** Why an array result of `cells` cells does not spill. */
export function spillTooLargeMessage(cells: number, limit: number): string {
  return `The array would spill into ${count(cells)} cells; a formula may spill into at most ${count(limit)}. Refer to the rows that hold data (A2:A1000 rather than A:A)`
}

/** Why an array of `cells` cells is refused. */
export function arrayTooLargeMessage(cells: number, limit: number): string {
  return `The array would hold ${count(cells)} cells; a formula's arrays may hold up to ${count(limit)} cells each`
}

function count(cells: number): string {
  return Math.round(cells).toLocaleString('en-US')
}

/**
 * The message for a formula the JavaScript engine itself stopped (a LAMBDA calling itself too deep for
 * the call stack, an array or text too long to allocate): Excel answers such formulas with #NUM!.
 */
export function resourceMessage(error: RangeError): string {
  return /call stack/i.test(error.message)
    ? 'The formula calls itself or nests too deeply to calculate'
    : 'The formula needs more memory than a formula may use'
}
