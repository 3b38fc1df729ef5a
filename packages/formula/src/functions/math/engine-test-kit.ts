/**
 * Evaluating formulas through a real engine, for the function tests of the math, statistical,
 * logical, information and text folders. Values come back as JSON-like values: errors as their code.
 */
import { Engine } from '../../engine/engine.js'
import type { CellInputValue } from '../../engine/engine.js'
import { CellError } from '../../values.js'
import type { Scalar } from '../../values.js'

export type Plain = number | string | boolean | null

/** The cell formulas are put in, far to the right of any test data. */
const FORMULA_CELL = 'ZZ1'

function plain(value: Scalar): Plain {
  return value instanceof CellError ? value.code : value
}

/** An engine with one sheet, 'Sheet1', holding the given inputs. */
export function sheetWith(cells: Record<string, CellInputValue> = {}): Engine {
  const engine = new Engine()
  engine.addSheet('Sheet1')
  engine.setCells(Object.entries(cells).map(([address, input]) => ({ sheet: 'Sheet1', address, input })))
  return engine
}

/** The value of a formula (with or without '=') over the given cells. */
export function calc(formula: string, cells: Record<string, CellInputValue> = {}): Plain {
  const engine = sheetWith(cells)
  engine.setCell('Sheet1', FORMULA_CELL, formula.startsWith('=') ? formula : '=' + formula)
  return plain(engine.getValue('Sheet1', FORMULA_CELL))
}

/** The values a formula spills into a block of `height` × `width` cells from its own cell. */
export function calcArray(
  formula: string,
  height: number,
  width: number,
  cells: Record<string, CellInputValue> = {},
): Plain[][] {
  const engine = sheetWith(cells)
  engine.setCell('Sheet1', 'AA1', formula.startsWith('=') ? formula : '=' + formula)
  const end = String.fromCharCode(65 + width - 1)
  return engine.getRangeValues('Sheet1', `AA1:A${end}${height}`).map((row) => row.map(plain))
}

/** Fills a column from `start` (such as 'A1') with values, as cell inputs. */
export function column(start: string, values: readonly CellInputValue[]): Record<string, CellInputValue> {
  const match = /^([A-Z]+)(\d+)$/.exec(start) as RegExpExecArray
  const cells: Record<string, CellInputValue> = {}
  values.forEach((value, index) => {
    cells[`${match[1]}${Number(match[2]) + index}`] = value
  })
  return cells
}
