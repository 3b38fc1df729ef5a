import type { FormulaResult } from '@finsheet/contracts'
import { Engine } from '@finsheet/formula'
import { formulaResultOf } from '@finsheet/workbook'

let scratch: Engine | undefined

/**
 * A formula calculated by the engine on an empty sheet: the result a suggestion shows when there is
 * no workbook to calculate it against (references read empty cells).
 */
export function evaluateOnEmptySheet(formula: string, address = 'A1'): FormulaResult {
  if (!scratch) {
    scratch = new Engine()
    scratch.addSheet('Sheet1')
  }
  return formulaResultOf(scratch.evaluateFormula('Sheet1', address, formula.startsWith('=') ? formula : `=${formula}`))
}

/** Whether a formula reads cells (then its result on an empty sheet says little). */
export function readsCells(formula: string): boolean {
  const withoutText = formula.replace(/"[^"]*"/g, '""')
  return /(?<![A-Za-z0-9_.])\$?[A-Za-z]{1,3}\$?[0-9]+(?![A-Za-z0-9_(])/.test(withoutText) || /![A-Za-z$]/.test(withoutText)
}
