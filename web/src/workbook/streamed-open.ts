import type { InputsLine, InputsResponse, WindowResponse } from '@finsheet/contracts'
import { MAX_WINDOW_ROWS } from '@finsheet/contracts'
import { formatAddress } from '@finsheet/formula'
import { chartRecordOf, storedIterationOptions, WorkbookModel, type CellSource, type WorkbookAssembly } from '@finsheet/workbook/model'
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
  /** how many cells the workbook holds (the workbooks list says), for the progress */
  expectedCells?: number
  /** hears how far the load has come, 0 to 1 */
  onProgress?: (fraction: number) => void
  /** asked between slices: false stops the load (another workbook was opened) */
  stillWanted?: () => boolean
}

/** A cell's style or format, kept until the styles table (the answer's last line) names the style. */
interface PendingExtra {
  sheetId: string
  address: string
  input: string
  style: number
  format: string
}

/**
 * The whole workbook as a store, built from the inputs answer's lines (see InputsLine) as they arrive:
 * each run of cells goes into the engine at once, in slices of a few milliseconds between frames, while
 * the rest is still on its way; the engine calculates once at the end. Null when `stillWanted` said to
 * stop; an answer cut short is an error.
 */
export async function assembleFromLines(lines: AsyncIterable<InputsLine>, options: AssembleOptions = {}): Promise<WorkbookStore | null> {
  const budget = options.sliceBudgetMs ?? 8
  const wanted = () => !options.stillWanted || options.stillWanted()
  let workbook: InputsResponse['workbook'] | undefined
  let assembly: WorkbookAssembly<WorkbookModel> | undefined
  let sheetIds = new Map<string, string>()
  const extras: PendingExtra[] = []
  let ended = false
  let done = 0
  let sliceStart = performance.now()
  for await (const line of lines) {
    if (!wanted()) return null
    if ('workbook' in line) {
      workbook = { ...line.workbook, sheets: line.workbook.sheets.map((head) => ({ ...head, cells: [], rowCount: 0, columnCount: 0 })), styles: [] }
      const head = serverWorkbookOf(workbook, { withCells: false }).snapshot
      const records = sheetRecordsOf(head.sheets)
      sheetIds = new Map(records.map((record) => [record.name, record.id]))
      const styles = workbook.styles
      assembly = WorkbookModel.beginAssembly(
        {
          revision: 0,
          sheets: records,
          definedNames: head.definedNames ?? [],
          ...(head.tables ? { tables: head.tables } : {}),
          ...(head.externalLinks ? { externalLinks: head.externalLinks } : {}),
          extras: () => extras.map(({ style, format, ...cell }): CellSource => ({ ...cell, ...(style >= 0 ? { style: styles[style] } : {}), ...(format !== '' ? { userFormat: format } : {}) })),
        },
        storedIterationOptions(head.iterativeCalculation, head.iterationLimits),
      )
      continue
    }
    if (workbook === undefined || assembly === undefined) throw new Error('The inputs answer did not begin with the workbook')
    if ('rows' in line) {
      const sheet = workbook.sheets[line.sheet].name
      const sheetId = sheetIds.get(sheet) as string
      const { rows, cols, inputs, styleIndexes, formats } = line
      // Cells by position, straight into the engine: no address is made for a cell but to keep its style or
      // format. A cell of a style or format alone has no input for the engine.
      if (inputs.includes('')) {
        const kept = inputs.flatMap((input, i) => (input === '' ? [] : [i]))
        assembly.addAt(sheet, kept.map((i) => rows[i]), kept.map((i) => cols[i]), kept.map((i) => inputs[i]))
      } else assembly.addAt(sheet, rows, cols, inputs)
      if (styleIndexes !== undefined || formats !== undefined) {
        for (let i = 0; i < inputs.length; i++) {
          const style = styleIndexes?.[i] ?? -1
          const format = formats?.[i] ?? ''
          if (style >= 0 || format !== '') extras.push({ sheetId, address: formatAddress(rows[i], cols[i]), input: inputs[i], style, format })
        }
      }
      done += inputs.length
      options.onProgress?.(Math.min(1, done / Math.max(1, options.expectedCells ?? done)))
      if (performance.now() - sliceStart >= budget) {
        await yieldToBrowser()
        sliceStart = performance.now()
      }
    } else if ('sheetEnd' in line) {
      Object.assign(workbook.sheets[line.sheetEnd.sheet], { rowCount: line.sheetEnd.rowCount, columnCount: line.sheetEnd.columnCount })
    } else {
      workbook.styles.push(...line.styles)
      ended = true
    }
  }
  if (workbook === undefined || assembly === undefined || !ended) throw new Error('The inputs answer ended before the workbook did')
  if (!wanted()) return null
  options.onProgress?.(1)
  const head = serverWorkbookOf(workbook, { withCells: false }).snapshot
  const model = assembly.finish()
  model.charts = (head.charts ?? []).flatMap((chart) => {
    const sheetId = sheetIds.get(chart.sheet)
    if (sheetId === undefined) return []
    const { id, sheet: _sheet, ...spec } = chart
    return [chartRecordOf(id, sheetId, spec)]
  })
  return new WorkbookStore(head, model)
}
