/**
 * modify_structure: rows and columns inserted or deleted, sheets added, renamed or deleted, through
 * the same commands the grid sends. Rows are named by number or label, columns by letters, number or
 * header. The result says what moved and which cells became errors (formulas that read deleted cells).
 */
import type { AgentToolArguments, WorkbookCommand } from '@finsheet/contracts'
import { columnToLetters, LABEL_MATCH_THRESHOLD, labelSimilarity, lettersToColumn, MAX_COL, MAX_ROW, type SheetRecord } from '@finsheet/workbook'
import { resolveSheet } from '../targets.js'
import { ToolError } from '../tool-error.js'
import { count, defineTool, type ToolContext } from '../tool-kit.js'
import { newErrors } from './write-cells.js'

type Args = AgentToolArguments<'modify_structure'>

function needSheet(context: ToolContext, args: Args): SheetRecord {
  if (args.sheet === undefined) throw new ToolError(`${args.action} needs the sheet to change`)
  return resolveSheet(context.state, args.sheet)
}

/** A 0-based row from a 1-based number or a row label. */
function rowIndex(context: ToolContext, sheet: SheetRecord, at: number | string): number {
  if (typeof at === 'number') {
    if (at - 1 > MAX_ROW) throw new ToolError(`There is no row ${at}: a sheet has ${MAX_ROW + 1} rows`)
    return at - 1
  }
  if (/^\d+$/.test(at.trim())) return rowIndex(context, sheet, Number(at.trim()))
  const scored = context.layout(sheet).labels.map((label) => ({ label, score: labelSimilarity(at, label.text) })).sort((a, b) => b.score - a.score)
  const best = scored[0]
  if (!best || best.score < LABEL_MATCH_THRESHOLD) throw new ToolError(`No row labelled ${JSON.stringify(at)} on ${sheet.name}; give a row number.`)
  const ties = scored.filter((entry) => entry.score >= best.score - 1e-9)
  if (ties.length > 1) throw new ToolError(`${JSON.stringify(at)} labels several rows on ${sheet.name} (${ties.map((entry) => entry.label.row + 1).join(', ')}); give a row number.`)
  return best.label.row
}

/** A 0-based column from letters, a 1-based number or a column header. */
function columnIndex(context: ToolContext, sheet: SheetRecord, at: number | string): number {
  if (typeof at === 'number') {
    if (at - 1 > MAX_COL) throw new ToolError(`There is no column ${at}: a sheet has ${MAX_COL + 1} columns`)
    return at - 1
  }
  const text = at.trim()
  if (/^[A-Za-z]{1,3}$/.test(text)) {
    const col = lettersToColumn(text)
    if (col >= 0 && col <= MAX_COL) return col
  }
  const scored: { col: number; text: string; score: number }[] = []
  for (const header of context.layout(sheet).headerRows) for (const cell of header.cells) scored.push({ col: cell.col, text: cell.text, score: labelSimilarity(text, cell.text) })
  scored.sort((a, b) => b.score - a.score)
  const best = scored[0]
  if (!best || best.score < LABEL_MATCH_THRESHOLD) throw new ToolError(`No column headed ${JSON.stringify(at)} on ${sheet.name}; give the column letters.`)
  const ties = new Set(scored.filter((entry) => entry.score >= best.score - 1e-9).map((entry) => entry.col))
  if (ties.size > 1) throw new ToolError(`${JSON.stringify(at)} heads several columns on ${sheet.name} (${[...ties].map(columnToLetters).join(', ')}); give the column letters.`)
  return best.col
}

/** Cells with content in a band of rows or columns (what a deletion removes). */
function contentIn(context: ToolContext, sheet: SheetRecord, axis: 'rows' | 'columns', at: number, n: number): number {
  const used = context.layout(sheet).used
  if (!used) return 0
  let found = 0
  const [top, bottom] = axis === 'rows' ? [Math.max(at, used.top), Math.min(at + n - 1, used.bottom)] : [used.top, used.bottom]
  const [left, right] = axis === 'columns' ? [Math.max(at, used.left), Math.min(at + n - 1, used.right)] : [used.left, used.right]
  for (let row = top; row <= bottom; row++) {
    for (let col = left; col <= right; col++) if (context.state.engine.getValueAt(sheet.name, row, col) !== null) found++
  }
  return found
}

