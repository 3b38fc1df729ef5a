/** The plan for each kind of command. */
import type { PlannerCommand } from '../command-language.js'
import { readAs } from '../answers.js'
import { PlanStop, type PlanAnswer, type PlanContext, type Step } from '../plan-kit.js'
import { planAudit, planExplain, planRead, planSensitivity } from './analysis-plans.js'
import { planAdjust, planAggregate, planClear, planFill, planGrow, planMove, planSet, planSort, planSwap, planTotalRow } from './edit-plans.js'
import { planDerive, planGrowthRow, planProject } from './derive-plans.js'
import { planLayout } from './layout-plans.js'
import { planExtend } from './period-plans.js'
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

// eslint-disable-next-line require-yield
function* undoAnswer(): Step<PlanAnswer> {
  return { text: 'I change a workbook only by commands, and undoing is not one: use Undo on my message (it reverts everything I changed for it at once) or press Ctrl+Z in the grid. I changed nothing.' }
}

export function planFor(command: PlannerCommand, context: PlanContext): Step<PlanAnswer> {
  switch (command.type) {
    case 'set':
      return planSet(command, context)
    case 'adjust':
      return planAdjust(command, context)
    case 'clear':
      return planClear(command, context)
    case 'move':
      return planMove(command, context)
    case 'swap':
      return planSwap(command, context)
    case 'layout':
      return planLayout(command, context)
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
    case 'derive':
      return planDerive(command, context)
    case 'project':
      return planProject(command, context)
    case 'growth_row':
      return planGrowthRow(command, context)
    case 'extend':
      return planExtend(command, context)
    case 'undo':
      return undoAnswer()
    case 'read':
      return planRead(command, context)
  }
}

/** Commands that move rows or columns, so that a later command's row or column numbers name other cells. */
const moves = (command: PlannerCommand) => command.type === 'insert' || command.type === 'delete' || command.type === 'extend'

/**
 * The plan for a message of several commands: each in turn, on the workbook as the ones before left
 * it, their answers together. Where one stops, the ones after it are not run and the answer says so.
 * Two row or column insertions or deletions are refused, writing nothing: the second would name rows
 * or columns the first has moved ("delete rows 3 and 5" would take the row that was 6).
 */
export function* planSequence(commands: readonly PlannerCommand[], context: PlanContext): Step<PlanAnswer> {
  if (commands.length === 1) return yield* planFor(commands[0], context)
  if (commands.filter(moves).length > 1) {
    return { text: `I read that as ${commands.length} commands, of which ${commands.filter(moves).length} insert or delete rows or columns. Each of those moves the rows or columns the next one names, so I make them one at a time: send them one by one. I changed nothing.` }
  }
  const answers: string[] = []
  for (let index = 0; index < commands.length; index++) {
    try {
      answers.push((yield* planFor(commands[index], context)).text)
    } catch (error) {
      if (!(error instanceof PlanStop) || index === 0) throw error
      const skipped = commands.length - index - 1
      answers.push(`${error.message}${skipped > 0 ? `\n\nI stopped there: the ${skipped === 1 ? 'last command was' : `last ${skipped} commands were`} not carried out.` : ''}`)
      break
    }
  }
  return { text: answers.join('\n\n') }
}
