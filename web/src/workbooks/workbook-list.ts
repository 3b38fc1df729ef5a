import type { WorkbookMetadata } from '@finsheet/contracts'
import { TRASH_RETENTION_DAYS } from '@finsheet/contracts'
import { plural } from '../ui/plural'

/** How long the Undo of a deletion stays on screen. */
export const DELETE_UNDO_MS = 10_000

/** The user's workbooks as the list shows them: most recently changed first, then by name. */
export function newestFirst(workbooks: readonly WorkbookMetadata[]): WorkbookMetadata[] {
  return [...workbooks].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.name.localeCompare(b.name))
}

/** A workbook's size as the list says it: its cells, and its formulas among them. */
export function workbookSize(workbook: Pick<WorkbookMetadata, 'totalCells' | 'totalFormulas'>): string {
  const cells = plural(workbook.totalCells, 'cell')
  return workbook.totalFormulas > 0 ? `${cells}, ${plural(workbook.totalFormulas, 'formula')}` : cells
}

/** The sheets column: how many, and the names of the first few. */
export function sheetSummary(sheets: readonly string[], shown = 3): string {
  const names = sheets.slice(0, shown).join(', ')
  return sheets.length > shown ? `${plural(sheets.length, 'sheet')}: ${names}, …` : `${plural(sheets.length, 'sheet')}: ${names}`
}

/** Where a workbook came from, when it says: a template, the assistant, an upload. */
export function workbookOrigin(workbook: Pick<WorkbookMetadata, 'templateId' | 'isAIGenerated' | 'storageUrl' | 'isDefault'>): string | null {
  if (workbook.isDefault) return 'First workbook'
  if (workbook.isAIGenerated) return 'Assistant'
  if (workbook.templateId) return 'Template'
  if (workbook.storageUrl) return 'Upload'
  return null
}

/** What the delete confirmation says. */
export function deleteMessage(name: string): string {
  return `${name} goes to the trash with its sheets, history and versions. Undo brings it back; after ${TRASH_RETENTION_DAYS} days it is erased for good.`
}

/** Why a new name is refused before it is sent; null when it may be sent. */
export function workbookNameProblem(name: string, maxLength: number): string | null {
  const trimmed = name.trim()
  if (trimmed === '') return 'A workbook needs a name.'
  if (trimmed.length > maxLength) return `A workbook name has at most ${maxLength} characters.`
  return null
}
