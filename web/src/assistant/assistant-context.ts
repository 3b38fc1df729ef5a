import type { AssistantContext, ChatHistoryEntry } from '@finsheet/contracts'
import { MAX_ASSISTANT_MESSAGE_LENGTH, MAX_CHAT_HISTORY } from '@finsheet/contracts'
import type { CellRange } from '../grid/address'
import { cellAddress, parseRangeAddress, rangeAddress } from '../grid/address'
import { selectionRange } from '../grid/selection'
import type { WorkspaceState } from '../spreadsheet/workspace'
import type { Message } from './conversation'

/** The selected cells' addresses sent with a request, at most (the service's limit). */
export const MAX_CONTEXT_CELLS = 1000

/** Where the user is, sent with every request: the sheet, the selection and the cell a formula would go into. */
export function contextOf(state: Pick<WorkspaceState, 'store' | 'sheet' | 'selection'>): AssistantContext {
  if (!state.store) return {}
  const range = selectionRange(state.selection)
  const selectedCells: string[] = []
  for (let row = range.startRow; row <= range.endRow && selectedCells.length < MAX_CONTEXT_CELLS; row++) {
    for (let col = range.startCol; col <= range.endCol && selectedCells.length < MAX_CONTEXT_CELLS; col++) selectedCells.push(cellAddress({ col, row }))
  }
  return { activeSheet: state.sheet, selectedCells, selectedRange: rangeAddress(range), targetCell: cellAddress(state.selection.active) }
}

/** The earlier turns sent with a message, oldest first: finished answers only, each cut to the service's limit. */
export function historyOf(messages: readonly Message[]): ChatHistoryEntry[] {
  const entries: ChatHistoryEntry[] = []
  for (const message of messages) {
    if (message.role === 'user') entries.push({ role: 'user', content: message.text.slice(0, MAX_ASSISTANT_MESSAGE_LENGTH) })
    else if (message.status === 'done' && message.route !== 'notice' && message.text.trim() !== '') entries.push({ role: 'assistant', content: message.text.slice(0, MAX_ASSISTANT_MESSAGE_LENGTH) })
  }
  return entries.slice(-MAX_CHAT_HISTORY)
}

/** "Selected: B4 = 1,200", "Selected: B4 = empty", "Selected: B2:C5 (8 cells)". */
export function selectionText(state: Pick<WorkspaceState, 'store' | 'sheet' | 'selection'>): string | null {
  const { store, sheet, selection } = state
  if (!store) return null
  const range = selectionRange(selection)
  const cells = (range.endRow - range.startRow + 1) * (range.endCol - range.startCol + 1)
  if (cells > 1) return `Selected: ${rangeAddress(range)} (${cells.toLocaleString('en-US')} cells)`
  const shown = store.getDisplay(sheet, selection.active)
  return `Selected: ${cellAddress(selection.active)} = ${shown === '' ? 'empty' : shown}`
}

/** A1 ranges ("B2", "B2:D9", "Sheet!B2") on their sheet; null for text that is not one. */
export function rangeOn(text: string, defaultSheet: string): { sheet: string; range: CellRange } | null {
  const bang = text.lastIndexOf('!')
  const sheet = bang >= 0 ? text.slice(0, bang).replace(/^'(.*)'$/, '$1').replace(/''/g, "'") : defaultSheet
  const range = parseRangeAddress(bang >= 0 ? text.slice(bang + 1) : text)
  return range ? { sheet, range } : null
}
