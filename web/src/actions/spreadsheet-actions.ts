import type { CellRange } from '../grid/address'
import { cellAddress, rangeAddress } from '../grid/address'
import { sheetPrefix } from '../grid/formula-editing'
import { navigate } from '../grid/navigation'
import { selectAll, selectColumns, selectionRange, selectRows } from '../grid/selection'
import type { CellStyle, HorizontalAlign } from '../grid/types'
import { NAVIGATION } from '../shell/navigation-items'
import { clearSelection, fillSelection, goToRelatedCells, pasteText } from '../spreadsheet/grid-actions'
import { BORDER_CHOICES, type BorderChoice } from '../spreadsheet/borders'
import { toast } from '../toasts/toast-store'
import { requestOutput } from '../print/output-requests'
import { adjustDecimals, CURRENCY_FORMAT, PERCENT_FORMAT } from '../workbook/number-formats'
import type { Action, ActionContext } from './action-registry'
import { ActionRegistry } from './action-registry'
import { DATA_ACTIONS } from './data-actions'
import type { SheetViewState, WorkbookCommand } from '@finsheet/contracts'
import { MAX_ZOOM, MIN_ZOOM, ZOOM_STEP } from '../grid/geometry'
import type { OutlineGroup } from '../spreadsheet/sheet-layout'
import { freeze, freezeAt, groupAt, hide, regroup, setCollapsed, unhide } from '../spreadsheet/sheet-layout'
import { insertChartCommand, newChartId, nextChartTitle } from '../spreadsheet/sheet-charts'
import { noteAt, noteCommand } from '../spreadsheet/cell-annotations'

const hasWorkbook = (ctx: ActionContext) => ctx.workspace.state.store !== null
const plural = (n: number, word: string) => (n === 1 ? `1 ${word}` : `${n} ${word}s`)

/** The selected block and whether it is whole rows or whole columns. */
function selectedBlock(ctx: ActionContext): { range: CellRange; wholeRows: boolean; wholeColumns: boolean } | null {
  const { store, sheet, selection } = ctx.workspace.state
  const model = store?.sheet(sheet)
  if (!model) return null
  const range = selectionRange(selection)
  return {
    range,
    wholeColumns: range.startRow === 0 && range.endRow >= model.rowCount - 1,
    wholeRows: range.startCol === 0 && range.endCol >= model.columnCount - 1,
  }
}

const rowCount = (ctx: ActionContext) => {
  const block = selectedBlock(ctx)
  return block ? block.range.endRow - block.range.startRow + 1 : 1
}
const columnCount = (ctx: ActionContext) => {
  const block = selectedBlock(ctx)
  return block ? block.range.endCol - block.range.startCol + 1 : 1
}
/** Row actions show unless whole columns (and not whole rows) are selected; column actions the other way round. */
const rowsApply = (ctx: ActionContext) => {
  const block = selectedBlock(ctx)
  return block !== null && !(block.wholeColumns && !block.wholeRows)
}
const columnsApply = (ctx: ActionContext) => {
  const block = selectedBlock(ctx)
  return block !== null && !(block.wholeRows && !block.wholeColumns)
}

function structure(ctx: ActionContext, type: 'insert-rows' | 'delete-rows' | 'insert-columns' | 'delete-columns', where: 'start' | 'after'): void {
  const block = selectedBlock(ctx)
  const { store, sheet } = ctx.workspace.state
  if (!block || !store) return
  const rows = type.endsWith('rows')
  const count = rows ? block.range.endRow - block.range.startRow + 1 : block.range.endCol - block.range.startCol + 1
  const at = rows ? (where === 'start' ? block.range.startRow : block.range.endRow + 1) : where === 'start' ? block.range.startCol : block.range.endCol + 1
  store.dispatch({ type, sheet, at, count })
}

const style = (ctx: ActionContext): CellStyle => ctx.workspace.activeStyle() ?? {}
const activeFormat = (ctx: ActionContext): string | null => {
  const { store, sheet, selection } = ctx.workspace.state
  return store?.getFormat(sheet, selection.active) ?? null
}
const shownText = (ctx: ActionContext): string => {
  const { store, sheet, selection } = ctx.workspace.state
  return store ? store.getDisplay(sheet, selection.active) : ''
}

function toggleStyle(name: 'bold' | 'italic' | 'underline' | 'strike' | 'wrap', label: string, key?: string): Action {
  return {
    id: name,
    label,
    group: 'Formatting',
    ...(key ? { keys: [key], buttonLabel: () => `${label} (${key})` } : {}),
    enabled: hasWorkbook,
    active: (ctx) => style(ctx)[name] === true,
    run: (ctx) => ctx.workspace.styleSelection({ [name]: !style(ctx)[name] }),
  }
}

function align(value: HorizontalAlign, label: string): Action {
  return {
    id: `align-${value}`,
    label,
    group: 'Formatting',
    enabled: hasWorkbook,
    active: (ctx) => style(ctx).align === value,
    run: (ctx) => ctx.workspace.styleSelection({ align: style(ctx).align === value ? null : value }),
  }
}

