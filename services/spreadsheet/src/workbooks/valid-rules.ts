/**
 * Validation rules of a workbook arriving whole (an import, a new workbook): each rule is kept as the
 * model would keep it, and a rule it would refuse is left out rather than refusing the file, as
 * Excel drops validation it cannot read.
 */
import type { DataValidationRule } from '@finsheet/contracts'
import { applyDataValidation, CommandError } from '@finsheet/workbook/model'

export function validRules(rules: readonly DataValidationRule[] | undefined): DataValidationRule[] | undefined {
  let kept: DataValidationRule[] | undefined
  for (const rule of rules ?? []) {
    try {
      kept = applyDataValidation(kept, { clear: [], rules: [rule] }).rules
    } catch (error) {
      if (!(error instanceof CommandError)) throw error
    }
  }
  return kept
}
