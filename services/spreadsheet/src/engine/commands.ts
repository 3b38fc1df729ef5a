/**
 * What the change log stores for a change: the workbook model's commands with sheets named by id (so
 * undo, redo and history follow a renamed sheet), and the one step the model does not take itself:
 * putting a whole stored workbook in place (a version restore), which the service does.
 */
import type { CellEdit, CellStyle, WorkbookCommand } from '@finsheet/contracts'
import { describeCommands, mapSheetRefs } from '@finsheet/workbook'

/** Puts a whole stored snapshot in place (a version restore). */
export interface ReplaceWorkbookStep {
  type: 'replace-workbook'
  snapshotKey: string
}

export type LoggedCommand = WorkbookCommand | ReplaceWorkbookStep

export const isReplacement = (command: LoggedCommand): command is ReplaceWorkbookStep => command.type === 'replace-workbook'

/** A short description for undo tooltips and the change log. */
export function describeLogged(commands: readonly LoggedCommand[], sheetName: (id: string) => string): string {
  if (commands.length === 1 && isReplacement(commands[0])) return 'Restore a version'
  return describeCommands(commands as WorkbookCommand[], sheetName)
}

/** A stored command as clients read it in the change log: its sheets named as they are called now. */
export function commandForClient(command: LoggedCommand, sheetName: (id: string) => string): Record<string, unknown> {
  if (isReplacement(command)) return { ...command }
  return mapSheetRefs(command, sheetName) as unknown as Record<string, unknown>
}

/**
 * A command as older versions of the service stored it (sheets named by a `sheetId` field, a sheet
 * added back with its widths and merges in one command), in today's form; today's pass unchanged.
 */
export function fromStoredCommand(stored: LoggedCommand | StoredBeforeModel): LoggedCommand[] {
  if (!('sheetId' in stored)) return [stored]
  const sheet = stored.sheetId
  switch (stored.type) {
    case 'set-cells':
      return [{ type: 'set-cells', sheet, cells: stored.cells }]
    case 'resize-column':
      return [{ type: 'resize-column', sheet, column: stored.column, width: stored.width }]
    case 'insert-rows':
    case 'delete-rows':
    case 'insert-columns':
    case 'delete-columns':
      return [{ type: stored.type, sheet, at: stored.at, count: stored.count }]
    case 'add-sheet':
      return [
        { type: 'add-sheet', id: sheet, name: stored.name, index: stored.index },
        ...Object.entries(stored.columnWidths ?? {}).map(([column, width]) => ({ type: 'resize-column' as const, sheet, column: Number(column), width })),
        ...(stored.merges ?? []).map((range) => ({ type: 'merge-cells' as const, sheet, range })),
      ]
    case 'rename-sheet':
      return [{ type: 'rename-sheet', from: sheet, to: stored.name }]
    case 'delete-sheet':
      return [{ type: 'delete-sheet', name: sheet }]
    case 'move-sheet':
      return [{ type: 'move-sheet', name: sheet, index: stored.index }]
    case 'merge-cells':
    case 'unmerge-cells':
      return [{ type: stored.type, sheet, range: stored.range }]
  }
}

/** The stored form of commands before the workbook model was shared with the browser. */
export type StoredBeforeModel =
  | { type: 'set-cells'; sheetId: string; cells: (CellEdit & { style?: CellStyle | null })[] }
  | { type: 'resize-column'; sheetId: string; column: number; width: number | null }
  | { type: 'insert-rows' | 'delete-rows' | 'insert-columns' | 'delete-columns'; sheetId: string; at: number; count: number }
  | { type: 'add-sheet'; sheetId: string; name: string; index: number; columnWidths?: Record<string, number>; merges?: string[] }
  | { type: 'rename-sheet'; sheetId: string; name: string }
  | { type: 'delete-sheet'; sheetId: string }
  | { type: 'move-sheet'; sheetId: string; index: number }
  | { type: 'merge-cells' | 'unmerge-cells'; sheetId: string; range: string }
