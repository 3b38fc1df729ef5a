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

/** Whether a path shows the spreadsheet: `/`, or a workbook's own address. */
export function isSpreadsheetPath(pathname: string): boolean {
  return pathname === '/' || pathname.startsWith('/workbooks/')
}
