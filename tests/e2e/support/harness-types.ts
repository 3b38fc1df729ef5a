/// <reference lib="dom" />
/** What the grid harness page (web/grid-harness.html) exposes to the tests and the benchmark. */
export interface HarnessDrawStats {
  duration: number
  cellsDrawn: number
  firstRow: number
  lastRow: number
}

export interface HarnessWorkbook {
  getInput(sheet: string, pos: { col: number; row: number }): string
  getDisplay(sheet: string, pos: { col: number; row: number }): string
  getStyle(sheet: string, pos: { col: number; row: number }): Record<string, unknown> | undefined
  getFormat(sheet: string, pos: { col: number; row: number }): string | undefined
  sheetNames: string[]
}

export interface HarnessHandle {
  workspace: {
    state: { store: HarnessWorkbook | null; sheet: string; selection: { active: { col: number; row: number } } }
  }
  draws: HarnessDrawStats[]
  firstCellPaint: number | null
  allLoaded: number | null
}

declare global {
  interface Window {
    harness: HarnessHandle
  }
}