function verticalAlign(value: 'top' | 'middle' | 'bottom', label: string): Action {
  return {
    id: `align-${value}`,
    label,
    group: 'Formatting',
    enabled: hasWorkbook,
    active: (ctx) => style(ctx).verticalAlign === value,
    run: (ctx) => ctx.workspace.styleSelection({ verticalAlign: style(ctx).verticalAlign === value ? null : value }),
  }
}

function borders(choice: BorderChoice, label: string): Action {
  return { id: `borders-${choice}`, label, group: 'Formatting', enabled: hasWorkbook, run: (ctx) => ctx.workspace.borderSelection(choice) }
}

function numberFormat(id: string, label: string, buttonLabel: string, format: string): Action {
  return {
    id,
    label,
    group: 'Formatting',
    buttonLabel: () => buttonLabel,
    enabled: hasWorkbook,
    active: (ctx) => activeFormat(ctx) === format,
    run: (ctx) => ctx.workspace.formatSelection(activeFormat(ctx) === format ? null : format),
  }
}

/** Moves the selection with the key that ran the action (arrows, Tab, Enter, Home, …). */
function move(id: string, label: string, keys: string[], shortcut?: string): Action {
  return {
    id,
    label,
    group: 'Moving around',
    keys,
    ...(shortcut ? { shortcut } : {}),
    enabled: (ctx) => hasWorkbook(ctx) && ctx.grid !== null,
    run: (ctx) => {
      const { grid, key } = ctx
      if (!grid || !key) return
      const next = navigate(ctx.workspace.state.selection, key, grid.navigation())
      if (next) grid.select(next, key.shift ? next.focus : next.active)
    },
  }
}

const arrows = ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight']

/** Runs the browser's own copy or cut on the grid, where the clipboard handlers are. */
function clipboardCommand(ctx: ActionContext, command: 'copy' | 'cut'): void {
  ctx.grid?.focus()
  document.execCommand(command)
}

/** Ctrl+[ and Ctrl+]: to the cells the active cell's formula reads, or to the formulas that read it. */
function related(id: string, kind: 'precedents' | 'dependents', key: string): Action {
  return {
    id,
    label: kind === 'precedents' ? 'Go to the cells the formula reads (precedents)' : 'Go to the formulas that read the cell (dependents)',
    group: 'Moving around',
    keys: [key],
    enabled: (ctx) => hasWorkbook(ctx) && ctx.grid !== null,
    run: (ctx) => {
      const { sheet, selection } = ctx.workspace.state
      const from = cellAddress(selection.active)
      const found = goToRelatedCells(ctx.workspace, kind)
      if (found.length === 0) {
        toast({ title: kind === 'precedents' ? 'Precedents' : 'Dependents', description: kind === 'precedents' ? `${from} reads no other cells.` : `No formula reads ${from}.` })
        return
      }
      const first = found[0]
      requestAnimationFrame(() => ctx.grid?.reveal({ col: first.range.startCol, row: first.range.startRow }))
      if (found.length > 1) {
        const names = found.slice(0, RELATED_LISTED).map((f) => (f.sheet === sheet ? '' : sheetPrefix(f.sheet)) + rangeAddress(f.range))
        const more = found.length > RELATED_LISTED ? ` and ${found.length - RELATED_LISTED} more` : ''
        toast({ title: kind === 'precedents' ? `Precedents of ${from}` : `Dependents of ${from}`, description: `${names.join(', ')}${more}` })
      }
    },
  }
}

/** How many precedents or dependents the note after Ctrl+[ or Ctrl+] names. */
const RELATED_LISTED = 12

