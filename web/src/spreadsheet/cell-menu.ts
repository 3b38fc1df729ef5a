import type { ActionContext, ActionRegistry } from '../actions/action-registry'
import { isEnabled, titleOf } from '../actions/action-registry'
import { CELL_MENU } from '../actions/spreadsheet-actions'
import type { ContextMenuItem } from './GridContextMenu'

/**
 * The cell menu (right click, Shift+F10) from the registry: the clipboard, the row and column actions
 * that apply to the selection, clearing. After an action the grid has the keyboard again.
 */
export function cellMenuItems(registry: ActionRegistry, ctx: ActionContext, focusGrid: () => void): (ContextMenuItem | 'separator')[] {
  const items: (ContextMenuItem | 'separator')[] = []
  for (const id of CELL_MENU) {
    if (id === 'separator') {
      if (items.length > 0 && items.at(-1) !== 'separator') items.push('separator')
      continue
    }
    const action = registry.get(id)
    if (action.visible && !action.visible(ctx)) continue
    items.push({
      label: titleOf(action, ctx),
      shortcut: action.keys?.[0],
      disabled: !isEnabled(action, ctx),
      onSelect: () => {
        action.run?.(ctx)
        // the clipboard actions give the grid the keyboard themselves, before the browser copies
        if (!action.nativeKeys) focusGrid()
      },
    })
  }
  return items
}
