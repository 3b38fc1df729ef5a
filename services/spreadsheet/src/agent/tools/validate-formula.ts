/**
 * validate_formula: a formula calculated as if it stood in a cell, without writing it: it is applied
 * to the open workbook, read and undone again under the same lock, so nothing else ever sees it.
 */
import { isCellError } from '@finsheet/formula'
import { cellText } from '../draft-session.js'
import { networkRisk } from '../safety.js'
import { resolveCell } from '../targets.js'
import { defineTool, echo, formatOf, meaningfulDisplay, modelValue } from '../tool-kit.js'

export const validateFormula = defineTool({
  name: 'validate_formula',
  writes: false,
  attempt: (args) => `Checking a formula for ${echo(args.address)} on ${args.sheet}`,
  run(args, context) {
    const { state, session } = context
    const cell = resolveCell(context, args.sheet, args.address)
    const formula = args.formula.trim().startsWith('=') ? args.formula.trim() : `=${args.formula.trim()}`
    const current = state.engine.getInputAt(cell.sheet.name, cell.row, cell.col)
    const outcome = session.probe([{ type: 'set-cells', sheet: cell.sheet.name, cells: [{ address: cell.address, input: formula }] }], () => {
      const value = state.engine.getValueAt(cell.sheet.name, cell.row, cell.col)
      return {
        value,
        input: state.engine.getInputAt(cell.sheet.name, cell.row, cell.col),
        display: meaningfulDisplay(value, formatOf(state, cell.sheet, cell.row, cell.col, cell.address)),
      }
    })
    const error = outcome.value !== null && typeof outcome.value === 'object' && isCellError(outcome.value) ? outcome.value : undefined
    const risk = networkRisk(formula)
    const where = cellText(cell.sheet.name, cell.row, cell.col)
    return {
      summary: `Checking a formula for ${where}`,
      content: {
        cell: where,
        ...(cell.via ? { via: cell.via } : {}),
        formula: outcome.input,
        value: modelValue(outcome.value),
        ...(outcome.display !== undefined ? { shown: outcome.display } : {}),
        valid: error === undefined,
        ...(error ? { error: error.message ? `${error.code}: ${error.message}` : `The formula calculates to ${error.code}` } : {}),
        currentContent: current === '' ? null : current,
        written: false,
        ...(risk ? { needsApproval: `${risk}; writing it holds the changeset for the user's approval` } : {}),
      },
    }
  },
})
