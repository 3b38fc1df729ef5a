/**
 * A print job over the open workbook: which sheets print (this sheet, chosen sheets or all shown
 * sheets, as Excel's Print dialog offers), each with its own page setup, laid out into pages.
 */
import type { PageSetup } from '@finsheet/contracts'
import type { CellRange } from '../grid/address'
import type { GridDataSource } from '../grid/types'
import type { WorkbookStore } from '../workbook/workbook-store'
import { layoutPages, type PrintedSheet, type PrintPage } from './print-layout'

/** Which sheets a print or a PDF takes. */
export type SheetChoice = { kind: 'active' } | { kind: 'all' } | { kind: 'chosen'; sheets: string[] }

export const NOTHING_TO_PRINT = 'There is nothing to print: the chosen sheets are empty.'

/** The cells a sheet uses: its inputs and its merges; null for an empty sheet. */
function usedRange(store: WorkbookStore, name: string): CellRange | null {
  const view = store.sheet(name)
  if (!view) return null
  const last = store.lastUsedCell(name)
  let range: CellRange | null = last.row === 0 && last.col === 0 && !store.isFilled(name, last) ? null : { startCol: 0, startRow: 0, endCol: last.col, endRow: last.row }
  for (const merge of view.merges.ranges) {
    range = range
      ? { startCol: 0, startRow: 0, endCol: Math.max(range.endCol, merge.endCol), endRow: Math.max(range.endRow, merge.endRow) }
      : { startCol: 0, startRow: 0, endCol: merge.endCol, endRow: merge.endRow }
  }
  return range
}

/** The names of the sheets a choice takes, in the workbook's order; hidden sheets print only when chosen by name. */
export function chosenSheets(store: WorkbookStore, activeSheet: string, choice: SheetChoice): string[] {
  if (choice.kind === 'active') return [activeSheet]
  if (choice.kind === 'all') return store.visibleSheetNames
  return store.sheetNames.filter((name) => choice.sheets.includes(name))
}

const NO_PAGE_SETUP: PageSetup = Object.freeze({})

/** A sheet's page setup; the same empty one for every sheet without. */
export function pageSetupOf(store: WorkbookStore, sheet: string): PageSetup {
  return store.sheet(sheet)?.layout?.pageSetup ?? NO_PAGE_SETUP
}

export interface PrintJob {
  pages: PrintPage[]
  sources: Map<string, GridDataSource>
}

export function printJob(store: WorkbookStore, activeSheet: string, choice: SheetChoice): PrintJob {
  const sheets: PrintedSheet[] = []
  const sources = new Map<string, GridDataSource>()
  for (const name of chosenSheets(store, activeSheet, choice)) {
    const source = store.dataSource(name)
    if (!source) continue
    sources.set(name, source)
    sheets.push({ name, source, setup: pageSetupOf(store, name), used: usedRange(store, name) })
  }
  return { pages: layoutPages(sheets), sources }
}
