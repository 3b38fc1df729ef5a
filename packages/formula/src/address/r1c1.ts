/**
 * R1C1 reference text (as INDIRECT reads it with a1 = FALSE) turned into A1 text for a given cell.
 */
import { MAX_COL, MAX_ROW } from '../values.js'
import { columnToLetters } from './a1.js'

const R1C1_PART = /^R(\[-?\d+\]|\d+)?C(\[-?\d+\]|\d+)?$/i

/**
 * `R2C3` → `$C$2`, `R[1]C[-1]` seen from (row, col), `Sheet1!R1C1:R2C2`; undefined when the text is not
 * R1C1 or leaves the sheet.
 */
export function r1c1ToA1(text: string, row: number, col: number): string | undefined {
  const bang = text.lastIndexOf('!')
  const prefix = bang >= 0 ? text.slice(0, bang + 1) : ''
  const parts = text.slice(bang + 1).split(':')
  const converted: string[] = []
  for (const part of parts) {
    const match = R1C1_PART.exec(part)
    if (!match) return undefined
    const axis = (spec: string | undefined, base: number): [number, boolean] => {
      if (spec === undefined) return [base, false]
      if (spec.startsWith('[')) return [base + Number(spec.slice(1, -1)), false]
      return [Number(spec) - 1, true]
    }
    const [r, rowAbsolute] = axis(match[1], row)
    const [c, colAbsolute] = axis(match[2], col)
    if (r < 0 || c < 0 || r > MAX_ROW || c > MAX_COL) return undefined
    converted.push((colAbsolute ? '$' : '') + columnToLetters(c) + (rowAbsolute ? '$' : '') + (r + 1))
  }
  return prefix + converted.join(':')
}
