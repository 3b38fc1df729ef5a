import type { CellEdit, CellInput } from '@finsheet/contracts'
import { parseCellInput } from '@finsheet/formula'
import type { CellRange } from '../grid/address'
import { cellAddress } from '../grid/address'
import { pasteTargetRange, planPaste } from '../grid/clipboard'
import { translateFormula } from '../grid/formula-editing'
import type { CellStyle } from '../grid/types'
import type { EngineValue } from '../workbook/calc-engine'
import { isEngineError } from '../workbook/calc-engine'

/** What Paste Special writes of the copied cells. */
export const PASTE_PARTS = ['all', 'values', 'formulas', 'formats'] as const
export type PastePart = (typeof PASTE_PARTS)[number]

export const PASTE_PART_LABELS: Record<PastePart, string> = { all: 'All', values: 'Values', formulas: 'Formulas', formats: 'Formats' }

export interface PasteSpecialOptions {
  part: PastePart
  /** rows become columns and columns rows */
  transpose: boolean
}

/** The copied block, each array row by row as it was copied. */
export interface CopiedBlock {
  range: CellRange
  inputs: readonly (readonly string[])[]
  /** the calculated values, for pasting values */
  values: readonly (readonly EngineValue[])[]
  styles: readonly (readonly (CellStyle | undefined)[])[]
  formats: readonly (readonly (string | undefined)[])[]
}

/**
 * The input that writes a calculated value back as itself: numbers and booleans as they are, errors as
 * their code, and text that would read as something else (a number, a formula) behind an apostrophe.
 */
export function valueInput(value: EngineValue): CellInput {
  if (value === null) return ''
  if (typeof value === 'number' || typeof value === 'boolean') return value
  if (isEngineError(value)) return value.code
  const read = parseCellInput(value)
  return read.kind === 'value' && read.value === value ? value : `'${value}`
}

/**
 * The cells Paste Special writes onto `target` (the selection) and the range they cover: as a normal
 * paste (tiling a target that is a whole multiple of the block), the block turned a quarter when
 * transposed, with only the part asked for. Formulas move their relative references by how far each
 * cell lands from where it was copied, as a normal paste does.
 */
export function planPasteSpecial(
  block: CopiedBlock,
  target: CellRange,
  options: PasteSpecialOptions,
  bounds: { columnCount: number; rowCount: number },
): { cells: CellEdit[]; range: CellRange } {
  const height = block.inputs.length
  const width = height > 0 ? block.inputs[0].length : 0
  if (height === 0 || width === 0) return { cells: [], range: target }
  // the block as it lands: transposed, cell (r, c) of it is copied cell (c, r)
  const [landedHeight, landedWidth] = options.transpose ? [width, height] : [height, width]
  const range = pasteTargetRange(landedHeight, landedWidth, target, bounds)
  const cells: CellEdit[] = []
  for (const cell of planPaste(landedHeight, landedWidth, null, range)) {
    const sourceRow = options.transpose ? cell.sourceCol : cell.sourceRow
    const sourceCol = options.transpose ? cell.sourceRow : cell.sourceCol
    const edit: CellEdit = { address: cellAddress(cell.pos) }
    if (options.part === 'all' || options.part === 'formulas') {
      const input = block.inputs[sourceRow][sourceCol]
      const rows = cell.pos.row - (block.range.startRow + sourceRow)
      const cols = cell.pos.col - (block.range.startCol + sourceCol)
      edit.input = input.startsWith('=') ? translateFormula(input, rows, cols) : input
    } else if (options.part === 'values') {
      edit.input = valueInput(block.values[sourceRow][sourceCol])
    }
    if (options.part === 'all' || options.part === 'formats') {
      edit.style = block.styles[sourceRow][sourceCol] ?? null
      edit.format = block.formats[sourceRow][sourceCol] ?? null
    }
    cells.push(edit)
  }
  return { cells, range }
}
