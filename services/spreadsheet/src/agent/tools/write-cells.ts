/**
 * write_cells: cells written as a user types them, into the request's changeset. A cell that already
 * holds something (and was not written by this changeset) is only replaced with overwrite: true;
 * otherwise the call writes nothing and names those cells. The result reads back what each written
 * cell now shows and every cell that became an error, so the model sees "Valuation!B7 = #REF!" at
 * once.
 */
import type { CellEdit, WorkbookCommand } from '@finsheet/contracts'
import { formatAddress, type ApplyResult, type SheetRecord, type WorkbookModel } from '@finsheet/workbook'
import { cellText } from '../draft-session.js'
import { networkRisk } from '../safety.js'
import { resolveCell, type ResolvedCell } from '../targets.js'
import { ToolError } from '../tool-error.js'
import { count, defineTool, formatOf, meaningfulDisplay, modelValue, type CallRecord, type ToolContext } from '../tool-kit.js'

/** Cells named in a refusal; the rest are counted. */
const MAX_NAMED = 20
/** New error cells listed in a result; the rest are counted. */
const MAX_ERRORS = 50

/** What a cell holds, shortly, for a refusal ("=B4*1.1", "120", "\"Total\""). */
function heldText(state: WorkbookModel, sheet: SheetRecord, row: number, col: number): string {
  const input = state.engine.getInputAt(sheet.name, row, col)
  if (input === '') return `shows ${JSON.stringify(modelValue(state.engine.getValueAt(sheet.name, row, col)))} spilled from another cell`
  const text = input.length > 40 ? `${input.slice(0, 40)}…` : input
  return input.startsWith('=') || !Number.isNaN(Number(input)) ? text : JSON.stringify(text)
}

/** Whether a cell holds content or shows a value (a spill). */
export function isOccupied(state: WorkbookModel, sheet: SheetRecord, row: number, col: number): boolean {
  return state.engine.getValueAt(sheet.name, row, col) !== null || state.engine.getFormulaShapeAt(sheet.name, row, col) !== undefined
}

/**
 * Refuses writes over cells that hold something, unless the changeset wrote them or overwrite is set:
 * a ToolError naming the cells.
 */
export function refuseOverwrites(context: ToolContext, targets: readonly { sheet: SheetRecord; row: number; col: number }[], overwrite: boolean | undefined, verb: string): void {
  if (overwrite) return
  const { state, session } = context
  const held = targets.filter((target) => isOccupied(state, target.sheet, target.row, target.col) && !session.wasWritten(target.sheet.id, formatAddress(target.row, target.col)))
  if (held.length === 0) return
  const named = held.slice(0, MAX_NAMED).map((target) => `${cellText(target.sheet.name, target.row, target.col)} (${heldText(state, target.sheet, target.row, target.col)})`)
  const more = held.length > MAX_NAMED ? ` and ${held.length - MAX_NAMED} more` : ''
  throw new ToolError(
    `Refused: ${count(held.length, 'cell already holds', 'cells already hold')} something and would be replaced: ${named.join(', ')}${more}. Nothing was written. ` +
      `${verb} with overwrite: true to replace them, or choose empty cells.`,
  )
}

/** Formulas among the edits that could reach the network, recorded for the user's approval. */
export function recordNetworkRisks(record: CallRecord, sheet: SheetRecord, edits: readonly CellEdit[]): void {
  for (const edit of edits) {
    if (typeof edit.input !== 'string' || !edit.input.startsWith('=')) continue
    const reason = networkRisk(edit.input)
    if (reason) record.approvals.push({ sheet: sheet.name, address: edit.address, formula: edit.input, reason })
  }
}

/** Cells that show an error after a write and whose value it changed: "Valuation!B7 = #REF!". */
export function newErrors(state: WorkbookModel, result: ApplyResult): { list: string[]; count: number } {
  const list: string[] = []
  let total = 0
  const seen = new Set<string>()
  for (const change of result.engineChanges) {
    if (change.value === null || typeof change.value !== 'object') continue
    const key = `${change.sheet}!${change.address}`
    if (seen.has(key)) continue
    seen.add(key)
    total++
    const sheet = state.findSheet(change.sheet)
    if (list.length < MAX_ERRORS) list.push(`${cellText(sheet?.name ?? change.sheet, change.row, change.col)} = ${change.value.code}`)
  }
  return { list, count: total }
}

