import { isActionCommand, isModelCreationCommand, isSpreadsheetCommand } from '@finsheet/contracts'
import type { AssistantMode } from './texts'

/** Where a message goes. */
export type SendRoute =
  /** plain chat: /api/ai/chat */
  | 'chat'
  /** the spreadsheet-action path on the open workbook: /api/spreadsheet/process-action */
  | 'action'
  /** the action path without a workbook: a new financial model */
  | 'create_model'

/**
 * Chat mode only converses. In Agent mode a message that asks for a new financial model goes to the
 * action path without a workbook; one with an action word (create, add, update, calculate, …) or that
 * opens with a command verb (set, delete, move, freeze, sort, …) goes to the action path on the open
 * workbook; anything else is answered as chat.
 */
export function routeOf(mode: AssistantMode, text: string): SendRoute {
  if (mode === 'chat') return 'chat'
  if (isModelCreationCommand(text)) return 'create_model'
  if (isActionCommand(text) || isSpreadsheetCommand(text)) return 'action'
  return 'chat'
}

/** Words that say the user wants a formula or a function: the answer then carries formula cards. */
const FORMULA_INTENT = /\b(formulas?|functions?|how (do|can|to|would|should) (i|you|we) (calculate|compute|work out|find)|which function|what function)\b|^=/i

export function asksForFormula(text: string): boolean {
  return FORMULA_INTENT.test(text)
}

/** The suggested prompts that start with what follows '/', or all of them after '/' alone. */
export function matchingPrompts(input: string, prompts: readonly string[]): string[] {
  if (!input.startsWith('/')) return []
  const typed = input.slice(1).trim().toLowerCase()
  if (typed === '') return [...prompts]
  return prompts.filter((prompt) => prompt.toLowerCase().includes(typed))
}
