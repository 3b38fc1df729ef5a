/**
 * The border choices of the toolbar's Borders menu, as Excel offers them, each turned into the
 * format-cells commands that draw it on a selected block: every edge of every cell, the block's
 * outline, one of its sides, a thick bottom, or none.
 */
import type { BorderEdge, StylePatch, WorkbookCommand } from '@finsheet/contracts'
import type { CellRange } from '../grid/address'
import { rangeAddress } from '../grid/address'

export type BorderChoice = 'all' | 'outside' | 'top' | 'bottom' | 'left' | 'right' | 'thick-bottom' | 'none'

export const BORDER_CHOICES: readonly { choice: BorderChoice; label: string }[] = [
  { choice: 'all', label: 'All borders' },
  { choice: 'outside', label: 'Outside borders' },
  { choice: 'top', label: 'Top border' },
  { choice: 'bottom', label: 'Bottom border' },
  { choice: 'left', label: 'Left border' },
  { choice: 'right', label: 'Right border' },
  { choice: 'thick-bottom', label: 'Thick bottom border' },
  { choice: 'none', label: 'No border' },
]

const THIN: BorderEdge = { line: 'thin' }

/** The command that draws `choice` on `range` of `sheet` (one undoable change). */
export function borderCommand(sheet: string, range: CellRange, choice: BorderChoice): WorkbookCommand {
  const row = (r: number): CellRange => ({ ...range, startRow: r, endRow: r })
  const column = (c: number): CellRange => ({ ...range, startCol: c, endCol: c })
  const format = (block: CellRange, style: StylePatch): WorkbookCommand => ({ type: 'format-cells', sheet, ranges: [rangeAddress(block)], style })
  switch (choice) {
    case 'all':
      return format(range, { borders: { top: THIN, right: THIN, bottom: THIN, left: THIN } })
    case 'none':
      return format(range, { borders: null })
    case 'top':
      return format(row(range.startRow), { borders: { top: THIN } })
    case 'bottom':
      return format(row(range.endRow), { borders: { bottom: THIN } })
    case 'thick-bottom':
      return format(row(range.endRow), { borders: { bottom: { line: 'medium' } } })
    case 'left':
      return format(column(range.startCol), { borders: { left: THIN } })
    case 'right':
      return format(column(range.endCol), { borders: { right: THIN } })
    case 'outside':
      return {
        type: 'batch',
        label: 'Outside borders',
        commands: [
          format(row(range.startRow), { borders: { top: THIN } }),
          format(row(range.endRow), { borders: { bottom: THIN } }),
          format(column(range.startCol), { borders: { left: THIN } }),
          format(column(range.endCol), { borders: { right: THIN } }),
        ] as Extract<WorkbookCommand, { type: 'format-cells' }>[],
      }
  }
}
