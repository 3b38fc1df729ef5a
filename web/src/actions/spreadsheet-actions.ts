import type { CellRange } from '../grid/address'
import { navigate } from '../grid/navigation'
import { selectAll, selectColumns, selectionRange, selectRows } from '../grid/selection'
import type { CellStyle, HorizontalAlign } from '../grid/types'
import { NAVIGATION } from '../shell/navigation-items'
import { clearSelection, fillSelection, pasteText } from '../spreadsheet/grid-actions'
import { toast } from '../toasts/toast-store'
import { adjustDecimals, CURRENCY_FORMAT, PERCENT_FORMAT } from '../workbook/number-formats'
import type { Action, ActionContext } from './action-registry'
import { ActionRegistry } from './action-registry'

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

function toggleStyle(name: 'bold' | 'italic' | 'underline', label: string, key: string): Action {
  return {
    id: name,
    label,
    group: 'Formatting',
    keys: [key],
    buttonLabel: () => `${label} (${key})`,
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
    id: 'goal-seek',
    label: 'Goal Seek…',
    group: 'Editing',
    enabled: hasWorkbook,
    run: (ctx) => ctx.workspace.openTool('goal-seek'),
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
    run: () => window.print(),
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
  align('left', 'Align left'),
  align('center', 'Align center'),
  align('right', 'Align right'),
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

  // ---- sheets --------------------------------------------------------------------------------------
  {
    id: 'add-sheet',
    label: 'Add sheet',
    group: 'Sheets',
    enabled: hasWorkbook,
    run: (ctx) => ctx.workspace.addSheet(),
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
]

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
  'separator',
  'insert-rows-above',
  'insert-rows-below',
  'delete-rows',
  'insert-columns-left',
  'insert-columns-right',
  'delete-columns',
  'separator',
  'clear-contents',
]
