import type { ImportWorkbookResponse, InputsLine, WindowResponse } from '@finsheet/contracts'
import { INPUTS_LINES_CONTENT_TYPE } from '@finsheet/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestSpreadsheetService } from '../testing/spreadsheet-service'
import { startSpreadsheetService } from '../testing/spreadsheet-service'
import { loadServerWorkbook, ServerWorkbookSync } from './server-sync'
import { assembleFromLines, firstScreenOf, firstScreenRows, opensStreamed, STREAMED_OPEN_CELLS } from './streamed-open'
import { jsonLines } from '../api/json-lines'
import { WorkbookStore } from './workbook-store'

let service: TestSpreadsheetService

beforeAll(async () => {
  service = await startSpreadsheetService()
})

afterAll(async () => {
  await service?.close()
})

const at = (address: string) => {
  const m = /^([A-Z]+)(\d+)$/.exec(address)!
  return { col: m[1].charCodeAt(0) - 65, row: Number(m[2]) - 1 }
}

const ROWS = 2000

/** A workbook whose first screen cannot calculate alone: B1 sums a column that runs far below it. */
async function importModel(): Promise<string> {
  const data = []
  for (let row = 1; row <= ROWS; row++) data.push({ address: `A${row}`, input: row }, { address: `C${row}`, input: `=A${row}*2` })
  data.push({ address: 'B1', input: `=SUM(A1:A${ROWS})` })
  const imported = await service.api.post<ImportWorkbookResponse>('/spreadsheet/workbooks/import', {
    name: 'Streamed',
    sheets: [
      { name: 'Model', cells: data },
      { name: 'Other', cells: [{ address: 'A1', input: '=Model!A1500' }] },
    ],
  })
  return imported.workbookId
}

