/**
 * set_sheet_view: how a sheet is laid out, through the commands the grid's menus send — frozen panes,
 * rows and columns hidden or shown again (set-sheet-view), and column widths (resize-column). Cells
 * are not touched; the review lists each change as a step.
 */
import type { SetSheetViewCommand, WorkbookCommand } from '@finsheet/contracts'
import { columnToLetters, lettersToColumn, MAX_COL, MAX_ROW } from '@finsheet/workbook'
import { resolveSheet } from '../targets.js'
import { ToolError } from '../tool-error.js'
import { count, defineTool } from '../tool-kit.js'

interface Span {
  axis: 'rows' | 'columns'
  from: number
  to: number
  /** As people write it: "rows 5–7", "column C". */
  text: string
}

/** "5", "5:7", "C", "C:E" (dollar signs allowed) as a span of rows or columns, 0-based. */
function spanOf(text: string): Span {
  const plain = text.replace(/\$/g, '').trim().toUpperCase()
  const rows = /^(\d+)(?::(\d+))?$/.exec(plain)
  if (rows) {
    const [from, to] = [Number(rows[1]), Number(rows[2] ?? rows[1])].sort((a, b) => a - b)
    if (from < 1 || to - 1 > MAX_ROW) throw new ToolError(`${JSON.stringify(text)} names rows outside the sheet (1 to ${MAX_ROW + 1}).`)
    return { axis: 'rows', from: from - 1, to: to - 1, text: from === to ? `row ${from}` : `rows ${from}–${to}` }
  }
  const columns = /^([A-Z]{1,3})(?::([A-Z]{1,3}))?$/.exec(plain)
  if (columns) {
    const [from, to] = [lettersToColumn(columns[1]), lettersToColumn(columns[2] ?? columns[1])].sort((a, b) => a - b)
    if (from < 0 || to > MAX_COL) throw new ToolError(`${JSON.stringify(text)} names columns outside the sheet (A to ${columnToLetters(MAX_COL)}).`)
    return { axis: 'columns', from, to, text: from === to ? `column ${columnToLetters(from)}` : `columns ${columnToLetters(from)}–${columnToLetters(to)}` }
  }
  throw new ToolError(`${JSON.stringify(text)} is not rows ("5", "5:7") or columns ("C", "C:E").`)
}

export const setSheetView = defineTool({
  name: 'set_sheet_view',
  writes: true,
  attempt: (args) => `Changing the layout of ${args.sheet}`,
  run(args, context) {
    const { session, record } = context
    const sheet = resolveSheet(context.state, args.sheet)
    const view: SetSheetViewCommand = { type: 'set-sheet-view', sheet: sheet.name }
    const steps: string[] = []
    if (args.freeze) {
      view.frozenRows = args.freeze.rows
      view.frozenColumns = args.freeze.columns
      const parts = [args.freeze.rows > 0 ? `the top ${count(args.freeze.rows, 'row')}` : '', args.freeze.columns > 0 ? `the left ${count(args.freeze.columns, 'column')}` : ''].filter(Boolean)
      steps.push(parts.length === 0 ? `Unfreeze the panes of ${sheet.name}` : `Freeze ${parts.join(' and ')} of ${sheet.name}`)
    }
    for (const [list, hidden] of [[args.hide ?? [], true], [args.unhide ?? [], false]] as const) {
      for (const text of list) {
        const span = spanOf(text)
        const spans = span.axis === 'rows' ? (view.rows ??= []) : (view.columns ??= [])
        spans.push({ from: span.from, to: span.to, hidden })
        steps.push(`${hidden ? 'Hide' : 'Show'} ${span.text} of ${sheet.name}`)
      }
    }
    const commands: WorkbookCommand[] = []
    if (view.frozenRows !== undefined || view.rows || view.columns) commands.push(view)
    for (const entry of args.columnWidths ?? []) {
      const span = spanOf(entry.columns)
      if (span.axis !== 'columns') throw new ToolError(`${JSON.stringify(entry.columns)} is not a column: widths are set on columns ("B", "B:F").`)
      if (span.to - span.from >= 1000) throw new ToolError(`${span.text} is more than 1,000 columns to resize at once.`)
      for (let col = span.from; col <= span.to; col++) commands.push({ type: 'resize-column', sheet: sheet.name, column: col, width: entry.width })
      steps.push(entry.width === null ? `Set ${span.text} of ${sheet.name} to the default width` : `Set ${span.text} of ${sheet.name} to ${entry.width} pixels wide`)
    }
    if (commands.length === 0) throw new ToolError('Nothing to change: give freeze, hide, unhide or columnWidths.')
    session.write(commands)
    for (const description of steps) record.structural.push({ action: 'set_sheet_view', sheet: sheet.name, description })
    const frozen = { rows: sheet.view?.frozenRows ?? 0, columns: sheet.view?.frozenColumns ?? 0 }
    return {
      summary: steps.join('; '),
      content: { sheet: sheet.name, done: steps, frozen },
    }
  },
})
