/**
 * The change log's commands as the service applies and stores them. They name sheets by id, so that
 * undo, redo and history follow a renamed sheet; the API's commands (contracts) name sheets by name
 * and are translated on arrival.
 */
import type { CellStyle } from '@finsheet/contracts'

export interface CellWrite {
  address: string
  /** What the user typed; '' clears the content. Absent: content unchanged. */
  input?: string | number | boolean
  /** With a formula `input`: saved before dynamic arrays (implicit intersection, never spills). Absent: a dynamic-array formula. */
  legacy?: boolean
  /** With a formula `input`: the range a fixed-size array formula anchored here fills. */
  arrayRange?: string
  /** null removes the style. Absent: unchanged. */
  style?: CellStyle | null
  /** null returns to General. Absent: unchanged. */
  format?: string | null
}

export type InternalCommand =
  | { type: 'set-cells'; sheetId: string; cells: CellWrite[] }
  | { type: 'resize-column'; sheetId: string; column: number; width: number | null }
  | { type: 'insert-rows' | 'delete-rows' | 'insert-columns' | 'delete-columns'; sheetId: string; at: number; count: number }
  | { type: 'add-sheet'; sheetId: string; name: string; index: number; columnWidths?: Record<string, number>; merges?: string[] }
  | { type: 'rename-sheet'; sheetId: string; name: string }
  | { type: 'delete-sheet'; sheetId: string }
  | { type: 'move-sheet'; sheetId: string; index: number }
  | { type: 'merge-cells' | 'unmerge-cells'; sheetId: string; range: string }
  /** Puts a whole stored snapshot in place (a version restore). */
  | { type: 'replace-workbook'; snapshotKey: string }

export type StructuralCommand = Extract<InternalCommand, { type: 'insert-rows' | 'delete-rows' | 'insert-columns' | 'delete-columns' }>

/**
 * Commands that move or remove cells or rewrite formulas elsewhere (a rename changes every formula that
 * names the sheet), so that the stored cells are compared in full afterwards.
 */
export function isStructural(command: InternalCommand): boolean {
  switch (command.type) {
    case 'set-cells':
    case 'resize-column':
    case 'merge-cells':
    case 'unmerge-cells':
    case 'add-sheet':
      return false
    default:
      return true
  }
}

/** A short description for undo tooltips and the change log. */
export function describeCommands(commands: InternalCommand[], sheetName: (id: string) => string): string {
  if (commands.length !== 1) {
    const cells = commands.reduce((sum, command) => sum + (command.type === 'set-cells' ? command.cells.length : 0), 0)
    return cells > 0 ? `${commands.length} changes, ${cells} cells` : `${commands.length} changes`
  }
  const [command] = commands
  switch (command.type) {
    case 'set-cells':
      return command.cells.length === 1 ? `Edit ${sheetName(command.sheetId)}!${command.cells[0].address}` : `Edit ${command.cells.length} cells on ${sheetName(command.sheetId)}`
    case 'resize-column':
      return `Resize a column on ${sheetName(command.sheetId)}`
    case 'insert-rows':
      return `Insert ${plural(command.count, 'row')} on ${sheetName(command.sheetId)}`
    case 'delete-rows':
      return `Delete ${plural(command.count, 'row')} on ${sheetName(command.sheetId)}`
    case 'insert-columns':
      return `Insert ${plural(command.count, 'column')} on ${sheetName(command.sheetId)}`
    case 'delete-columns':
      return `Delete ${plural(command.count, 'column')} on ${sheetName(command.sheetId)}`
    case 'add-sheet':
      return `Add sheet ${command.name}`
    case 'rename-sheet':
      return `Rename sheet to ${command.name}`
    case 'delete-sheet':
      return `Delete sheet ${sheetName(command.sheetId)}`
    case 'move-sheet':
      return `Move sheet ${sheetName(command.sheetId)}`
    case 'merge-cells':
      return `Merge ${command.range}`
    case 'unmerge-cells':
      return `Unmerge ${command.range}`
    case 'replace-workbook':
      return 'Restore a version'
  }
}

export const plural = (count: number, noun: string) => `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`

/** A stored command as clients read it in the change log: its sheet named as it is called now. */
export function commandForClient(command: InternalCommand, sheetName: (id: string) => string): Record<string, unknown> {
  if (!('sheetId' in command)) return { ...command }
  const { sheetId, ...rest } = command
  return { ...rest, sheet: sheetName(sheetId) }
}
