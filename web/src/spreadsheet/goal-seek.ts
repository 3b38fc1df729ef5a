import type { WorkbookCommand } from '@finsheet/contracts'
import { readNumber } from '@finsheet/formula'
import type { CellPosition } from '../grid/address'
import { cellAddress, parseCellAddress } from '../grid/address'
import { sheetPrefix } from '../grid/formula-editing'
import type { WorkbookSnapshot } from '../workbook/workbook-store'
import { WorkbookStore } from '../workbook/workbook-store'

/**
 * Goal Seek, as Excel's What-If Analysis has it: finds the input that makes a formula give a target.
 * The solver tries secant steps from the input's current value (fast on smooth models: a rate that
 * makes an NPV zero), and when they stall it brackets a sign change and bisects it (sure on any
 * continuous model). The search runs on a copy of the workbook, so the cells on screen never move
 * while it runs; only the answer, when accepted, is written, as one undoable edit.
 */

/** Excel's Goal Seek accepts a result within this distance of the target (its maximum change). */
export const GOAL_SEEK_TOLERANCE = 0.001
/** How many times the model is calculated at most in one search. */
export const GOAL_SEEK_MAX_EVALUATIONS = 200

const SECANT_STEPS = 40
const BRACKET_DOUBLINGS = 60

interface Point {
  x: number
  /** f(x) − target */
  g: number
}

export interface SolverResult {
  /** the input tried that came closest */
  input: number
  /** what the formula gave for it (NaN when no input gave a number) */
  value: number
  /** within GOAL_SEEK_TOLERANCE of the target */
  found: boolean
  evaluations: number
}

/**
 * Finds x with f(x) = target, starting from `start`. `f` answers null where the model gives no number
 * (an error, text). Stops as soon as the target is met to the last digits that matter, or after
 * `maxEvaluations` calculations.
 */
export function solve(f: (x: number) => number | null, target: number, start: number, maxEvaluations = GOAL_SEEK_MAX_EVALUATIONS): SolverResult {
  // Closer than this the answer no longer changes what any cell shows; it stops the search early.
  const exact = 1e-10 * Math.max(1, Math.abs(target))
  let evaluations = 0
  let best = { x: start, g: Number.NaN }
  // the points either side of the target closest to it: a sign change to bisect once both are known
  const side: { positive: Point | null; negative: Point | null } = { positive: null, negative: null }

  const gap = (x: number): number | null => {
    if (evaluations >= maxEvaluations || !Number.isFinite(x)) return null
    evaluations++
    const value = f(x)
    if (value === null || !Number.isFinite(value)) return null
    const g = value - target
    if (!(Math.abs(g) >= Math.abs(best.g))) best = { x, g }
    if (g > 0 && (!side.positive || g < side.positive.g)) side.positive = { x, g }
    if (g < 0 && (!side.negative || g > side.negative.g)) side.negative = { x, g }
    return g
  }
  const done = () => Math.abs(best.g) <= exact
  const result = (): SolverResult => ({ input: best.x, value: best.g + target, found: Math.abs(best.g) <= GOAL_SEEK_TOLERANCE, evaluations })

  let x0 = start
  let g0 = gap(x0)
  if (g0 === null) {
    // The model gives no number at its current input: look nearby for one that does.
    for (const x of [0, 1, -1, 0.1, 10]) {
      if (x === start) continue
      g0 = gap(x)
      if (g0 !== null) {
        x0 = x
        break
      }
    }
    if (g0 === null) return result()
  }
  if (done()) return result()

  // Secant steps.
  const step0 = Math.max(Math.abs(x0) * 0.01, 0.01)
  let x1 = x0 + step0
  let g1 = gap(x1)
  for (let i = 0; i < SECANT_STEPS && g1 !== null && !done(); i++) {
    if (g1 === g0) break
    const x2 = x1 - (g1 * (x1 - x0)) / (g1 - g0)
    if (!Number.isFinite(x2) || x2 === x1) break
    const g2 = gap(x2)
    if (g2 === null) break
    x0 = x1
    g0 = g1
    x1 = x2
    g1 = g2
  }
  if (done()) return result()

  // A sign change: seen already, or found by stepping out further and further on both sides.
  const origin = best.x
  for (let k = 0, step = Math.max(Math.abs(origin) * 0.1, 0.1); k < BRACKET_DOUBLINGS && !(side.positive && side.negative) && evaluations < maxEvaluations; k++, step *= 2) {
    gap(origin + step)
    if (!(side.positive && side.negative)) gap(origin - step)
  }
  if (!side.positive || !side.negative) return result()

  // Bisection of the bracket.
  let low: Point = side.positive
  let high: Point = side.negative
  while (!done() && evaluations < maxEvaluations) {
    const middle = (low.x + high.x) / 2
    if (middle === low.x || middle === high.x) break
    const g = gap(middle)
    if (g === null) break
    if (g > 0) low = { x: middle, g }
    else high = { x: middle, g }
  }
  return result()
}