describe('opening a large workbook by its first screen', () => {
  it('decides by the cell count and reads whole bands of rows', () => {
    expect(opensStreamed(STREAMED_OPEN_CELLS + 1)).toBe(true)
    expect(opensStreamed(STREAMED_OPEN_CELLS)).toBe(false)
    expect(firstScreenRows(900) % 32).toBe(0)
    expect(firstScreenRows(900)).toBeGreaterThanOrEqual(900 / 24)
    expect(firstScreenRows(100_000)).toBe(1000)
  })

  it('paints the stored values first, keeps edits made meanwhile, and hands over to the whole workbook', async () => {
    const id = await importModel()
    const sum = (ROWS * (ROWS + 1)) / 2
    const window = await service.api.get<WindowResponse>(`/spreadsheet/workbook/${id}/window?sheet=Model&startRow=1&endRow=64`)
    const first = firstScreenOf(window.workbook)
    const store = new WorkbookStore(first.workbook.snapshot)
    store.beginStreamedOpen()
    store.showServerValues(first.values)

    // The first screen shows what the service calculated, though its engine has only 64 rows.
    expect(store.getDisplay('Model', at('B1'))).toBe(String(sum))
    expect(store.getDisplay('Model', at('C64'))).toBe('128')
    expect(store.sheet('Model')?.rowCount).toBe(ROWS)
    expect(store.sheetNames).toEqual(['Model', 'Other'])

    let release!: () => void
    const hold = new Promise<void>((resolve) => (release = resolve))
    const sync = new ServerWorkbookSync(service.api, store, first.workbook.revision, () => undefined, {}, null, hold)
    store.onChange((change) => sync.record(change))
    // Another sheet's first screen, read when the user goes to it: shown, without undoing what was typed there.
    const other = await service.api.get<WindowResponse>(`/spreadsheet/workbook/${id}/window?sheet=Other&startRow=1&endRow=32`)
    const otherScreen = firstScreenOf(other.workbook)
    expect(store.getDisplay('Other', at('A1'))).toBe('')
    store.showFirstScreen('Other', { cells: otherScreen.workbook.snapshot.sheets[1].cells, values: otherScreen.values, rowCount: other.workbook.sheet.rowCount, columnCount: other.workbook.sheet.columnCount })
    expect(store.getInput('Other', at('A1'))).toBe('=Model!A1500')
    expect(store.getDisplay('Other', at('A1'))).toBe('1500')
    store.dispatch({ type: 'set-cells', sheet: 'Other', cells: [{ address: 'B1', input: '=A1+1' }] })
    const typedFirst = await service.api.get<WindowResponse>(`/spreadsheet/workbook/${id}/window?sheet=Other&startRow=1&endRow=32`)
    const again = firstScreenOf(typedFirst.workbook)
    store.dispatch({ type: 'set-cells', sheet: 'Other', cells: [{ address: 'A1', input: '7' }] })
    store.showFirstScreen('Other', { cells: again.workbook.snapshot.sheets[1].cells, values: again.values, rowCount: 1, columnCount: 1 })
    expect(store.getInput('Other', at('A1'))).toBe('7')
    store.dispatch({ type: 'set-cells', sheet: 'Other', cells: [{ address: 'A1', input: '=Model!A1500' }] })

    // Typed before the engine has the workbook: one edit on screen, one far below it.
    store.dispatch({ type: 'set-cells', sheet: 'Model', cells: [{ address: 'A2', input: '1002' }] })
    store.dispatch({ type: 'set-cells', sheet: 'Model', cells: [{ address: 'A1500', input: '0' }] })
    expect(store.getDisplay('Model', at('C2'))).toBe('2004')
    const sent = sync.flush()
    let answered = false
    void sent.then(() => (answered = true))
    await new Promise((resolve) => setTimeout(resolve, 50))
    // nothing leaves before the whole workbook has been read
    expect(answered).toBe(false)
    expect(sync.current.pending).toBe(5)

    const body = await service.api.stream(`/spreadsheet/workbook/${id}/inputs`, INPUTS_LINES_CONTENT_TYPE)
    release()
    const progress: number[] = []
    const whole = await assembleFromLines(jsonLines<InputsLine>(body), { sliceBudgetMs: 1, expectedCells: ROWS * 2 + 2, onProgress: (fraction) => progress.push(fraction) })
    // the cells went into the engine a run at a time as they came, and the load ended whole
    expect(progress.length).toBeGreaterThan(2)
    expect(progress.at(-1)).toBe(1)
    store.adoptLoaded(whole!)
    await sent

    // The engine's values now: the edits made meanwhile recalculated with the whole workbook.
    expect(store.isStreaming).toBe(false)
    expect(store.getValue('Model', at('B1'))).toBe(sum + 1000 - 1500)
    expect(store.getValue('Model', at('C2'))).toBe(2004)
    expect(store.getValue('Model', at('C1500'))).toBe(0)
    expect(store.getValue('Other', at('A1'))).toBe(0)
    expect(store.getValue('Other', at('B1'))).toBe(1)
    expect(store.getValue('Model', at(`C${ROWS}`))).toBe(ROWS * 2)
    expect(store.sheet('Model')?.loading).toBeNull()

    // Saved in order, and the service agrees.
    const saved = new WorkbookStore((await loadServerWorkbook(service.api, id)).snapshot)
    expect(saved.getInput('Model', at('A2'))).toBe('1002')
    expect(saved.getInput('Model', at('A1500'))).toBe('0')
    expect(saved.getValue('Model', at('B1'))).toBe(sum + 1000 - 1500)

    // Undo of the edit made below the first screen puts back what the whole workbook held there.
    await sync.undo()
    expect(store.getInput('Model', at('A1500'))).toBe('1500')
    expect(store.getValue('Model', at('B1'))).toBe(sum + 1000)
    const undone = new WorkbookStore((await loadServerWorkbook(service.api, id)).snapshot)
    expect(undone.getInput('Model', at('A1500'))).toBe('1500')
  })
})
