import type { CellPosition } from '../grid/address'
import type { NavigationContext, NavigationKey } from '../grid/navigation'
import type { GridBounds, Selection } from '../grid/selection'
import type { NavigationItem } from '../shell/navigation-items'
import type { Workspace } from '../spreadsheet/workspace'
import type { MenuItem } from '../ui/Menu'
import type { KeyChord } from './keys'
import { matchesChord } from './keys'

/**
 * Every user action of the spreadsheet (bold, insert a row, merge, format as currency, undo, go to a
 * screen, commit an edit, …) is one entry of the registry: its id, its label, its keys, whether it
 * can run now and whether it is on, and what it does. The keymaps, the toolbar, the menus, the cell
 * menu and the shortcuts page all read these entries, so a label or a key is written once.
 */

/** Where an action's keys work. */
export type ActionScope =
  /** the grid has the keyboard and no cell is being edited */
  | 'grid'
  /** a cell is being edited (in the cell or in the fx bar) */
  | 'editor'
  /** anywhere in the app */
  | 'app'

/** The shortcuts page's sections, in this order. */
export const ACTION_GROUPS = ['Moving around', 'Editing', 'Formatting', 'Rows and columns', 'Sheets', 'Go to a screen'] as const
export type ActionGroup = (typeof ACTION_GROUPS)[number]

/** What the spreadsheet on screen lends the actions that act on it. */
export interface GridControls {
  bounds: GridBounds
  navigation(): NavigationContext
  /** sets the selection and scrolls `reveal` (the focus by default) into view */
  select(next: Selection, reveal?: CellPosition): void
  /** scrolls a cell into view */
  reveal(pos: CellPosition): void
  /** F2: edits the active cell, caret at the end */
  editCell(): void
  /** Shift+F10: the cell menu at the active cell */
  openCellMenu(): void
  /** F6: the keyboard goes to the cell-reference box */
  leaveGrid(): void
  /** gives the grid the keyboard back */
  focus(): void
  /** Alt+Down: opens the list of a cell whose data validation offers one */
  openList?(): void
}

/** What an edit in progress lends the actions that end or change it. */
export interface EditorControls {
  /** writes the edit (into every selected cell with `intoSelection`) and moves as `move` says */
  commit(move: NavigationKey | null, intoSelection?: boolean): void
  cancel(): void
  /** F2: switches between Enter mode (arrows point at cells) and Edit mode (arrows move the caret) */
  toggleMode(): void
  /** Alt+Enter: a new line inside the cell */
  newLine(): void
  /** F4: the reference at the caret takes the next of A1, $A$1, A$1, $A1 */
  cycleReference(): void
}

/** What the assistant panel lends the action that opens and closes it. */
export interface AssistantControls {
  readonly open: boolean
  /** the spreadsheet screen, where the panel sits, is the one shown */
  readonly onSpreadsheet: boolean
  setOpen(open: boolean): void
}

export interface ActionContext {
  workspace: Workspace
  /** present where the assistant panel can be opened */
  assistant?: AssistantControls
  /** present while the spreadsheet is on screen */
  grid: GridControls | null
  /** present while a cell is being edited */
  editor: EditorControls | null
  /** goes to another screen of the app */
  go(path: NavigationItem['path']): void
  /** the key that ran the action, for those that read it (moving the selection) */
  key: KeyChord | null
}

export interface Action {
  id: string
  /** its name in menus and on the shortcuts page */
  label: string
  group: ActionGroup
  /** the chords that run it, the first shown beside it */
  keys?: readonly string[]
  /** how the shortcuts page writes its keys when they are many ('Arrow keys') */
  shortcut?: string
  /** where its keys work; 'grid' when absent */
  scope?: ActionScope
  /** the browser's own event does the work of its keys (copy, cut, paste): the keymap leaves them to it */
  nativeKeys?: boolean
  /** the label as the selection makes it ('Insert 3 rows above') */
  title?(ctx: ActionContext): string
  /** the toolbar button's name, when it says more than the label ('Bold (Ctrl+B)') */
  buttonLabel?(ctx: ActionContext): string
  /** shown in menus now; true when absent */
  visible?(ctx: ActionContext): boolean
  /** can run now; true when absent */
  enabled?(ctx: ActionContext): boolean
  /** on now (a pressed toolbar button) */
  active?(ctx: ActionContext): boolean
  /** absent for keys only described (typing '=' starts a formula) */
  run?(ctx: ActionContext): void
}

export class ActionRegistry {
  private readonly byId = new Map<string, Action>()

  constructor(readonly actions: readonly Action[]) {
    for (const action of actions) {
      if (this.byId.has(action.id)) throw new Error(`Two actions are called ${action.id}`)
      this.byId.set(action.id, action)
    }
  }

  get(id: string): Action {
    const action = this.byId.get(id)
    if (!action) throw new Error(`No action is called ${id}`)
    return action
  }

  /** The action a key press runs in a scope, or null. */
  forKey(pressed: KeyChord, scope: ActionScope): Action | null {
    for (const action of this.actions) {
      if ((action.scope ?? 'grid') !== scope || !action.run) continue
      if (action.keys?.some((chord) => matchesChord(chord, pressed))) return action
    }
    return null
  }

  /**
   * Runs the action a key press stands for, when it can run. Returns whether the key was taken (the
   * caller then prevents the browser's default, except for keys the browser's own event serves).
   */
  handleKey(pressed: KeyChord, scope: ActionScope, ctx: Omit<ActionContext, 'key'>): { taken: boolean; native: boolean } {
    const action = this.forKey(pressed, scope)
    const context = { ...ctx, key: pressed }
    if (!action || action.nativeKeys || !isEnabled(action, context)) return { taken: false, native: action?.nativeKeys === true }
    action.run?.(context)
    return { taken: true, native: false }
  }
}

export function isEnabled(action: Action, ctx: ActionContext): boolean {
  return action.run !== undefined && (action.enabled?.(ctx) ?? true)
}

export function isActive(action: Action, ctx: ActionContext): boolean {
  return action.active?.(ctx) ?? false
}

export function titleOf(action: Action, ctx: ActionContext): string {
  return action.title?.(ctx) ?? action.label
}

/**
 * A menu item for an action: its label, its first key, disabled when it cannot run. `after` runs once
 * the action has (menus give the keyboard back to the grid).
 */
export function menuItem(action: Action, ctx: ActionContext, after?: () => void): MenuItem {
  return {
    label: titleOf(action, ctx),
    shortcut: action.keys?.[0],
    disabled: !isEnabled(action, ctx) || action.visible?.(ctx) === false,
    onSelect: () => {
      if (!isEnabled(action, ctx) || action.visible?.(ctx) === false) return
      action.run?.(ctx)
      after?.()
    },
  }
}
