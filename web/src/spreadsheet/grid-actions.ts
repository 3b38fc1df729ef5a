import type { CellRange } from '../grid/address'
import { cellAddress, forEachCell, MAX_COLUMNS, MAX_ROWS, rangeAddress, rangeHeight, rangeWidth } from '../grid/address'
import { parseTsv, pasteTargetRange, planPaste, toHtmlTable, toTsv } from '../grid/clipboard'
import type { FilledCell } from '../grid/fill'
import { fillCopy, fillDownExtent, fillSeries } from '../grid/fill'
import { autoFitHeight, autoFitWidth, measureWithCanvas } from '../grid/autofit'
import { DEFAULT_COLUMN_WIDTH, ROW_HEIGHT } from '../grid/geometry'
import { translateFormula } from '../grid/formula-editing'
import { fontFor } from '../grid/render'
import { rangeSelection, selectionRange } from '../grid/selection'
import type { CellEdit } from '@finsheet/contracts'
import type { PasteSpecialOptions } from './paste-special'
import { planPasteSpecial } from './paste-special'
import type { SheetRange } from './trace-cells'
import { dependentsOf, precedentsOf } from './trace-cells'
import type { CopyMark, Workspace } from './workspace'

/**
 * The grid's editing actions on the workspace's selection. Each turns into one command, so one
 * undo reverts it whole.
 */

/** Delete and Backspace: empties the selected cells' contents and keeps their formatting, as Excel does. */
export function clearSelection(workspace: Workspace): void {
  const { store, sheet, selection } = workspace.state
  if (!store) return
  const cells: CellEdit[] = []
  const range = selectionRange(selection)
  const model = store.sheet(sheet)
  if (!model) return
  // only cells that hold something: a whole-column selection must not write a million blanks
  for (let row = range.startRow; row <= Math.min(range.endRow, model.usedRows - 1); row++) {
    for (let col = range.startCol; col <= Math.min(range.endCol, model.usedColumns - 1); col++) {
      if (store.isFilled(sheet, { col, row })) cells.push({ address: cellAddress({ col, row }), input: '' })
    }
  }
  if (cells.length > 0) store.dispatch({ type: 'set-cells', sheet, cells })
}

/** Ctrl+C / Ctrl+X: the shown values as TSV and an HTML table for other programs; our own paste keeps formulas. */
export function copySelection(workspace: Workspace, clipboard: DataTransfer, cut: boolean): void {
  const { store, sheet, selection } = workspace.state
  if (!store) return
  const range = clampToUsed(workspace, selectionRange(selection))
  const displays = store.displaysOf(sheet, range)
  const text = toTsv(displays)
  clipboard.setData('text/plain', text)
  clipboard.setData('text/html', toHtmlTable(displays))
  const styles: CopyMark['styles'] = []
  const formats: CopyMark['formats'] = []
  for (let row = range.startRow; row <= range.endRow; row++) {
    const styleRow: CopyMark['styles'][number] = []
    const formatRow: CopyMark['formats'][number] = []
    for (let col = range.startCol; col <= range.endCol; col++) {
      styleRow.push(store.getStyle(sheet, { col, row }))
      formatRow.push(store.getFormat(sheet, { col, row }))
    }
    styles.push(styleRow)
    formats.push(formatRow)
  }
  workspace.setCopy({ sheet, range, cut, text, inputs: store.inputsOf(sheet, range), styles, formats })
}

/** A selection of whole columns or whole rows acts on the part that holds something, not a million cells. */
function clampToUsed(workspace: Workspace, range: CellRange): CellRange {
  const { store, sheet } = workspace.state
  const model = store?.sheet(sheet)
  if (!model) return range
  const wholeColumns = range.startRow === 0 && range.endRow >= model.rowCount - 1
  const wholeRows = range.startCol === 0 && range.endCol >= model.columnCount - 1
  return {
    ...range,
    endRow: wholeColumns ? Math.max(range.startRow, Math.min(range.endRow, model.usedRows - 1)) : range.endRow,
    endCol: wholeRows ? Math.max(range.startCol, Math.min(range.endCol, model.usedColumns - 1)) : range.endCol,
  }
}

/**
 * Ctrl+V: text that is our own last copy pastes its inputs (formulas with their references moved,
 * styles and formats kept; a cut moves the cells); any other text is read as TSV from Excel or
 * Google Sheets and typed into the cells. Returns the pasted range, or null when nothing was pasted.
 */
