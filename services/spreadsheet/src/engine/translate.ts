/**
 * What the service refuses about a change as a whole before the workbook model applies it; the model
 * checks each command itself (sheets, addresses, inputs, formats, merges, structure).
 */
import { MAX_UPDATES_PER_CHANGE, type WorkbookCommand } from '@finsheet/contracts'
import { checkNameText } from '@finsheet/workbook'
import { spreadsheetErrors } from '../errors.js'

/** A workbook name as given, trimmed: 400 when empty, not valid text or holding control characters. */
export function checkWorkbookName(name: string): string {
  const trimmed = name.trim()
  if (trimmed === '') throw spreadsheetErrors.invalidWorkbookName()
  checkNameText(trimmed)
  return trimmed
}

/** How many cell writes a list of API commands holds. */
export function countUpdates(commands: readonly WorkbookCommand[]): number {
  let count = 0
  for (const command of commands) {
    if (command.type === 'set-cells') count += command.cells.length
    else if (command.type === 'batch') count += countUpdates(command.commands)
  }
  return count
}

/** Refuses a change too large to apply as one. */
export function checkChange(commands: readonly WorkbookCommand[]): void {
  const updates = countUpdates(commands)
  if (updates > MAX_UPDATES_PER_CHANGE) throw spreadsheetErrors.tooManyUpdates(updates)
}
