import type { InputsResponse, WindowResponse } from '@finsheet/contracts'
import { MAX_WINDOW_ROWS } from '@finsheet/contracts'
import type { CellUpdate } from '@finsheet/formula'
import { chartRecordOf, storedIterationOptions, WorkbookModel, type CellSource } from '@finsheet/workbook/model'
import type { CellStyle } from '../grid/types'
import { ROW_HEIGHT } from '../grid/geometry'
import { yieldToBrowser } from './row-streaming'
import type { ServerWorkbook } from './server-sync'
import { serverWorkbookOf } from './server-sync'
import type { ServerCellChange, SheetSnapshot } from './workbook-store'
import { sheetRecordsOf, WorkbookStore } from './workbook-store'

/**
 * A workbook of more cells than this opens by its first screen: the rows in view, with the values
 * the service stored, paint at once while the whole workbook loads behind them.
 */
export const STREAMED_OPEN_CELLS = 20_000

/** The service stores cells in bands of this many rows; a first screen reads whole bands. */
const BAND_ROWS = 32

/** Set to 'off' in localStorage, every workbook opens whole before it paints (to compare the two). */
export const STREAMED_OPEN_SWITCH = 'finsheet:streamedOpen'

/** Whether a workbook of `cells` cells opens by its first screen. */
export function opensStreamed(cells: number): boolean {
  let switchedOff = false
  try {
    switchedOff = globalThis.localStorage?.getItem(STREAMED_OPEN_SWITCH) === 'off'
  } catch {
    // storage refused (a private window's policy): the default holds
  }
  return cells > STREAMED_OPEN_CELLS && !switchedOff
}

/** The rows a first screen reads: those a window of this height shows, in whole bands, and one band more. */
export function firstScreenRows(viewportHeight: number): number {
  const shown = Math.ceil(Math.max(viewportHeight, ROW_HEIGHT) / ROW_HEIGHT)
  return Math.min(MAX_WINDOW_ROWS, (Math.ceil(shown / BAND_ROWS) + 1) * BAND_ROWS)
}

/** The first screen a window answer paints: the workbook with that sheet's rows, and the values stored for them. */
export interface FirstScreen {
  workbook: ServerWorkbook
  values: Pick<ServerCellChange, 'sheet' | 'address' | 'value' | 'display'>[]
}

/**
 * A store snapshot of the window answer: every sheet (empty but the one read, whose layout and size
 * are the whole sheet's) and the read rows' inputs, styles and formats; `values` are what the
 * service calculated for them, shown until the engine has the whole workbook.
 */
export function firstScreenOf(window: WindowResponse['workbook']): FirstScreen {
  const read = window.sheet
  const cells: SheetSnapshot['cells'] = {}
  const values: FirstScreen['values'] = []
  for (const [address, cell] of Object.entries(read.cells)) {
    const entry: SheetSnapshot['cells'][string] = {}
    if (cell.input !== '') entry.input = cell.input
    if (cell.style) entry.style = cell.style as CellStyle
    if (cell.format) entry.format = cell.format
    cells[address] = entry
    if (cell.value !== null) values.push({ sheet: read.name, address, value: cell.type === 'error' ? { code: String(cell.value) } : cell.value, display: cell.display })
  }
  const sheets: SheetSnapshot[] = window.sheetOrder.map((name) =>
    name === read.name
      ? {
          name,
          cells,
          columnWidths: read.columnWidths,
          merges: read.merges,
          ...(read.view ? { view: read.view } : {}),
          ...(read.conditionalFormats ? { conditionalFormats: read.conditionalFormats } : {}),
          ...(read.validations ? { validations: read.validations } : {}),
          rowCount: read.rowCount,
          columnCount: read.columnCount,
        }
      : { name, cells: {}, ...(window.hiddenSheets.includes(name) ? { view: { hidden: true } } : {}) },
  )
  return {
    workbook: {
      revision: window.revision,
      sheetOrder: window.sheetOrder,
      snapshot: { id: window.workbookId, name: window.name, iterativeCalculation: window.iterativeCalculation, ...(window.defaultFont ? { defaultFont: window.defaultFont } : {}), sheets },
    },
    values,
  }
}

export interface AssembleOptions {
  /** how long one slice may run, so that scrolling and typing stay smooth meanwhile */
  sliceBudgetMs?: number
  /** hears how far the load has come, 0 to 1 */
  onProgress?: (fraction: number) => void
  /** asked between slices: false stops the load (another workbook was opened) */
  stillWanted?: () => boolean
}

/**
 * The whole workbook of an inputs answer as a store, built in slices between frames: each slice hands
 * the engine a run of cells sized to a few milliseconds, and the engine calculates once at the end.
 * Null when `stillWanted` said to stop.
 */
export async function assembleInSlices(inputs: InputsResponse['workbook'], options: AssembleOptions = {}): Promise<WorkbookStore | null> {
  const budget = options.sliceBudgetMs ?? 8
  const head = serverWorkbookOf(inputs, { withCells: false }).snapshot
  const records = sheetRecordsOf(head.sheets)
  const extras: CellSource[] = []
  const assembly = WorkbookModel.beginAssembly(
    {
      revision: 0,
      sheets: records,
      definedNames: head.definedNames ?? [],
      ...(head.tables ? { tables: head.tables } : {}),
      ...(head.externalLinks ? { externalLinks: head.externalLinks } : {}),
      extras: () => extras,
    },
    storedIterationOptions(head.iterativeCalculation, head.iterationLimits),
  )
  const bySheet = new Map(inputs.sheets.map((sheet) => [sheet.name, sheet]))
  const total = inputs.sheets.reduce((sum, sheet) => sum + sheet.cells.length, 0)
  let done = 0
  let sliceCells = 2000
  for (const record of records) {
    const cells = bySheet.get(record.name)?.cells ?? []
    for (let next = 0; next < cells.length; ) {
      if (options.stillWanted && !options.stillWanted()) return null
      const started = performance.now()
      const end = Math.min(cells.length, next + sliceCells)
      const updates: CellUpdate[] = []
      for (let i = next; i < end; i++) {
        const [address, input, style, format] = cells[i]
        if (input !== '') updates.push({ sheet: record.name, address, input })
        if (style >= 0 || format !== '') extras.push({ sheetId: record.id, address, input, ...(style >= 0 ? { style: inputs.styles[style] } : {}), ...(format !== '' ? { userFormat: format } : {}) })
      }
      assembly.add(updates)
      done += end - next
      next = end
      options.onProgress?.(total === 0 ? 1 : done / total)
      // aim each slice at the budget, growing or shrinking by at most a factor of two
      const took = performance.now() - started
      sliceCells = Math.max(500, Math.min(sliceCells * 2, Math.round((sliceCells * budget) / Math.max(took, 0.5))))
      await yieldToBrowser()
    }
  }
  if (options.stillWanted && !options.stillWanted()) return null
  const model = assembly.finish()
  model.charts = (head.charts ?? []).flatMap((chart) => {
    const sheet = records.find((candidate) => candidate.name === chart.sheet)
    if (!sheet) return []
    const { id, sheet: _sheet, ...spec } = chart
    return [chartRecordOf(id, sheet.id, spec)]
  })
  return new WorkbookStore(head, model)
}