export function pasteText(workspace: Workspace, text: string): CellRange | null {
  const { store, sheet, selection, copy } = workspace.state
  if (!store) return null
  const model = store.sheet(sheet)
  if (!model) return null
  const bounds = { columnCount: MAX_COLUMNS, rowCount: MAX_ROWS }
  const own = copy && normaliseLineEnds(copy.text) === normaliseLineEnds(text) && store.sheet(copy.sheet) ? copy : null
  const block = own ? own.inputs : parseTsv(text)
  if (block.length === 0 || block[0].length === 0) return null
  const height = block.length
  const width = block[0].length
  if (own?.cut) {
    // A cut moves its block, one command that formulas everywhere follow; it lands on the selection's
    // top-left cell whatever the selection's size, as in Excel.
    const anchor = selectionRange(selection)
    const target = { startRow: anchor.startRow, startCol: anchor.startCol, endRow: anchor.startRow + height - 1, endCol: anchor.startCol + width - 1 }
    if (target.endRow >= MAX_ROWS || target.endCol >= MAX_COLUMNS) return null
    store.dispatch({ type: 'move-cells', sheet: own.sheet, range: rangeAddress(own.range), targetSheet: sheet, target: cellAddress({ row: target.startRow, col: target.startCol }) })
    workspace.setCopy(null)
    workspace.setSelection(rangeSelection(target))
    return target
  }
  const target = pasteTargetRange(height, width, selectionRange(selection), bounds)
  const origin = own ? { col: own.range.startCol, row: own.range.startRow } : null
  const cells: CellEdit[] = []
  for (const cell of planPaste(height, width, origin, target)) {
    let input = block[cell.sourceRow][cell.sourceCol]
    if (own && input.startsWith('=')) input = translateFormula(input, cell.rowOffset, cell.colOffset)
    const change: CellEdit = { address: cellAddress(cell.pos), input }
    if (own) {
      change.style = own.styles[cell.sourceRow][cell.sourceCol] ?? null
      change.format = own.formats[cell.sourceRow][cell.sourceCol] ?? null
    }
    cells.push(change)
  }
  store.dispatch({ type: 'set-cells', sheet, cells })
  workspace.setSelection(rangeSelection(target))
  return target
}

/**
 * Paste Special: the part asked for of our own last copy (a cut cannot be pasted so), transposed or
 * not, as one undoable change. Returns the pasted range, or null when there is no copy to paste.
 */
export function pasteSpecial(workspace: Workspace, options: PasteSpecialOptions): CellRange | null {
  const { store, sheet, selection, copy } = workspace.state
  if (!store || !copy || copy.cut || !store.sheet(copy.sheet)) return null
  const values = store.valuesOf(copy.sheet, copy.range)
  const block = { range: copy.range, inputs: copy.inputs, values, styles: copy.styles, formats: copy.formats }
  const { cells, range } = planPasteSpecial(block, selectionRange(selection), options, { columnCount: MAX_COLUMNS, rowCount: MAX_ROWS })
  if (cells.length === 0) return null
  store.dispatch({ type: 'batch', label: 'paste special', commands: [{ type: 'set-cells', sheet, cells }] })
  workspace.setSelection(rangeSelection(range))
  return range
}

/**
 * Ctrl+[ and Ctrl+]: selects the first cell or range the active cell's formula reads (or the first
 * formula that reads the active cell), going to its sheet, and says what else there is. Returns the
 * whole list, empty when there is none.
 */
export function goToRelatedCells(workspace: Workspace, kind: 'precedents' | 'dependents'): SheetRange[] {
  const { store, sheet, selection } = workspace.state
  if (!store) return []
  const cell = selection.active
  const found =
    kind === 'precedents'
      ? precedentsOf(store.getInput(sheet, cell), sheet, store.sheetNames, store.definedNames)
      : dependentsOf({ sheetNames: store.sheetNames, names: store.definedNames, forEachFormula: (name, visit) => store.forEachFormula(name, visit) }, sheet, cell)
  const first = found[0]
  if (!first) return found
  if (first.sheet === sheet) workspace.setSelection(rangeSelection(first.range))
  else workspace.switchSheet(first.sheet, rangeSelection(first.range))
  return found
}

