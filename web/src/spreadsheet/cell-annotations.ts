import type { CellNote, SheetViewState, WorkbookCommand } from '@finsheet/contracts'
import type { CellPosition } from '../grid/address'
import { cellAddress } from '../grid/address'

/**
 * Notes and links on cells, as the spreadsheet screen reads and writes them: both are kept in the
 * sheet's view by address and written with `set-sheet-view`, so each change is one undoable edit.
 */

/** Web and mail addresses, and places in the workbook (`#Sheet1!A1`): what a link may open. */
const OPENABLE = /^(?:https?:\/\/|mailto:|#)/i

/** The address `=HYPERLINK("https://…", …)` goes to, when its first argument is written out. */
export function hyperlinkFormulaTarget(input: string): string | undefined {
  const match = /^=\s*HYPERLINK\(\s*"((?:[^"]|"")*)"/i.exec(input)
  return match ? match[1].replace(/""/g, '"') : undefined
}

/** Where a cell's link goes: its own link, else the target of its HYPERLINK formula; only addresses a browser may open. */
export function linkAt(layout: SheetViewState | undefined, input: string, pos: CellPosition): string | undefined {
  const url = layout?.links?.[cellAddress(pos)] ?? hyperlinkFormulaTarget(input)
  return url !== undefined && OPENABLE.test(url.trim()) ? url.trim() : undefined
}

/** Whether the grid draws the cell as a link. */
export function isLinkCell(layout: SheetViewState | undefined, input: string, row: number, col: number): boolean {
  if (layout?.links === undefined && !input.startsWith('=')) return false
  return linkAt(layout, input, { row, col }) !== undefined
}

export function noteAt(layout: SheetViewState | undefined, pos: CellPosition): CellNote | undefined {
  return layout?.notes?.[cellAddress(pos)]
}

/** The command that writes (or, with empty text, removes) a cell's note. */
export function noteCommand(sheet: string, pos: CellPosition, text: string, author?: string): WorkbookCommand {
  const address = cellAddress(pos)
  return { type: 'set-sheet-view', sheet, notes: [{ address, note: text.trim() === '' ? null : { text, ...(author ? { author } : {}) } }] }
}

/**
 * A typed link as it is kept: a bare web address gets https://, an e-mail address mailto:, a cell
 * reference such as Sheet2!A1 becomes a place in the workbook.
 */
export function normalizeLink(text: string): string {
  const typed = text.trim()
  if (typed === '' || OPENABLE.test(typed)) return typed
  if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(typed)) return `mailto:${typed}`
  if (/^(?:'[^']+'|[\w.]+)!\$?[A-Za-z]{1,3}\$?\d+$/.test(typed)) return `#${typed}`
  return `https://${typed}`
}

/** The command that writes (or, with an empty address, removes) a cell's link. */
export function linkCommand(sheet: string, pos: CellPosition, text: string): WorkbookCommand {
  const url = normalizeLink(text)
  return { type: 'set-sheet-view', sheet, links: [{ address: cellAddress(pos), url: url === '' ? null : url }] }
}

/** A place in the workbook a link names ('#Sheet 2'!B3 → sheet and cell); undefined for other links. */
export function workbookPlace(url: string): { sheet: string; address: string } | undefined {
  const match = /^#(?:'((?:[^']|'')+)'|([^!]+))!\$?([A-Za-z]{1,3})\$?(\d+)/.exec(url)
  if (!match) return undefined
  return { sheet: (match[1] ?? match[2]).replace(/''/g, "'"), address: `${match[3].toUpperCase()}${match[4]}` }
}

/** Opens a link: a web or mail address in a new tab that cannot reach back into the app; a place in the workbook by `goTo`. */
export function openLink(url: string, goTo: (place: { sheet: string; address: string }) => void, open: (url: string) => void = (target) => window.open(target, '_blank', 'noopener,noreferrer')): void {
  const place = workbookPlace(url)
  if (place) goTo(place)
  else if (!url.startsWith('#')) open(url)
}