export const SPREADSHEET_ACTIONS: readonly Action[] = [
  // ---- moving around -------------------------------------------------------------------------------
  move('move-right', 'Commit and move one cell right', ['Tab']),
  move('move-left', 'Commit and move one cell left', ['Shift+Tab']),
  move('move-down', 'Commit and move down / up', ['Enter', 'Shift+Enter'], 'Enter / Shift+Enter'),
  move('move', 'Move the selection; with Shift, extend it', [...arrows, ...arrows.map((a) => `Shift+${a}`)], 'Arrow keys'),
  move('jump', 'Jump to the edge of the data', [...arrows.map((a) => `Ctrl+${a}`), ...arrows.map((a) => `Ctrl+Shift+${a}`)], 'Ctrl+Arrow'),
  move('page', 'One screen down / up', ['PageDown', 'PageUp', 'Shift+PageDown', 'Shift+PageUp'], 'PgDn / PgUp'),
  move('row-start', 'First cell of the row', ['Home', 'Shift+Home']),
  move('first-cell', 'Cell A1', ['Ctrl+Home', 'Ctrl+Shift+Home']),
  move('last-cell', 'Last used cell', ['Ctrl+End', 'Ctrl+Shift+End']),
  {
    id: 'previous-sheet',
    label: 'Previous sheet',
    group: 'Sheets',
    keys: ['Ctrl+PgUp'],
    enabled: hasWorkbook,
    run: (ctx) => ctx.workspace.stepSheet(-1),
  },
  {
    id: 'next-sheet',
    label: 'Next sheet',
    group: 'Sheets',
    keys: ['Ctrl+PgDn'],
    enabled: hasWorkbook,
    run: (ctx) => ctx.workspace.stepSheet(1),
  },
  {
    id: 'go-to',
    label: 'Go to…',
    group: 'Moving around',
    keys: ['Ctrl+G'],
    enabled: hasWorkbook,
    run: (ctx) => ctx.workspace.openGoTo(),
  },
  related('go-to-precedents', 'precedents', 'Ctrl+['),
  related('go-to-dependents', 'dependents', 'Ctrl+]'),
  {
    id: 'find',
    label: 'Find…',
    group: 'Editing',
    keys: ['Ctrl+F'],
    enabled: hasWorkbook,
    run: (ctx) => ctx.workspace.openTool('find'),
  },
  {
    id: 'replace',
    label: 'Replace…',
    group: 'Editing',
    keys: ['Ctrl+H'],
    enabled: hasWorkbook,
    run: (ctx) => ctx.workspace.openTool('replace'),
  },
  {
    id: 'name-manager',
    label: 'Name Manager…',
    group: 'Editing',
    keys: ['Ctrl+F3'],
    enabled: hasWorkbook,
    run: (ctx) => ctx.workspace.openTool('names'),
  },
  {
    id: 'trace-precedents',
    label: 'Trace Precedents',
    group: 'Editing',
    enabled: hasWorkbook,
    run: (ctx) => {
      const from = cellAddress(ctx.workspace.state.selection.active)
      if (ctx.workspace.tracePrecedents() === 0) toast({ title: 'Trace Precedents', description: `Nothing further to trace from ${from}.` })
    },
  },
  {
    id: 'trace-dependents',
    label: 'Trace Dependents',
    group: 'Editing',
    enabled: hasWorkbook,
    run: (ctx) => {
      const from = cellAddress(ctx.workspace.state.selection.active)
      if (ctx.workspace.traceDependents() === 0) toast({ title: 'Trace Dependents', description: `Nothing further to trace from ${from}.` })
    },
  },
  {
    id: 'remove-arrows',
    label: 'Remove Arrows',
    group: 'Editing',
    enabled: (ctx) => ctx.workspace.state.trace !== null,
    run: (ctx) => ctx.workspace.removeArrows(),
  },
  {
    id: 'conditional-formatting',
    label: 'Conditional formatting…',
    group: 'Formatting',
    enabled: hasWorkbook,
    run: (ctx) => ctx.workspace.openTool('conditional-formats'),
  },
  {
    id: 'goal-seek',
    label: 'Goal Seek…',
    group: 'Editing',
    enabled: hasWorkbook,
    run: (ctx) => ctx.workspace.openTool('goal-seek'),
  },
  {
    id: 'data-validation',
    label: 'Data validation…',
    group: 'Editing',
    enabled: hasWorkbook,
    run: (ctx) => ctx.workspace.openTool('data-validation'),
  },
  {
    id: 'select-all',
    label: 'Select all',
    group: 'Moving around',
    keys: ['Ctrl+A'],
    enabled: (ctx) => hasWorkbook(ctx) && ctx.grid !== null,
    run: (ctx) => ctx.grid && ctx.workspace.setSelection(selectAll(ctx.grid.bounds)),
  },
  {
    id: 'select-rows',
    label: 'Select the whole rows',
    group: 'Moving around',
    keys: ['Shift+Space'],
    enabled: (ctx) => hasWorkbook(ctx) && ctx.grid !== null,
    run: (ctx) => {
      const r = selectionRange(ctx.workspace.state.selection)
      if (ctx.grid) ctx.workspace.setSelection(selectRows(r.startRow, r.endRow, ctx.grid.bounds))
    },
  },
  {
    id: 'select-columns',
    label: 'Select the whole columns',
    group: 'Moving around',
    keys: ['Ctrl+Space'],
    enabled: (ctx) => hasWorkbook(ctx) && ctx.grid !== null,
    run: (ctx) => {
      const r = selectionRange(ctx.workspace.state.selection)
      if (ctx.grid) ctx.workspace.setSelection(selectColumns(r.startCol, r.endCol, ctx.grid.bounds))
    },
  },
  {
    id: 'leave-grid',
    label: 'Leave the grid for the cell-reference box (Tab goes on from there)',
    group: 'Moving around',
    keys: ['F6'],
    enabled: (ctx) => ctx.grid !== null,
    run: (ctx) => ctx.grid?.leaveGrid(),
  },
  {
    id: 'cell-menu',
    label: 'The cell menu: insert or delete rows and columns',
    group: 'Moving around',
    keys: ['Shift+F10', 'ContextMenu'],
    enabled: (ctx) => hasWorkbook(ctx) && ctx.grid !== null,
    run: (ctx) => ctx.grid?.openCellMenu(),
  },

  // ---- editing -------------------------------------------------------------------------------------
  {
    id: 'edit-cell',
    label: 'Edit the cell',
    group: 'Editing',
    keys: ['F2'],
    enabled: (ctx) => hasWorkbook(ctx) && ctx.grid !== null,
    run: (ctx) => ctx.grid?.editCell(),
  },
  { id: 'start-formula', label: 'Start a formula; arrows and clicks insert references', group: 'Editing', shortcut: '=' },
  {
    id: 'commit-right',
    label: 'Write the entry and move one cell right (left with Shift)',
    group: 'Editing',
    scope: 'editor',
    keys: ['Tab', 'Shift+Tab'],
    run: (ctx) => ctx.editor?.commit({ ...ctx.key!, ctrl: false }),
  },
  {
    id: 'commit-down',
    label: 'Write the entry and move down (up with Shift)',
    group: 'Editing',
    scope: 'editor',
    keys: ['Enter', 'Shift+Enter'],
    run: (ctx) => ctx.editor?.commit({ ...ctx.key!, ctrl: false }),
  },
  {
    id: 'commit-into-selection',
    label: 'Write the entry into every selected cell',
    group: 'Editing',
    scope: 'editor',
    keys: ['Ctrl+Enter'],
    run: (ctx) => ctx.editor?.commit(null, true),
  },
  {
    id: 'new-line',
    label: 'A new line inside the cell',
    group: 'Editing',
    scope: 'editor',
    keys: ['Alt+Enter'],
    run: (ctx) => ctx.editor?.newLine(),
  },
  {
    id: 'cycle-reference',
    label: 'Anchor the reference at the caret: A1, $A$1, A$1, $A1',
    group: 'Editing',
    scope: 'editor',
    keys: ['F4'],
    run: (ctx) => ctx.editor?.cycleReference(),
  },
  {
    id: 'cancel-edit',
    label: 'Cancel the edit',
    group: 'Editing',
    scope: 'editor',
    keys: ['Escape'],
    run: (ctx) => ctx.editor?.cancel(),
  },
  {
    id: 'toggle-edit-mode',
    label: 'Switch between pointing at cells and moving the caret',
    group: 'Editing',
    scope: 'editor',
    keys: ['F2'],
    run: (ctx) => ctx.editor?.toggleMode(),
  },
  {
    id: 'clear-contents',
    label: 'Clear contents',
    group: 'Editing',
    keys: ['Delete', 'Backspace'],
    shortcut: 'Delete / Backspace',
    enabled: hasWorkbook,
    run: (ctx) => clearSelection(ctx.workspace),
  },
  {
    id: 'cut',
    label: 'Cut',
    group: 'Editing',
    keys: ['Ctrl+X'],
    nativeKeys: true,
    enabled: hasWorkbook,
    run: (ctx) => clipboardCommand(ctx, 'cut'),
  },
  {
    id: 'copy',
    label: 'Copy',
    group: 'Editing',
    keys: ['Ctrl+C'],
    nativeKeys: true,
    enabled: hasWorkbook,
    run: (ctx) => clipboardCommand(ctx, 'copy'),
  },
  {
    id: 'paste',
    label: 'Paste',
    group: 'Editing',
    keys: ['Ctrl+V'],
    nativeKeys: true,
    enabled: hasWorkbook,
    run: (ctx) => {
      ctx.grid?.focus()
      navigator.clipboard
        .readText()
        .then((text) => pasteText(ctx.workspace, text))
        .catch(() => toast({ title: 'Paste', description: 'The browser did not allow reading the clipboard here: press Ctrl+V to paste.' }))
    },
  },
  {
    id: 'paste-special',
    label: 'Paste Special…',
    group: 'Editing',
    keys: ['Ctrl+Shift+V'],
    enabled: hasWorkbook,
    run: (ctx) => {
      const copy = ctx.workspace.state.copy
      if (copy && !copy.cut) ctx.workspace.openPasteSpecial()
      else toast({ title: 'Paste Special', description: copy ? 'Cut cells can only be pasted whole: press Ctrl+V.' : 'Copy cells first (Ctrl+C), then choose what to paste of them.' })
    },
  },
  {
    id: 'fill-down',
    label: 'Fill down',
    group: 'Editing',
    keys: ['Ctrl+D'],
    enabled: hasWorkbook,
    run: (ctx) => fillSelection(ctx.workspace, 'down'),
  },
  {
    id: 'fill-right',
    label: 'Fill right',
    group: 'Editing',
    keys: ['Ctrl+R'],
    enabled: hasWorkbook,
    run: (ctx) => fillSelection(ctx.workspace, 'right'),
  },
  {
    id: 'undo',
    label: 'Undo',
    group: 'Editing',
    keys: ['Ctrl+Z'],
    buttonLabel: (ctx) => `Undo${ctx.workspace.undoLabel ? ` ${ctx.workspace.undoLabel}` : ''}`,
    enabled: (ctx) => ctx.workspace.canUndo,
    run: (ctx) => ctx.workspace.undo(),
  },
  {
    id: 'redo',
    label: 'Redo',
    group: 'Editing',
    keys: ['Ctrl+Y', 'Ctrl+Shift+Z'],
    buttonLabel: (ctx) => `Redo${ctx.workspace.redoLabel ? ` ${ctx.workspace.redoLabel}` : ''}`,
    enabled: (ctx) => ctx.workspace.canRedo,
    run: (ctx) => ctx.workspace.redo(),
  },
  {
    id: 'print',
    label: 'Print',
    group: 'Editing',
    scope: 'app',
    keys: ['Ctrl+P'],
    buttonLabel: () => 'Print (Ctrl+P)',
    enabled: hasWorkbook,
    run: () => requestOutput('print'),
  },
  {
    id: 'page-setup',
    label: 'Page setup…',
    group: 'Editing',
    enabled: hasWorkbook,
    run: () => requestOutput('page-setup'),
  },
  {
    id: 'export-pdf',
    label: 'Export PDF',
    group: 'Editing',
    enabled: hasWorkbook,
    run: () => requestOutput('export-pdf'),
  },
  {
    id: 'drop-copy-mark',
    label: 'Forget the copied cells (their moving border)',
    group: 'Editing',
    keys: ['Escape'],
    enabled: (ctx) => ctx.workspace.state.copy !== null,
    run: (ctx) => ctx.workspace.setCopy(null),
  },

  // ---- formatting ----------------------------------------------------------------------------------
  toggleStyle('bold', 'Bold', 'Ctrl+B'),
  toggleStyle('italic', 'Italic', 'Ctrl+I'),
  toggleStyle('underline', 'Underline', 'Ctrl+U'),
  toggleStyle('strike', 'Strikethrough', 'Ctrl+5'),
  toggleStyle('wrap', 'Wrap text'),
  align('left', 'Align left'),
  align('center', 'Align center'),
  align('right', 'Align right'),
  verticalAlign('top', 'Align top'),
  verticalAlign('middle', 'Align middle'),
  verticalAlign('bottom', 'Align bottom'),
  ...BORDER_CHOICES.map(({ choice, label }) => borders(choice, label)),
  {
    id: 'merge',
    label: 'Merge & center',
    group: 'Formatting',
    title: (ctx) => (merged(ctx) ? 'Unmerge cells' : 'Merge & center'),
    buttonLabel: (ctx) => (merged(ctx) ? 'Unmerge cells' : 'Merge & center'),
    enabled: hasWorkbook,
    active: merged,
    run: (ctx) => {
      try {
        ctx.workspace.toggleMerge()
      } catch (error) {
        toast({ title: 'Error', description: error instanceof Error ? error.message : String(error), variant: 'destructive' })
      }
    },
  },
  {
    id: 'format-cells',
    label: 'Format Cells…',
    group: 'Formatting',
    keys: ['Ctrl+1'],
    enabled: hasWorkbook,
    run: (ctx) => ctx.workspace.openFormatCells(),
  },
  numberFormat('currency', 'Currency', 'Currency format', CURRENCY_FORMAT),
  numberFormat('percent', 'Percent', 'Percent format', PERCENT_FORMAT),
  {
    id: 'increase-decimals',
    label: 'Increase decimals',
    group: 'Formatting',
    enabled: hasWorkbook,
    run: (ctx) => ctx.workspace.formatSelection(adjustDecimals(activeFormat(ctx), 1, shownText(ctx))),
  },
  {
    id: 'decrease-decimals',
    label: 'Decrease decimals',
    group: 'Formatting',
    enabled: hasWorkbook,
    run: (ctx) => ctx.workspace.formatSelection(adjustDecimals(activeFormat(ctx), -1, shownText(ctx))),
  },
  {
    id: 'clear-number-format',
    label: 'Clear number format',
    group: 'Formatting',
    enabled: hasWorkbook,
    run: (ctx) => ctx.workspace.formatSelection(null),
  },
  {
    id: 'clear-formatting',
    label: 'Clear formatting',
    group: 'Formatting',
    enabled: hasWorkbook,
    run: (ctx) =>
      ctx.workspace.styleSelection({ bold: null, italic: null, underline: null, color: null, fill: null, align: null, fontFamily: null, fontSize: null }),
  },

  // ---- rows and columns ----------------------------------------------------------------------------
  {
    id: 'insert-rows-above',
    label: 'Insert rows above',
    group: 'Rows and columns',
    title: (ctx) => `Insert ${plural(rowCount(ctx), 'row')} above`,
    visible: rowsApply,
    enabled: hasWorkbook,
    run: (ctx) => structure(ctx, 'insert-rows', 'start'),
  },
  {
    id: 'insert-rows-below',
    label: 'Insert rows below',
    group: 'Rows and columns',
    title: (ctx) => `Insert ${plural(rowCount(ctx), 'row')} below`,
    visible: rowsApply,
    enabled: hasWorkbook,
    run: (ctx) => structure(ctx, 'insert-rows', 'after'),
  },
  {
    id: 'delete-rows',
    label: 'Delete rows',
    group: 'Rows and columns',
    title: (ctx) => `Delete ${plural(rowCount(ctx), 'row')}`,
    visible: rowsApply,
    enabled: hasWorkbook,
    run: (ctx) => structure(ctx, 'delete-rows', 'start'),
  },
  {
    id: 'insert-columns-left',
    label: 'Insert columns left',
    group: 'Rows and columns',
    title: (ctx) => `Insert ${plural(columnCount(ctx), 'column')} left`,
    visible: columnsApply,
    enabled: hasWorkbook,
    run: (ctx) => structure(ctx, 'insert-columns', 'start'),
  },
  {
    id: 'insert-columns-right',
    label: 'Insert columns right',
    group: 'Rows and columns',
    title: (ctx) => `Insert ${plural(columnCount(ctx), 'column')} right`,
    visible: columnsApply,
    enabled: hasWorkbook,
    run: (ctx) => structure(ctx, 'insert-columns', 'after'),
  },
  {
    id: 'delete-columns',
    label: 'Delete columns',
    group: 'Rows and columns',
    title: (ctx) => `Delete ${plural(columnCount(ctx), 'column')}`,
    visible: columnsApply,
    enabled: hasWorkbook,
    run: (ctx) => structure(ctx, 'delete-columns', 'start'),
  },

  {
    id: 'hide-rows',
    label: 'Hide rows',
    group: 'Rows and columns',
    keys: ['Ctrl+9'],
    title: (ctx) => `Hide ${plural(rowCount(ctx), 'row')}`,
    visible: rowsApply,
    enabled: hasWorkbook,
    run: (ctx) => layoutChange(ctx, (sheet, range) => hide(sheet, 'rows', range)),
  },
  {
    id: 'unhide-rows',
    label: 'Unhide rows',
    group: 'Rows and columns',
    keys: ['Ctrl+Shift+9', 'Ctrl+Shift+('],
    visible: rowsApply,
    enabled: hasWorkbook,
    run: (ctx) => layoutChange(ctx, (sheet, range, layout) => unhide(sheet, 'rows', range, layout)),
  },
  {
    id: 'hide-columns',
    label: 'Hide columns',
    group: 'Rows and columns',
    keys: ['Ctrl+0'],
    title: (ctx) => `Hide ${plural(columnCount(ctx), 'column')}`,
    visible: columnsApply,
    enabled: hasWorkbook,
    run: (ctx) => layoutChange(ctx, (sheet, range) => hide(sheet, 'columns', range)),
  },
  {
    id: 'unhide-columns',
    label: 'Unhide columns',
    group: 'Rows and columns',
    visible: columnsApply,
    enabled: hasWorkbook,
    run: (ctx) => layoutChange(ctx, (sheet, range, layout) => unhide(sheet, 'columns', range, layout)),
  },
  {
    id: 'row-height-default',
    label: 'Reset row height',
    group: 'Rows and columns',
    title: (ctx) => (rowCount(ctx) === 1 ? 'Reset row height' : `Reset ${plural(rowCount(ctx), 'row')} to the default height`),
    visible: rowsApply,
    enabled: hasWorkbook,
    run: (ctx) => layoutChange(ctx, (sheet, range) => ({ type: 'set-sheet-view', sheet, rows: [{ from: range.startRow, to: range.endRow, height: null }] })),
  },
  {
    id: 'group',
    label: 'Group',
    group: 'Rows and columns',
    keys: ['Alt+Shift+ArrowRight'],
    title: (ctx) => (groupAxis(ctx) === 'rows' ? `Group ${plural(rowCount(ctx), 'row')}` : `Group ${plural(columnCount(ctx), 'column')}`),
    enabled: hasWorkbook,
    run: (ctx) => layoutChange(ctx, (sheet, range, layout) => regroup(sheet, groupAxis(ctx), range, layout, 1)),
  },
  {
    id: 'ungroup',
    label: 'Ungroup',
    group: 'Rows and columns',
    keys: ['Alt+Shift+ArrowLeft'],
    title: (ctx) => (groupAxis(ctx) === 'rows' ? `Ungroup ${plural(rowCount(ctx), 'row')}` : `Ungroup ${plural(columnCount(ctx), 'column')}`),
    enabled: hasWorkbook,
    run: (ctx) => layoutChange(ctx, (sheet, range, layout) => regroup(sheet, groupAxis(ctx), range, layout, -1)),
  },
  {
    id: 'collapse-group',
    label: 'Hide detail',
    group: 'Rows and columns',
    enabled: (ctx) => outlineGroupAt(ctx)?.collapsed === false,
    run: (ctx) => toggleGroup(ctx, true),
  },
  {
    id: 'expand-group',
    label: 'Show detail',
    group: 'Rows and columns',
    enabled: (ctx) => outlineGroupAt(ctx)?.collapsed === true,
    run: (ctx) => toggleGroup(ctx, false),
  },

  // ---- view ----------------------------------------------------------------------------------------
  {
    id: 'freeze-panes',
    label: 'Freeze panes',
    group: 'Moving around',
    title: (ctx) => `Freeze panes at ${cellAddress(ctx.workspace.state.selection.active)}`,
    enabled: hasWorkbook,
    run: (ctx) => layoutChange(ctx, (sheet) => freezeAt(sheet, ctx.workspace.state.selection.active)),
  },
  {
    id: 'freeze-top-row',
    label: 'Freeze top row',
    group: 'Moving around',
    enabled: hasWorkbook,
    run: (ctx) => layoutChange(ctx, (sheet) => freeze(sheet, 1, 0)),
  },
  {
    id: 'freeze-first-column',
    label: 'Freeze first column',
    group: 'Moving around',
    enabled: hasWorkbook,
    run: (ctx) => layoutChange(ctx, (sheet) => freeze(sheet, 0, 1)),
  },
  {
    id: 'unfreeze-panes',
    label: 'Unfreeze panes',
    group: 'Moving around',
    enabled: (ctx) => {
      const layout = activeLayout(ctx)
      return Boolean(layout?.frozenRows || layout?.frozenColumns)
    },
    run: (ctx) => layoutChange(ctx, (sheet) => freeze(sheet, 0, 0)),
  },
  {
    id: 'zoom-in',
    label: 'Zoom in',
    group: 'Moving around',
    enabled: (ctx) => hasWorkbook(ctx) && ctx.workspace.state.zoom < MAX_ZOOM,
    run: (ctx) => ctx.workspace.setZoom(ctx.workspace.state.zoom + ZOOM_STEP),
  },
  {
    id: 'zoom-out',
    label: 'Zoom out',
    group: 'Moving around',
    enabled: (ctx) => hasWorkbook(ctx) && ctx.workspace.state.zoom > MIN_ZOOM,
    run: (ctx) => ctx.workspace.setZoom(ctx.workspace.state.zoom - ZOOM_STEP),
  },
  {
    id: 'zoom-reset',
    label: 'Zoom to 100%',
    group: 'Moving around',
    enabled: (ctx) => hasWorkbook(ctx) && ctx.workspace.state.zoom !== 1,
    run: (ctx) => ctx.workspace.setZoom(1),
  },

  // ---- sheets --------------------------------------------------------------------------------------
  {
    id: 'hide-sheet',
    label: 'Hide sheet',
    group: 'Sheets',
    enabled: (ctx) => (ctx.workspace.state.store?.visibleSheetNames.length ?? 0) > 1,
    run: (ctx) => reportRefusal(() => ctx.workspace.hideSheet(ctx.workspace.state.sheet)),
  },
  {
    id: 'unhide-sheet',
    label: 'Unhide sheet…',
    group: 'Sheets',
    enabled: (ctx) => (ctx.workspace.state.store?.hiddenSheetNames.length ?? 0) > 0,
    run: (ctx) => ctx.workspace.openUnhideSheet(),
  },
  {
    id: 'add-sheet',
    label: 'Add sheet',
    group: 'Sheets',
    enabled: hasWorkbook,
    run: (ctx) => ctx.workspace.addSheet(),
  },

  // ---- notes, links and gridlines ------------------------------------------------------------------
  {
    id: 'insert-note',
    label: 'Insert note',
    group: 'Editing',
    keys: ['Shift+F2'],
    title: (ctx) => (activeNote(ctx) ? 'Edit note' : 'Insert note'),
    enabled: hasWorkbook,
    run: (ctx) => ctx.workspace.openTool('note'),
  },
  {
    id: 'delete-note',
    label: 'Delete note',
    group: 'Editing',
    enabled: (ctx) => activeNote(ctx) !== undefined,
    run: (ctx) => layoutChange(ctx, (sheet) => noteCommand(sheet, ctx.workspace.state.selection.active, '')),
  },
  {
    id: 'insert-link',
    label: 'Link…',
    group: 'Editing',
    keys: ['Ctrl+K'],
    enabled: hasWorkbook,
    run: (ctx) => ctx.workspace.openTool('link'),
  },
  {
    id: 'remove-link',
    label: 'Remove link',
    group: 'Editing',
    enabled: (ctx) => activeLayout(ctx)?.links?.[cellAddress(ctx.workspace.state.selection.active)] !== undefined,
    run: (ctx) => layoutChange(ctx, (sheet) => ({ type: 'set-sheet-view', sheet, links: [{ address: cellAddress(ctx.workspace.state.selection.active), url: null }] })),
  },
  {
    id: 'toggle-gridlines',
    label: 'Gridlines',
    group: 'Moving around',
    enabled: hasWorkbook,
    active: (ctx) => activeLayout(ctx)?.showGridLines !== false,
    title: (ctx) => (activeLayout(ctx)?.showGridLines === false ? 'Show gridlines' : 'Hide gridlines'),
    run: (ctx) => layoutChange(ctx, (sheet, _range, layout) => ({ type: 'set-sheet-view', sheet, showGridLines: layout?.showGridLines === false })),
  },

  // ---- screens -------------------------------------------------------------------------------------
  ...NAVIGATION.filter((item) => item.shortcut).map(
    (item): Action => ({
      id: `go-${item.path === '/' ? 'spreadsheet' : item.path.slice(1)}`,
      label: item.path === '/insights' ? `${item.label} (data)` : item.label,
      group: 'Go to a screen',
      scope: 'app',
      keys: [item.shortcut!],
      run: (ctx) => ctx.go(item.path),
    }),
  ),
  {
    id: 'toggle-assistant',
    label: 'Open or close the AI assistant',
    group: 'Go to a screen',
    scope: 'app',
    keys: ['Alt+A'],
    buttonLabel: () => 'AI assistant (Alt+A)',
    enabled: (ctx) => ctx.assistant !== undefined,
    active: (ctx) => ctx.assistant?.open === true,
    run: (ctx) => {
      // the panel sits beside the spreadsheet: from another screen, Alt+A goes there with it open
      if (!ctx.assistant) return
      if (!ctx.assistant.onSpreadsheet) {
        ctx.assistant.setOpen(true)
        ctx.go('/')
      } else if (ctx.assistant.open) {
        ctx.assistant.setOpen(false)
        ctx.workspace.focusGrid()
      } else ctx.assistant.setOpen(true)
    },
  },
  ...DATA_ACTIONS,
  {
    id: 'insert-chart',
    label: 'Chart',
    group: 'Editing',
    enabled: hasWorkbook,
    run: (ctx) => insertChart(ctx),
  },
]