export interface GoalSeekRequest {
  /** the formula cell to bring to the target ('B10' or 'Sheet1!B10') */
  setCell: string
  /** the target, as typed */
  toValue: string
  /** the constant the search changes */
  changingCell: string
}

export interface GoalSeekCell {
  sheet: string
  address: string
  /** 'B10' on the active sheet, 'Model!B10' elsewhere */
  label: string
}

export interface GoalSeekOutcome {
  found: boolean
  setCell: GoalSeekCell
  changingCell: GoalSeekCell
  target: number
  /** the input found (the closest tried when none was found) */
  input: number
  /** what the set cell shows with that input */
  currentValue: string
  /** the edit that writes the input: one undoable set-cells */
  command: WorkbookCommand
}

/** What a workbook lends Goal Seek: its cells, and a snapshot to calculate a copy from. */
export type GoalSeekWorkbook = Pick<WorkbookStore, 'sheetNames' | 'getInput' | 'getValue' | 'snapshot' | 'calculation'>

function readCell(text: string, activeSheet: string, sheets: readonly string[], what: string): GoalSeekCell & { pos: CellPosition } {
  const trimmed = text.trim().replace(/\$/g, '')
  const bang = trimmed.lastIndexOf('!')
  let sheet = activeSheet
  if (bang >= 0) {
    let name = trimmed.slice(0, bang)
    if (name.startsWith("'") && name.endsWith("'") && name.length >= 2) name = name.slice(1, -1).replace(/''/g, "'")
    const found = sheets.find((candidate) => candidate.toUpperCase() === name.toUpperCase())
    if (!found) throw new GoalSeekError(`There is no sheet named ${name}.`)
    sheet = found
  }
  const pos = parseCellAddress(trimmed.slice(bang + 1))
  if (!pos) throw new GoalSeekError(`${what} must be a single cell, such as B10.`)
  const address = cellAddress(pos)
  return { sheet, address, pos, label: sheet === activeSheet ? address : `${sheetPrefix(sheet)}${address}` }
}

/** Input Goal Seek cannot work with; its message is shown as it is. */
export class GoalSeekError extends Error {}

/**
 * Runs Goal Seek on a copy of the workbook. Throws GoalSeekError for a request Excel refuses: a set
 * cell without a formula, a changing cell holding one, a target that is not a number.
 */
export function goalSeek(workbook: GoalSeekWorkbook, request: GoalSeekRequest, activeSheet: string): GoalSeekOutcome {
  const sheets = workbook.sheetNames
  const set = readCell(request.setCell, activeSheet, sheets, 'Set cell')
  const changing = readCell(request.changingCell, activeSheet, sheets, 'By changing cell')
  if (!workbook.getInput(set.sheet, set.pos).startsWith('=')) throw new GoalSeekError(`Set cell must contain a formula: ${set.label} does not.`)
  const target = readNumber(request.toValue)?.value
  if (target === undefined) throw new GoalSeekError('To value must be a number.')
  const changingInput = workbook.getInput(changing.sheet, changing.pos)
  if (changingInput.startsWith('=')) throw new GoalSeekError(`By changing cell must contain a value, not a formula: ${changing.label} holds ${changingInput}.`)
  const current = workbook.getValue(changing.sheet, changing.pos)
  const start = typeof current === 'number' ? current : 0

  const { iterate, maxIterations, maxChange } = workbook.calculation
  const snapshot: WorkbookSnapshot = { ...workbook.snapshot(), iterativeCalculation: iterate, iterationLimits: { maxIterations, maxChange } }
  const copy = new WorkbookStore(snapshot)
  const trial = (x: number): number | null => {
    copy.dispatch({ type: 'set-cells', sheet: changing.sheet, cells: [{ address: changing.address, input: x }] }, 'remote')
    const value = copy.getValue(set.sheet, set.pos)
    return typeof value === 'number' ? value : null
  }
  const solved = solve(trial, target, start)
  trial(solved.input)
  return {
    found: solved.found,
    setCell: { sheet: set.sheet, address: set.address, label: set.label },
    changingCell: { sheet: changing.sheet, address: changing.address, label: changing.label },
    target,
    input: solved.input,
    currentValue: copy.getDisplay(set.sheet, set.pos),
    command: { type: 'set-cells', sheet: changing.sheet, cells: [{ address: changing.address, input: solved.input }] },
  }
}

/** The dialog's first line, in Excel's words. */
export function goalSeekStatus(outcome: Pick<GoalSeekOutcome, 'found' | 'setCell'>): string {
  return outcome.found ? `Goal Seeking with Cell ${outcome.setCell.label} found a solution.` : `Goal Seeking with Cell ${outcome.setCell.label} may not have found a solution.`
}