/** What written cells now show, by address. */
export function readBack(state: WorkbookModel, cells: readonly ResolvedCell[]): Record<string, unknown> {
  const shown: Record<string, unknown> = {}
  for (const cell of cells) {
    const value = state.engine.getValueAt(cell.sheet.name, cell.row, cell.col)
    const input = state.engine.getInputAt(cell.sheet.name, cell.row, cell.col)
    const display = meaningfulDisplay(value, formatOf(state, cell.sheet, cell.row, cell.col, cell.address))
    const key = cellText(cell.sheet.name, cell.row, cell.col)
    shown[key] = input.startsWith('=') || display !== undefined ? { value: modelValue(value), ...(input.startsWith('=') ? { formula: input } : {}), ...(display !== undefined ? { shown: display } : {}) } : modelValue(value)
  }
  return shown
}

/** "12 cells on FCF and 2 on Inputs". */
export function cellsOnSheets(bySheet: Map<SheetRecord, unknown[]>): string {
  const parts = [...bySheet].map(([sheet, cells], index) => (index === 0 ? `${count(cells.length, 'cell')} on ${sheet.name}` : `${cells.length} on ${sheet.name}`))
  return parts.length <= 1 ? (parts[0] ?? 'no cells') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`
}

export const writeCells = defineTool({
  name: 'write_cells',
  writes: true,
  attempt: (args) => `Writing ${count(args.cells.length, 'cell')} on ${args.sheet}`,
  run(args, context) {
    const { state, session } = context
    // The last write of a cell wins, as typing twice does.
    const targets = new Map<string, { cell: ResolvedCell; input: string | number | boolean }>()
    for (const entry of args.cells) {
      const cell = resolveCell(context, args.sheet, entry.address)
      const key = `${cell.sheet.id}!${cell.address}`
      targets.delete(key)
      targets.set(key, { cell, input: entry.input })
    }
    const cells = [...targets.values()]
    refuseOverwrites(context, cells.map(({ cell }) => cell), args.overwrite, 'Call write_cells again')
    const bySheet = new Map<SheetRecord, CellEdit[]>()
    for (const { cell, input } of cells) {
      let edits = bySheet.get(cell.sheet)
      if (!edits) bySheet.set(cell.sheet, (edits = []))
      edits.push({ address: cell.address, input })
    }
    const commands: WorkbookCommand[] = [...bySheet].map(([sheet, edits]) => ({ type: 'set-cells', sheet: sheet.name, cells: edits }))
    for (const [sheet, edits] of bySheet) recordNetworkRisks(context.record, sheet, edits)
    const result = session.write(commands)
    const errors = newErrors(state, result)
    const recalculated = result.engineChanges.length - cells.length
    const resolvedByLabel = cells.filter(({ cell }) => cell.via).map(({ cell }) => ({ cell: cell.ref, via: cell.via }))
    return {
      summary: `Writing ${cellsOnSheets(bySheet)}`,
      content: {
        written: readBack(state, cells.map(({ cell }) => cell)),
        ...(resolvedByLabel.length > 0 ? { resolved: resolvedByLabel } : {}),
        ...(recalculated > 0 ? { recalculated: `${count(recalculated, 'other cell')} changed value` } : {}),
        newErrors: errors.list,
        ...(errors.count > errors.list.length ? { moreErrors: errors.count - errors.list.length } : {}),
        ...(errors.count > 0 ? { check: 'Some cells show errors after this write; fix them or explain them before finishing.' } : {}),
        ...(context.record.approvals.length > 0
          ? { needsApproval: context.record.approvals.map((reason) => `${reason.sheet}!${reason.address}: ${reason.reason}`), approvalNote: 'These formulas wait for the user\'s approval before they are applied.' }
          : {}),
      },
    }
  },
})