/** Insert → Chart: a chart of the selection placed beside it, selected, with its editor open. */
function insertChart(ctx: ActionContext): void {
  const { store, sheet, selection } = ctx.workspace.state
  const source = store?.sheet(sheet)?.source
  if (!store || !source) return
  const range = store.clampToUsed(sheet, selectionRange(selection))
  const result = insertChartCommand(sheet, range, source, { id: newChartId(), now: new Date(), title: nextChartTitle(store.chartTitles()) })
  if ('problem' in result) {
    toast({ title: 'Chart', description: result.problem, variant: 'destructive' })
    return
  }
  reportRefusal(() => ctx.workspace.dispatch(result.command))
  if (store.chartById(result.command.id)) ctx.workspace.focusChart(result.command.id, true)
}

function activeNote(ctx: ActionContext) {
  return noteAt(activeLayout(ctx), ctx.workspace.state.selection.active)
}

function activeLayout(ctx: ActionContext): SheetViewState | undefined {
  const { store, sheet } = ctx.workspace.state
  return store?.sheet(sheet)?.layout
}

/** A refused change (hiding the last shown sheet) says why. */
function reportRefusal(change: () => void): void {
  try {
    change()
  } catch (error) {
    toast({ title: 'Error', description: error instanceof Error ? error.message : String(error), variant: 'destructive' })
  }
}

