/** The plan for each kind of command. */
import type { PlannerCommand } from '../command-language.js'
import { readAs } from '../answers.js'
import type { PlanAnswer, PlanContext, Step } from '../plan-kit.js'
import { planAudit, planExplain, planSensitivity } from './analysis-plans.js'
import { planAdjust, planAggregate, planClear, planFill, planGrow, planSet, planSort, planTotalRow } from './edit-plans.js'
import { planChart, planFormat } from './format-plans.js'
import { planAddSheet, planDelete, planDeleteSheet, planInsert, planRenameSheet } from './structure-plans.js'

// eslint-disable-next-line require-yield
function* modelAnswer(command: Extract<PlannerCommand, { type: 'create_model' }>): Step<PlanAnswer> {
  const { modelType, companyName, parameters } = command.request
  const details = [
    parameters.projectionYears !== undefined ? `${parameters.projectionYears} projection years` : undefined,
    parameters.terminalGrowthRate !== undefined ? `terminal growth ${parameters.terminalGrowthRate}%` : undefined,
  ].filter(Boolean)
  return {
    text: readAs(
      `create a ${modelType} model for ${companyName}${details.length > 0 ? ` (${details.join(', ')})` : ''}`,
      'A new model is a new workbook built by the model generator, not an edit of this one, so nothing here was changed. Send the same command in Agent mode to have it created.',
    ),
  }
}

export function planFor(command: PlannerCommand, context: PlanContext): Step<PlanAnswer> {
  switch (command.type) {
    case 'set':
      return planSet(command, context)
    case 'adjust':
      return planAdjust(command, context)
    case 'clear':
      return planClear(command, context)
    case 'fill':
      return planFill(command, context)
    case 'aggregate':
      return planAggregate(command, context)
    case 'total_row':
      return planTotalRow(command, context)
    case 'grow':
      return planGrow(command, context)
    case 'sort':
      return planSort(command, context)
    case 'insert':
      return planInsert(command, context)
    case 'delete':
      return planDelete(command, context)
    case 'add_sheet':
      return planAddSheet(command)
    case 'rename_sheet':
      return planRenameSheet(command, context)
    case 'delete_sheet':
      return planDeleteSheet(command, context)
    case 'format':
      return planFormat(command, context)
    case 'chart':
      return planChart(command, context)
    case 'sensitivity':
      return planSensitivity(command, context)
    case 'explain':
      return planExplain(command, context)
    case 'audit':
      return planAudit(context)
    case 'create_model':
      return modelAnswer(command)
  }
}
