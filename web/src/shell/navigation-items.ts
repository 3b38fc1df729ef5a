import type { LucideIcon } from 'lucide-react'
import { BarChart3, Calculator, FolderOpen, GitBranch, Keyboard, Lightbulb, Table2, Workflow } from 'lucide-react'

export interface NavigationItem {
  label: string
  path: '/' | '/visualizations' | '/workflows' | '/insights' | '/files' | '/models' | '/version-control' | '/shortcuts'
  icon: LucideIcon
  /** the Alt shortcut listed on the Shortcuts page */
  shortcut?: string
}

/** Spec 1 §2: the side bar's eight icons, in this order. */
export const NAVIGATION: readonly NavigationItem[] = [
  { label: 'Spreadsheet', path: '/', icon: Table2, shortcut: 'Alt+S' },
  { label: 'Visualizations', path: '/visualizations', icon: BarChart3, shortcut: 'Alt+V' },
  { label: 'Workflows', path: '/workflows', icon: Workflow },
  { label: 'Insights', path: '/insights', icon: Lightbulb, shortcut: 'Alt+D' },
  { label: 'Files', path: '/files', icon: FolderOpen, shortcut: 'Alt+F' },
  { label: 'Financial Models', path: '/models', icon: Calculator, shortcut: 'Alt+M' },
  { label: 'Version Control', path: '/version-control', icon: GitBranch },
  { label: 'Shortcuts', path: '/shortcuts', icon: Keyboard },
]

/** Spec 1 §2 Shortcuts page, with what each key does here. */
export const SHORTCUTS: readonly { keys: string; action: string; group: string }[] = [
  { group: 'Moving around', keys: 'Tab', action: 'Commit and move one cell right' },
  { group: 'Moving around', keys: 'Shift+Tab', action: 'Commit and move one cell left' },
  { group: 'Moving around', keys: 'Enter / Shift+Enter', action: 'Commit and move down / up' },
  { group: 'Moving around', keys: 'Arrow keys', action: 'Move the selection; with Shift, extend it' },
  { group: 'Moving around', keys: 'Ctrl+Arrow', action: 'Jump to the edge of the data' },
  { group: 'Moving around', keys: 'Ctrl+PgUp/PgDn', action: 'Previous / next sheet' },
  { group: 'Moving around', keys: 'Ctrl+G', action: 'Go to a cell or range' },
  { group: 'Moving around', keys: 'Home', action: 'First cell of the row' },
  { group: 'Moving around', keys: 'Ctrl+Home', action: 'Cell A1' },
  { group: 'Moving around', keys: 'Ctrl+End', action: 'Last used cell' },
  { group: 'Moving around', keys: 'F6', action: 'Leave the grid for the cell-reference box (Tab goes on from there)' },
  { group: 'Moving around', keys: 'Shift+F10', action: 'The cell menu: insert or delete rows and columns' },
  { group: 'Editing', keys: 'F2', action: 'Edit the cell' },
  { group: 'Editing', keys: '=', action: 'Start a formula; arrows and clicks insert references' },
  { group: 'Editing', keys: 'Escape', action: 'Cancel the edit' },
  { group: 'Editing', keys: 'Delete / Backspace', action: 'Clear the selected cells' },
  { group: 'Editing', keys: 'Ctrl+C / Ctrl+X / Ctrl+V', action: 'Copy, cut, paste (works with Excel and Google Sheets)' },
  { group: 'Editing', keys: 'Ctrl+D / Ctrl+R', action: 'Fill down / fill right' },
  { group: 'Editing', keys: 'Ctrl+Z / Ctrl+Y', action: 'Undo / redo' },
  { group: 'Editing', keys: 'Ctrl+B / Ctrl+I / Ctrl+U', action: 'Bold, italic, underline' },
  { group: 'Editing', keys: 'Ctrl+Enter', action: 'Write the entry into every selected cell' },
  { group: 'Go to a screen', keys: 'Alt+S', action: 'Spreadsheet' },
  { group: 'Go to a screen', keys: 'Alt+V', action: 'Visualizations' },
  { group: 'Go to a screen', keys: 'Alt+M', action: 'Financial Models' },
  { group: 'Go to a screen', keys: 'Alt+F', action: 'Files' },
  { group: 'Go to a screen', keys: 'Alt+D', action: 'Insights (data)' },
  { group: 'Go to a screen', keys: 'Alt+A', action: 'AI assistant (arrives with the assistant)' },
]