/** Sends the layout command built from the selection and the sheet's layout, when there is one to send. */
function layoutChange(ctx: ActionContext, build: (sheet: string, range: CellRange, layout: SheetViewState | undefined) => WorkbookCommand | null): void {
  const { store, sheet, selection } = ctx.workspace.state
  if (!store) return
  const command = build(sheet, selectionRange(selection), activeLayout(ctx))
  if (command) reportRefusal(() => store.dispatch(command))
  ctx.workspace.refresh()
}

/** Group acts on columns when whole columns are selected, on rows otherwise (Excel asks when it cannot tell). */
function groupAxis(ctx: ActionContext): 'rows' | 'columns' {
  const block = selectedBlock(ctx)
  return block && block.wholeColumns && !block.wholeRows ? 'columns' : 'rows'
}

/** The outline group the active cell is in or sums, on the rows (or the columns when whole columns are selected). */
function outlineGroupAt(ctx: ActionContext): OutlineGroup | undefined {
  const axis = groupAxis(ctx)
  const { active } = ctx.workspace.state.selection
  return groupAt(activeLayout(ctx), axis, axis === 'rows' ? active.row : active.col)
}

function toggleGroup(ctx: ActionContext, collapsed: boolean): void {
  const group = outlineGroupAt(ctx)
  if (group) layoutChange(ctx, (sheet) => setCollapsed(sheet, group, collapsed))
}

function merged(ctx: ActionContext): boolean {
  const { store, sheet, selection } = ctx.workspace.state
  return store?.sheet(sheet)?.merges.at(selection.active) !== undefined
}

/** The spreadsheet's actions, for the keymaps, the toolbar, the menus and the shortcuts page. */
export const spreadsheetActions = new ActionRegistry(SPREADSHEET_ACTIONS)

/** The cell menu (right click, Shift+F10): the clipboard, rows and columns for the selection, clearing. */
export const CELL_MENU: readonly (string | 'separator')[] = [
  'cut',
  'copy',
  'paste',
  'paste-special',
  'separator',
  'insert-rows-above',
  'insert-rows-below',
  'delete-rows',
  'insert-columns-left',
  'insert-columns-right',
  'delete-columns',
  'separator',
  'hide-rows',
  'unhide-rows',
  'hide-columns',
  'unhide-columns',
  'separator',
  'insert-note',
  'delete-note',
  'insert-link',
  'remove-link',
  'separator',
  'clear-contents',
]
