import type { CellPosition } from '../grid/address'
import { parseCellAddress, parseRangeAddress, rangeContains } from '../grid/address'
import type { WorkbookCommand } from '@finsheet/contracts'

/** A cell of a workbook: its sheet's name and its position. */
export interface SheetCell extends CellPosition {
  sheet: string
}

/**
 * Follows a cell through commands applied after a moment: where the cell named then is now (rows and
 * columns inserted or deleted before it, its sheet renamed), or null when the commands deleted it
 * (its row, its column or its sheet), and whether any of them wrote it since (its content, style or
 * format), which makes what was said about it then out of date.
 *
 * The browser applies the user's edits at once and sends them in order; an answer of the server
 * speaks of the workbook as it was before the edits still on their way, so its cells are followed
 * through those edits before they are shown.
 */
export class CellFollower {
  private readonly steps: Step[]

  constructor(commands: readonly WorkbookCommand[]) {
    this.steps = commands.flatMap(flatten).map(toStep)
  }

  get isEmpty(): boolean {
    return this.steps.length === 0
  }

  /** Whether the commands move cells or rename or remove sheets, which rewrites formulas' references. */
  get restructures(): boolean {
    return this.steps.some((step) => step.restructures)
  }

  follow(cell: SheetCell): { cell: SheetCell | null; written: boolean } {
    let current: SheetCell | null = { ...cell }
    let written = false
    for (const step of this.steps) {
      if (!written && step.writes(current)) written = true
      current = step.move(current)
      if (current === null) return { cell: null, written }
    }
    return { cell: current, written }
  }
}

interface Step {
  writes(cell: SheetCell): boolean
  move(cell: SheetCell): SheetCell | null
  restructures?: boolean
}

const stays = (cell: SheetCell) => cell

function flatten(command: WorkbookCommand): WorkbookCommand[] {
  return command.type === 'batch' ? command.commands.flatMap(flatten) : [command]
}

function toStep(command: WorkbookCommand): Step {
  switch (command.type) {
    case 'set-cells': {
      const written = new Set<string>()
      for (const change of command.cells) {
        const pos = parseCellAddress(change.address)
        if (pos) written.add(`${pos.col},${pos.row}`)
      }
      return { writes: (cell) => cell.sheet === command.sheet && written.has(`${cell.col},${cell.row}`), move: stays }
    }
    case 'format-cells': {
      const ranges = command.ranges.map((text) => parseRangeAddress(text)).filter((range) => range !== null)
      return {
        writes: (cell) => cell.sheet === command.sheet && ranges.some((range) => rangeContains(range, cell)),
        move: stays,
      }
    }
    case 'merge-cells': {
      // a merge clears every cell of the range but its top-left one
      const range = parseRangeAddress(command.range)
      return { writes: (cell) => range !== null && cell.sheet === command.sheet && rangeContains(range, cell), move: stays }
    }
    case 'insert-rows':
    case 'insert-columns':
    case 'delete-rows':
    case 'delete-columns': {
      const rows = command.type.endsWith('rows')
      const inserting = command.type.startsWith('insert')
      return {
        writes: () => false,
        restructures: true,
        move: (cell) => {
          if (cell.sheet !== command.sheet) return cell
          const index = rows ? cell.row : cell.col
          let moved = index
          if (inserting) {
            if (index >= command.at) moved = index + command.count
          } else if (index >= command.at + command.count) moved = index - command.count
          else if (index >= command.at) return null
          return rows ? { ...cell, row: moved } : { ...cell, col: moved }
        },
      }
    }
    case 'move-cells': {
      // a cut cell goes with its block; the cells it lands on are written
      const from = parseRangeAddress(command.range)
      const anchor = parseCellAddress(command.target)
      const targetSheet = command.targetSheet ?? command.sheet
      if (!from || !anchor) return { writes: () => false, restructures: true, move: stays }
      const to = { startRow: anchor.row, startCol: anchor.col, endRow: anchor.row + from.endRow - from.startRow, endCol: anchor.col + from.endCol - from.startCol }
      return {
        writes: (cell) => (cell.sheet === command.sheet && rangeContains(from, cell)) || (cell.sheet === targetSheet && rangeContains(to, cell)),
        restructures: true,
        move: (cell) =>
          cell.sheet === command.sheet && rangeContains(from, cell)
            ? { sheet: targetSheet, row: cell.row + to.startRow - from.startRow, col: cell.col + to.startCol - from.startCol }
            : cell,
      }
    }
    case 'rename-sheet':
      return { writes: () => false, restructures: true, move: (cell) => (cell.sheet === command.from ? { ...cell, sheet: command.to } : cell) }
    case 'delete-sheet':
      return { writes: () => false, restructures: true, move: (cell) => (cell.sheet === command.name ? null : cell) }
    case 'add-sheet':
      // a sheet added since has no cells the answer could speak of
      return { writes: (cell) => cell.sheet === command.name, move: stays }
    case 'resize-column':
    case 'set-sheet-view':
    case 'set-data-validation':
    case 'set-filter':
    case 'set-conditional-formats':
    case 'move-sheet':
    case 'unmerge-cells':
    case 'define-name':
    case 'set-calculation':
    case 'set-chart':
    case 'batch':
      return { writes: () => false, move: stays }
  }
}