function normaliseLineEnds(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(/\n$/, '')
}

function writeFilled(workspace: Workspace, filled: FilledCell[], label: string): void {
  const { store, sheet } = workspace.state
  if (!store || filled.length === 0) return
  store.dispatch({
    type: 'batch',
    label,
    // the filled cells take their source cell's number format and style, as Excel's fill does
    commands: [
      {
        type: 'set-cells',
        sheet,
        cells: filled.map((f) => ({ address: cellAddress(f.pos), input: f.input, style: store.getStyle(sheet, f.from) ?? null, format: store.getFormat(sheet, f.from) ?? null })),
      },
    ],
  })
}

/** The fill handle was dragged from `source` to `target`. */
export function fillByHandle(workspace: Workspace, source: CellRange, target: CellRange): void {
  const { store, sheet } = workspace.state
  if (!store) return
  const filled = fillSeries(source, target, (pos) => store.getInput(sheet, pos), translateFormula)
  writeFilled(workspace, filled, 'fill')
  workspace.setSelection(rangeSelection(target))
}

/** A double click on the fill handle: fill down alongside the neighbouring column's data. */
export function fillDownAlongside(workspace: Workspace): void {
  const { store, sheet, selection } = workspace.state
  const model = store?.sheet(sheet)
  if (!store || !model) return
  const source = selectionRange(selection)
  const target = fillDownExtent(source, (pos) => store.isFilled(sheet, pos), model.rowCount - 1)
  if (target) fillByHandle(workspace, source, target)
}

/** Ctrl+D and Ctrl+R. */
export function fillSelection(workspace: Workspace, axis: 'down' | 'right'): void {
  const { store, sheet, selection } = workspace.state
  if (!store) return
  const range = clampToUsed(workspace, selectionRange(selection))
  const filled = fillCopy(range, axis, (pos) => store.getInput(sheet, pos), translateFormula)
  writeFilled(workspace, filled, axis === 'down' ? 'fill down' : 'fill right')
}

/** The status bar's summary of a multi-cell selection: Sum, Average and Count of its numbers. */
export function selectionSummary(workspace: Workspace): { sum: number; average: number; count: number; numbers: number } | null {
  const { store, sheet, selection } = workspace.state
  if (!store) return null
  const range = clampToUsed(workspace, selectionRange(selection))
  if (rangeWidth(range) * rangeHeight(range) < 2 || rangeWidth(range) * rangeHeight(range) > 200_000) return null
  let sum = 0
  let numbers = 0
  let count = 0
  forEachCell(range, (pos) => {
    if (!store.isFilled(sheet, pos)) return
    count++
    const value = store.getValue(sheet, pos)
    if (typeof value === 'number') {
      sum += value
      numbers++
    }
  })
  return { sum, average: numbers > 0 ? sum / numbers : 0, count, numbers }
}

/** Double click on a column border: the column takes the width of its widest shown text. */
export function autoFitColumn(workspace: Workspace, col: number): void {
  const { store, sheet } = workspace.state
  const model = store?.sheet(sheet)
  if (!store || !model) return
  const rows = Math.min(model.usedRows, 20_000)
  const texts = function* () {
    for (let row = 0; row < rows; row++) {
      const cell = model.source.getCell(col, row)
      if (cell && cell.text !== '') yield { text: cell.text, font: fontFor(cell.style) }
    }
  }
  store.dispatch({ type: 'resize-column', sheet, column: col, width: autoFitWidth(texts(), measureWithCanvas) })
}

/** Double click on a row border: the row takes the height of its text (largest font, wrapped lines), or the default height. */
export function autoFitRow(workspace: Workspace, row: number): void {
  const { store, sheet } = workspace.state
  const model = store?.sheet(sheet)
  if (!store || !model) return
  const columns = Math.min(model.columnCount, 2_000)
  const widths = model.shownColumnWidths
  const cells = function* () {
    for (let col = 0; col < columns; col++) {
      const cell = model.source.getCell(col, row)
      if (cell && cell.text !== '') yield { text: cell.text, style: cell.style, width: widths.get(col) ?? DEFAULT_COLUMN_WIDTH }
    }
  }
  store.dispatch({ type: 'set-sheet-view', sheet, rows: [{ from: row, to: row, height: autoFitHeight(cells(), ROW_HEIGHT, measureWithCanvas) }] })
}
