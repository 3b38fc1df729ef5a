/** The tool calls plans share: the overview, and writes cut into calls of the allowed size. */
import { AGENT_MAX_WRITE_CELLS, type AgentToolName } from '@finsheet/contracts'
import { translateFormula } from '@finsheet/formula'
import { formatAddress, type RangeAddress } from '@finsheet/workbook'
import { readAs } from './answers.js'
import { stop, useTool, type Observation, type Step } from './plan-kit.js'
import { WorkbookView } from './workbook-view.js'

/** get_workbook_overview, read. */
export function* lookOver(): Step<WorkbookView> {
  return WorkbookView.fromOverview(yield* useTool('get_workbook_overview', {}))
}

/** A tool call that must go through: refused, the plan stops with what it understood and why. */
export function* useToolOrStop(name: AgentToolName, args: Record<string, unknown>, paraphrase: string): Step<Observation> {
  const result = yield* useTool(name, args)
  if (!result.ok) stop(`${readAs(paraphrase)}\n\nIt did not go through: ${result.error}`)
  return result
}

export interface CellWrite {
  address: string
  input: string | number | boolean
}

/**
 * write_cells, as many calls as the cells need; a refusal or failure stops the plan with the tool's
 * reason. The last call's result is returned (with every call's written cells merged).
 */
export function* writeCells(sheet: string, cells: CellWrite[], what: string): Step<Observation> {
  if (cells.length === 0) stop(`There was nothing to write for ${what}.`)
  let last: Observation | undefined
  const written: Record<string, unknown> = {}
  const errors: string[] = []
  for (let start = 0; start < cells.length; start += AGENT_MAX_WRITE_CELLS) {
    const chunk = cells.slice(start, start + AGENT_MAX_WRITE_CELLS)
    const result = yield* useTool('write_cells', { sheet, cells: chunk, overwrite: true })
    if (!result.ok) stop(`I could not write ${what}: ${result.error ?? 'the write failed'}`)
    Object.assign(written, result.content?.written ?? {})
    errors.push(...((result.content?.newErrors ?? []) as string[]))
    last = result
  }
  const result = last as Observation
  return { ...result, content: { ...result.content, written, newErrors: errors } }
}

/** Every address of a range, row by row. */
export function addressesOf(range: RangeAddress): string[] {
  const addresses: string[] = []
  for (let row = range.top; row <= range.bottom; row++) for (let col = range.left; col <= range.right; col++) addresses.push(formatAddress(row, col))
  return addresses
}

/** A formula written for one cell, as it reads when typed into another (relative references follow). */
export function formulaAt(formula: string, from: string, to: string): string {
  if (from === to) return formula
  try {
    return translateFormula(formula, from, to)
  } catch {
    return formula
  }
}

/** A number without floating-point noise (1.1 × 100 is 110, not 110.00000000000001). */
export const clean = (value: number): number => Number(value.toPrecision(12))
