/**
 * Commands as people read them (undo tooltips, the change log, version summaries) and as they are
 * handed between the two ways of naming sheets.
 */
import type { WorkbookCommand } from '@finsheet/contracts'

export const plural = (count: number, noun: string) => `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`

/** A short description of a change. `sheetName` turns a command's sheet reference into the name shown. */
export function describeCommands(commands: readonly WorkbookCommand[], sheetName: (ref: string) => string = (ref) => ref): string {
  if (commands.length !== 1) {
    const cells = commands.reduce((sum, command) => sum + (command.type === 'set-cells' ? command.cells.length : 0), 0)
    return cells > 0 ? `${commands.length} changes, ${cells} cells` : `${commands.length} changes`
  }
  const [command] = commands
  switch (command.type) {
    case 'set-cells':
      return command.cells.length === 1 ? `Edit ${sheetName(command.sheet)}!${command.cells[0].address}` : `Edit ${command.cells.length} cells on ${sheetName(command.sheet)}`
    case 'format-cells':
      return command.format !== undefined ? `Number format on ${sheetName(command.sheet)}` : `Formatting on ${sheetName(command.sheet)}`
    case 'resize-column':
      return `Resize a column on ${sheetName(command.sheet)}`
    case 'set-sheet-view':
      return `Layout of ${sheetName(command.sheet)}`
    case 'set-data-validation':
      return `Data validation on ${sheetName(command.sheet)}`
    case 'set-filter':
      return command.filter === null ? `Remove filter on ${sheetName(command.sheet)}` : `Filter ${command.filter.range} on ${sheetName(command.sheet)}`
    case 'set-conditional-formats':
      return `Conditional formatting on ${sheetName(command.sheet)}`
    case 'insert-rows':
      return `Insert ${plural(command.count, 'row')} on ${sheetName(command.sheet)}`
    case 'delete-rows':
      return `Delete ${plural(command.count, 'row')} on ${sheetName(command.sheet)}`
    case 'insert-columns':
      return `Insert ${plural(command.count, 'column')} on ${sheetName(command.sheet)}`
    case 'delete-columns':
      return `Delete ${plural(command.count, 'column')} on ${sheetName(command.sheet)}`
    case 'add-sheet':
      return `Add sheet ${command.name}`
    case 'rename-sheet':
      return `Rename sheet to ${command.to}`
    case 'delete-sheet':
      return `Delete sheet ${sheetName(command.name)}`
    case 'move-sheet':
      return `Move sheet ${sheetName(command.name)}`
    case 'merge-cells':
      return `Merge ${command.range}`
    case 'unmerge-cells':
      return `Unmerge ${command.range}`
    case 'move-cells':
      return `Move ${command.range} to ${command.targetSheet === undefined || command.targetSheet === command.sheet ? '' : `${sheetName(command.targetSheet)}!`}${command.target}`
    case 'define-name':
      return command.formula === null ? `Delete name ${command.name}` : `Define name ${command.name}`
    case 'set-calculation':
      return command.iterate ? 'Turn on iterative calculation' : 'Turn off iterative calculation'
    case 'set-chart':
      return command.chart === null ? `Delete a chart on ${sheetName(command.sheet)}` : `Chart on ${sheetName(command.sheet)}`
    case 'batch':
      return command.label
  }
}

/** The same command with every sheet reference it holds passed through `map` (names to ids, or back). */
export function mapSheetRefs(command: WorkbookCommand, map: (ref: string) => string): WorkbookCommand {
  switch (command.type) {
    case 'add-sheet':
    case 'set-calculation':
      return command
    case 'rename-sheet':
      return { ...command, from: map(command.from) }
    case 'delete-sheet':
    case 'move-sheet':
      return { ...command, name: map(command.name) }
    case 'define-name':
      return command.sheet === undefined ? command : { ...command, sheet: map(command.sheet) }
    case 'move-cells':
      return { ...command, sheet: map(command.sheet), ...(command.targetSheet === undefined ? {} : { targetSheet: map(command.targetSheet) }) }
    case 'batch':
      return { ...command, commands: command.commands.map((inner) => mapSheetRefs(inner, map) as typeof inner) }
    default:
      return { ...command, sheet: map(command.sheet) }
  }
}

/** Whether a command may move cells or rewrite formulas elsewhere, so that cells are compared in full afterwards. */
export function mayRestructure(command: WorkbookCommand): boolean {
  switch (command.type) {
    case 'insert-rows':
    case 'delete-rows':
    case 'insert-columns':
    case 'delete-columns':
    case 'rename-sheet':
    case 'delete-sheet':
    case 'move-sheet':
    case 'add-sheet':
    case 'move-cells':
    case 'set-calculation':
      return true
    case 'batch':
      return command.commands.some(mayRestructure)
    default:
      return false
  }
}
