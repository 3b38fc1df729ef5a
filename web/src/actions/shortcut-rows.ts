import type { ActionGroup, ActionRegistry } from './action-registry'
import { ACTION_GROUPS } from './action-registry'

export interface ShortcutRow {
  /** as the page writes them: 'Ctrl+B', 'Enter / Shift+Enter' */
  keys: string
  action: string
}

export interface ShortcutSection {
  title: string
  rows: ShortcutRow[]
}

/** The shortcuts every user is shown first, in this order, with the actions that serve them. */
export const ESSENTIAL_SHORTCUTS: readonly { keys: string; ids: readonly string[]; action?: string }[] = [
  { keys: 'Tab', ids: ['move-right'] },
  { keys: 'Shift+Tab', ids: ['move-left'] },
  { keys: 'Ctrl+PgUp/PgDn', ids: ['previous-sheet', 'next-sheet'], action: 'Previous / next sheet' },
  { keys: 'Ctrl+G', ids: ['go-to'], action: 'Go to a cell or range' },
  { keys: 'Home', ids: ['row-start'] },
  { keys: 'Ctrl+End', ids: ['last-cell'] },
  { keys: 'Alt+A', ids: ['toggle-assistant'] },
  { keys: 'Alt+V', ids: ['go-visualizations'] },
  { keys: 'Alt+M', ids: ['go-models'] },
  { keys: 'Alt+F', ids: ['go-files'] },
  { keys: 'Alt+D', ids: ['go-insights'] },
  { keys: 'Alt+S', ids: ['go-spreadsheet'] },
]

/**
 * The shortcuts page: the essentials first, then every other action that has keys, by group, as the
 * registry holds them (so a new action with keys appears here without being written twice).
 */
export function shortcutSections(registry: ActionRegistry): ShortcutSection[] {
  const shown = new Set(ESSENTIAL_SHORTCUTS.flatMap((entry) => entry.ids))
  const essentials: ShortcutSection = {
    title: 'Essentials',
    rows: ESSENTIAL_SHORTCUTS.map((entry) => ({ keys: entry.keys, action: entry.action ?? registry.get(entry.ids[0]).label })),
  }
  const byGroup = new Map<ActionGroup, ShortcutRow[]>(ACTION_GROUPS.map((group) => [group, []]))
  for (const action of registry.actions) {
    if (shown.has(action.id)) continue
    const keys = action.shortcut ?? action.keys?.join(' / ')
    if (!keys) continue
    byGroup.get(action.group)!.push({ keys, action: action.label })
  }
  return [essentials, ...ACTION_GROUPS.map((group) => ({ title: group, rows: byGroup.get(group)! })).filter((section) => section.rows.length > 0)]
}