export const modifyStructure = defineTool({
  name: 'modify_structure',
  writes: true,
  attempt: (args) => {
    const what = args.action.replace('_', ' ')
    return `${what.charAt(0).toUpperCase()}${what.slice(1)}${args.sheet ? ` on ${args.sheet}` : args.name ? ` ${args.name}` : ''}`
  },
  run(args, context) {
    const { state, session, record } = context
    const n = args.count ?? 1
    let commands: WorkbookCommand[]
    let description: string
    let sheetName: string
    let at: string | undefined
    let removed = 0
    switch (args.action) {
      case 'insert_rows':
      case 'delete_rows': {
        const sheet = needSheet(context, args)
        if (args.at === undefined) throw new ToolError(`${args.action} needs at: the row number or label`)
        const row = rowIndex(context, sheet, args.at)
        const deleting = args.action === 'delete_rows'
        if (deleting) removed = contentIn(context, sheet, 'rows', row, n)
        commands = [{ type: deleting ? 'delete-rows' : 'insert-rows', sheet: sheet.name, at: row, count: n }]
        sheetName = sheet.name
        at = String(row + 1)
        description = deleting
          ? `Delete ${n === 1 ? `row ${row + 1}` : `rows ${row + 1}–${row + n}`} on ${sheet.name}`
          : `Insert ${count(n, 'row')} on ${sheet.name} before row ${row + 1}`
        break
      }
      case 'insert_columns':
      case 'delete_columns': {
        const sheet = needSheet(context, args)
        if (args.at === undefined) throw new ToolError(`${args.action} needs at: the column letters or header`)
        const col = columnIndex(context, sheet, args.at)
        const deleting = args.action === 'delete_columns'
        if (deleting) removed = contentIn(context, sheet, 'columns', col, n)
        commands = [{ type: deleting ? 'delete-columns' : 'insert-columns', sheet: sheet.name, at: col, count: n }]
        sheetName = sheet.name
        at = columnToLetters(col)
        description = deleting
          ? `Delete ${n === 1 ? `column ${at}` : `columns ${at}–${columnToLetters(col + n - 1)}`} on ${sheet.name}`
          : `Insert ${count(n, 'column')} on ${sheet.name} before column ${at}`
        break
      }
      case 'add_sheet': {
        if (args.name === undefined) throw new ToolError('add_sheet needs name: the new sheet name')
        const index = args.position === undefined ? undefined : Math.min(args.position - 1, state.sheets.length)
        commands = [{ type: 'add-sheet', name: args.name, ...(index !== undefined ? { index } : {}) }]
        sheetName = args.name.trim()
        description = `Add sheet ${sheetName}`
        break
      }
      case 'rename_sheet': {
        const sheet = needSheet(context, args)
        if (args.name === undefined) throw new ToolError('rename_sheet needs name: the new name')
        commands = [{ type: 'rename-sheet', from: sheet.name, to: args.name }]
        sheetName = sheet.name
        description = `Rename sheet ${sheet.name} to ${args.name.trim()}`
        break
      }
      case 'delete_sheet': {
        const sheet = needSheet(context, args)
        removed = context.layout(sheet).cells
        commands = [{ type: 'delete-sheet', name: sheet.name }]
        sheetName = sheet.name
        description = `Delete sheet ${sheet.name}`
        break
      }
    }
    const result = session.write(commands)
    const errors = newErrors(state, result)
    record.structural.push({
      action: args.action,
      sheet: sheetName,
      ...(at !== undefined ? { at } : {}),
      ...(args.action.endsWith('rows') || args.action.endsWith('columns') ? { count: n } : {}),
      ...(args.action === 'add_sheet' || args.action === 'rename_sheet' ? { name: (args.name as string).trim() } : {}),
      description,
    })
    return {
      summary: description,
      content: {
        done: description,
        ...(removed > 0 ? { removedCells: removed } : {}),
        sheets: state.sheets.map((sheet) => sheet.name),
        newErrors: errors.list,
        ...(errors.count > errors.list.length ? { moreErrors: errors.count - errors.list.length } : {}),
        ...(errors.count > 0 ? { check: 'Formulas that read removed cells now show #REF!; fix them or explain them before finishing.' } : {}),
      },
    }
  },
})
