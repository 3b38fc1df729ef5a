/**
 * The task suite's own layout: JSON files of tasks, each an instruction (or several, run one after
 * another as separate requests) on a fixture workbook, the cells expected afterwards, the cells that
 * must not change, and what else may change. A task is checked against the workbook read back through
 * the API; every cell whose input changed outside the expected cells and the ranges allowed to change
 * counts as an unintended edit.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { splitSheetReference, tryParseRange, formatAddress } from '@finsheet/workbook'
import type { Cell } from '@finsheet/contracts'
import type { WorkbookCells } from './workbook-cells.js'

/** What a cell must hold afterwards: its value, or any of its input, value, number format and style. */
export type ExpectedCell = string | number | boolean | null | { value?: string | number | boolean | null; input?: string; format?: string; bold?: boolean; italic?: boolean; fill?: string; color?: string; empty?: true }

export interface SuiteTask {
  id: string
  family: string
  /** One instruction, or several run one after another. */
  instruction: string | string[]
  /** The import body of the workbook, by path relative to the task file. */
  workbook: string
  activeSheet?: string
  selection?: string
  expected?: Record<string, ExpectedCell>
  /** Ranges (Sheet!A1:B2) whose inputs must stay as they were. */
  mustNotChange?: string[]
  /** Ranges whose inputs may change besides the expected cells; ["*"] for commands that move cells. */
  mayChange?: string[]
  /** The sheets afterwards, in order. */
  sheets?: string[]
  /** Charts the workbook has afterwards. */
  charts?: { type: string; sheet?: string; dataRange?: string; title?: string }[]
  /** Texts the final answer holds (for commands that only read). */
  answerContains?: string[]
  /** The task asks for more than the offline planner reads: it needs a language model. */
  needsModel?: boolean
  /** Where it was read from. */
  file: string
}

interface TaskFile {
  workbook?: string
  tasks: (Omit<SuiteTask, 'file' | 'workbook' | 'family'> & { workbook?: string; family?: string })[]
  family?: string
}

/** Every task of the JSON files in a folder (not its subfolders). */
export function loadSuiteTasks(dir: string): SuiteTask[] {
  const tasks: SuiteTask[] = []
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.json')).sort()) {
    const file = join(dir, name)
    const content = JSON.parse(readFileSync(file, 'utf8')) as TaskFile
    if (!Array.isArray(content.tasks)) continue
    for (const task of content.tasks) {
      const workbook = task.workbook ?? content.workbook
      if (!workbook) throw new Error(`${name}: task ${task.id} names no workbook`)
      tasks.push({ ...task, family: task.family ?? content.family ?? name.replace(/\.json$/, ''), workbook: resolve(dirname(file), workbook), file })
    }
  }
  const ids = new Set<string>()
  for (const task of tasks) {
    if (ids.has(task.id)) throw new Error(`two tasks have the id ${task.id}`)
    ids.add(task.id)
  }
  return tasks
}

/** The cells of `Sheet!A1:B3` (or one cell). */
export function refsOf(range: string): string[] {
  const { sheet, reference } = splitSheetReference(range)
  const bounds = tryParseRange(reference)
  if (!sheet || !bounds) throw new Error(`not a sheet-qualified range: ${range}`)
  const refs: string[] = []
  for (let row = bounds.top; row <= bounds.bottom; row++) for (let col = bounds.left; col <= bounds.right; col++) refs.push(`${sheet}!${formatAddress(row, col)}`)
  return refs
}

function cellProblem(ref: string, cell: Cell | undefined, expected: ExpectedCell): string | undefined {
  const want = expected !== null && typeof expected === 'object' ? expected : { value: expected }
  const value = cell?.value ?? null
  if (want.empty) return cell && cell.input !== '' ? `${ref} should be empty, holds ${JSON.stringify(cell.input)}` : undefined
  if ('value' in want && want.value !== undefined) {
    const ok = typeof want.value === 'number' && typeof value === 'number' ? Math.abs(value - want.value) <= 1e-6 * Math.max(1, Math.abs(want.value)) : value === want.value
    if (!ok) return `${ref} = ${JSON.stringify(value)}, expected ${JSON.stringify(want.value)}`
  }
  if (want.input !== undefined && cell?.input !== want.input) return `${ref} holds ${JSON.stringify(cell?.input ?? '')}, expected ${JSON.stringify(want.input)}`
  if (want.format !== undefined && cell?.format !== want.format) return `${ref} is formatted ${JSON.stringify(cell?.format ?? null)}, expected ${JSON.stringify(want.format)}`
  const style = cell?.style ?? {}
  for (const key of ['bold', 'italic', 'fill', 'color'] as const) {
    if (want[key] !== undefined && (style as Record<string, unknown>)[key] !== want[key]) return `${ref} ${key} is ${JSON.stringify((style as Record<string, unknown>)[key] ?? null)}, expected ${JSON.stringify(want[key])}`
  }
  return undefined
}

export interface TaskCheck {
  passed: boolean
  problems: string[]
  /** Cells whose input changed outside the expected cells and the ranges allowed to change. */
  unintended: string[]
}

/** The workbook after a task against what the task expects. */
export function checkTask(task: SuiteTask, before: WorkbookCells, after: WorkbookCells, answer: string, changed: string[]): TaskCheck {
  const problems: string[] = []
  for (const [ref, expected] of Object.entries(task.expected ?? {})) {
    const problem = cellProblem(ref, after.cells.get(ref), expected)
    if (problem) problems.push(problem)
  }
  for (const range of task.mustNotChange ?? []) {
    for (const ref of refsOf(range)) if ((before.cells.get(ref)?.input ?? '') !== (after.cells.get(ref)?.input ?? '')) problems.push(`${ref} must not change, but now holds ${JSON.stringify(after.cells.get(ref)?.input ?? '')}`)
  }
  if (task.sheets && JSON.stringify(after.sheets) !== JSON.stringify(task.sheets)) problems.push(`the sheets are ${after.sheets.join(', ')}, expected ${task.sheets.join(', ')}`)
  for (const chart of task.charts ?? []) {
    if (!after.charts.some((made) => made.type === chart.type && (chart.sheet === undefined || made.sheet === chart.sheet) && (chart.dataRange === undefined || made.dataRange === chart.dataRange) && (chart.title === undefined || made.title === chart.title))) {
      problems.push(`no ${chart.type} chart of ${chart.sheet ?? ''}!${chart.dataRange ?? ''}`)
    }
  }
  for (const text of task.answerContains ?? []) if (!answer.includes(text)) problems.push(`the answer does not say ${JSON.stringify(text)}`)
  const allowed = new Set(Object.keys(task.expected ?? {}))
  const anything = (task.mayChange ?? []).includes('*')
  for (const range of task.mayChange ?? []) if (range !== '*') for (const ref of refsOf(range)) allowed.add(ref)
  const unintended = anything ? [] : changed.filter((ref) => !allowed.has(ref))
  if (unintended.length > 0) problems.push(`unintended edits: ${unintended.slice(0, 8).join(', ')}${unintended.length > 8 ? ` and ${unintended.length - 8} more` : ''}`)
  return { passed: problems.length === 0, problems, unintended }
}
