import type { CreateWorkbookResponse, ExternalLink, ImportWorkbookResponse } from '@finsheet/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestSpreadsheetService } from '../testing/spreadsheet-service'
import { startSpreadsheetService } from '../testing/spreadsheet-service'
import type { WorkbookCommand } from '@finsheet/contracts'
import type { SyncStatus } from './server-sync'
import { loadServerWorkbook, ServerWorkbookSync, SINGLE_CHANGES_PER_FLUSH } from './server-sync'
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

interface Opened {
  id: string
  store: WorkbookStore
  sync: ServerWorkbookSync
  statuses: SyncStatus[]
  reloads: number
}

/** A new workbook of the service with the given commands applied, opened in a store with its sync. */
async function openWorkbook(setup: WorkbookCommand[] = []): Promise<Opened> {
  const created = await service.api.post<CreateWorkbookResponse>('/spreadsheet/workbooks', { name: 'Sync test' })
  if (setup.length > 0) await service.api.post(`/spreadsheet/workbook/${created.workbookId}/changes`, { commands: setup })
  return attach(created.workbookId)
}

async function attach(id: string, history: { canUndo?: boolean } = {}): Promise<Opened> {
  const loaded = await loadServerWorkbook(service.api, id)
  const store = new WorkbookStore(loaded.snapshot)
  const opened: Opened = { id, store, sync: null as unknown as ServerWorkbookSync, statuses: [], reloads: 0 }
  const sync = new ServerWorkbookSync(service.api, store, loaded.revision, (status) => opened.statuses.push(status), history)
  sync.onReload = () => opened.reloads++
  store.onChange((change) => sync.record(change))
  opened.sync = sync
  return opened
}

/** The workbook as the service has it now, opened afresh. */
async function serverCopy(id: string): Promise<WorkbookStore> {
  const loaded = await loadServerWorkbook(service.api, id)
  return new WorkbookStore(loaded.snapshot)
}

const set = (sheet: string, address: string, input: string): WorkbookCommand => ({ type: 'set-cells', sheet, cells: [{ address, input }] })

describe('loadServerWorkbook', () => {
  it('opens a workbook linked to another workbook with the values the server calculates from', async () => {
    const budget: ExternalLink = { target: 'Budget.xlsx', sheets: [{ name: 'Q1', cells: { B2: 10, B3: 20 } }] }
    const imported = await service.api.post<ImportWorkbookResponse>('/spreadsheet/workbooks/import', {
      name: 'Linked',
      externalLinks: [budget],
      sheets: [{ name: 'Model', cells: [{ address: 'A1', input: '=SUM([1]Q1!B2:B3)' }, { address: 'A2', input: '=[Budget.xlsx]Q1!B3*A3' }, { address: 'A3', input: 2 }] }],
    })
    const loaded = await loadServerWorkbook(service.api, imported.workbookId)
    expect(loaded.snapshot.externalLinks).toEqual([budget])
    const store = new WorkbookStore(loaded.snapshot)
    expect([store.getValue('Model', at('A1')), store.getValue('Model', at('A2'))]).toEqual([30, 40])
  })
})

describe('ServerWorkbookSync', () => {
  it('sends edits in the order they were made, one change per action, undone one at a time', async () => {
    const { id, store, sync } = await openWorkbook()
    store.dispatch(set('Sheet1', 'A1', '2'))
    store.dispatch(set('Sheet1', 'A2', '=A1*3'))
    expect(sync.current.pending).toBe(2)
    const before = service.calls.length
    await sync.flush()
    expect(service.calls.slice(before).filter((call) => call.startsWith('POST') && call.endsWith('/changes'))).toHaveLength(2)
    expect(sync.current).toMatchObject({ pending: 0, sending: false, failure: null, canUndo: true })
    expect((await serverCopy(id)).getDisplay('Sheet1', at('A2'))).toBe('6')
    await sync.undo()
    expect(store.getInput('Sheet1', at('A2'))).toBe('')
    expect(store.getInput('Sheet1', at('A1'))).toBe('2')
    const copy = await serverCopy(id)
    expect([copy.getInput('Sheet1', at('A1')), copy.getInput('Sheet1', at('A2'))]).toEqual(['2', ''])
  })

  it('sends a long queue (edits made offline) in blocks past the first hundred actions', async () => {
    const { id, store, sync } = await openWorkbook()
    for (let row = 1; row <= SINGLE_CHANGES_PER_FLUSH + 5; row++) store.dispatch(set('Sheet1', `A${row}`, String(row)))
    const before = service.calls.length
    await sync.flush()
    expect(service.calls.slice(before).filter((call) => call.endsWith('/changes'))).toHaveLength(SINGLE_CHANGES_PER_FLUSH + 1)
    expect((await serverCopy(id)).getInput('Sheet1', at(`A${SINGLE_CHANGES_PER_FLUSH + 5}`))).toBe(String(SINGLE_CHANGES_PER_FLUSH + 5))
  })

  it('shows the answer to an edit where its cells are now, after rows inserted while it was on its way', async () => {
    const { id, store, sync } = await openWorkbook([{ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A1', input: '1' }, { address: 'A2', input: '=A1*2' }] }])
    const release = service.hold('POST', /\/changes$/)
    store.dispatch(set('Sheet1', 'A1', '5'))
    const first = sync.flush()
    // the user goes on while the edit is on its way: a row above, then a value in the new row
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(sync.current.sending).toBe(true)
    store.dispatch({ type: 'insert-rows', sheet: 'Sheet1', at: 0, count: 1 })
    store.dispatch(set('Sheet1', 'A1', 'typed meanwhile'))
    release()
    await first
    // the answer spoke of A1 and A2; they are A2 and A3 now, and A1 keeps what was typed
    expect(store.getInput('Sheet1', at('A1'))).toBe('typed meanwhile')
    expect(store.getInput('Sheet1', at('A2'))).toBe('5')
    expect(store.getInput('Sheet1', at('A3'))).toBe('=A2*2')
    expect(store.getDisplay('Sheet1', at('A3'))).toBe('10')
    await sync.flush()
    const copy = await serverCopy(id)
    expect([copy.getInput('Sheet1', at('A1')), copy.getInput('Sheet1', at('A2')), copy.getDisplay('Sheet1', at('A3'))]).toEqual(['typed meanwhile', '5', '10'])
  })

  it('keeps a cell typed again while its first edit was on its way', async () => {
    const { id, store, sync } = await openWorkbook()
    const release = service.hold('POST', /\/changes$/)
    store.dispatch(set('Sheet1', 'B2', 'first'))
    const first = sync.flush()
    await new Promise((resolve) => setTimeout(resolve, 20))
    store.dispatch(set('Sheet1', 'B2', 'second'))
    release()
    await first
    expect(store.getInput('Sheet1', at('B2'))).toBe('second')
    await sync.flush()
    expect((await serverCopy(id)).getInput('Sheet1', at('B2'))).toBe('second')
  })

  it('undoes at once here, and on the server next, a row insertion answered or not', async () => {
    const { id, store, sync } = await openWorkbook([set('Sheet1', 'A1', 'top'), set('Sheet1', 'A2', 'below')])
    store.dispatch({ type: 'insert-rows', sheet: 'Sheet1', at: 1, count: 1 })
    await sync.flush()
    expect((await serverCopy(id)).getInput('Sheet1', at('A3'))).toBe('below')
    const release = service.hold('POST', /\/undo$/)
    const undone = sync.undo()
    // already undone here, before the server answers
    expect(store.getInput('Sheet1', at('A2'))).toBe('below')
    // typed while the undo is on its way, on the workbook as the user sees it
    store.dispatch(set('Sheet1', 'B2', 'next to below'))
    release()
    await undone
    await sync.flush()
    const copy = await serverCopy(id)
    expect([copy.getInput('Sheet1', at('A2')), copy.getInput('Sheet1', at('B2')), copy.getInput('Sheet1', at('A3'))]).toEqual(['below', 'next to below', ''])
    expect(store.getInput('Sheet1', at('B2'))).toBe('next to below')
  })

  it('takes back an edit not sent yet without telling the server, and redoes it', async () => {
    const { id, store, sync } = await openWorkbook()
    store.dispatch(set('Sheet1', 'A1', 'kept'))
    store.dispatch(set('Sheet1', 'A2', 'taken back'))
    await sync.undo()
    expect(store.getInput('Sheet1', at('A2'))).toBe('')
    expect(sync.current.canRedo).toBe(true)
    const before = service.calls.length
    await sync.flush()
    expect(service.calls.slice(before).filter((call) => call.endsWith('/undo'))).toEqual([])
    expect((await serverCopy(id)).getInput('Sheet1', at('A2'))).toBe('')
    await sync.redo()
    expect(store.getInput('Sheet1', at('A2'))).toBe('taken back')
    await sync.flush()
    expect((await serverCopy(id)).getInput('Sheet1', at('A2'))).toBe('taken back')
  })

  it('brings a deleted sheet back with its cells when the deletion is undone, here and on the server', async () => {
    const { id, store, sync } = await openWorkbook([{ type: 'add-sheet', name: 'Inputs' }, set('Inputs', 'C3', '42')])
    store.dispatch({ type: 'delete-sheet', name: 'Inputs' })
    await sync.flush()
    expect((await serverCopy(id)).sheetNames).toEqual(['Sheet1'])
    await sync.undo()
    expect(store.sheetNames).toEqual(['Sheet1', 'Inputs'])
    expect(store.getInput('Inputs', at('C3'))).toBe('42')
    const copy = await serverCopy(id)
    expect(copy.sheetNames).toEqual(['Sheet1', 'Inputs'])
    expect(copy.getInput('Inputs', at('C3'))).toBe('42')
    await sync.redo()
    expect(store.sheetNames).toEqual(['Sheet1'])
    expect((await serverCopy(id)).sheetNames).toEqual(['Sheet1'])
  })

  it('asks for a reload when the server undid a change this page did not make, keeping what was typed since', async () => {
    const { id } = await openWorkbook()
    // another tab inserts rows: this page's history does not hold that change, the server's does
    const other = await attach(id)
    other.store.dispatch({ type: 'insert-rows', sheet: 'Sheet1', at: 0, count: 2 })
    await other.sync.flush()
    const page = await attach(id, { canUndo: true })
    const release = service.hold('POST', /\/undo$/)
    const undone = page.sync.undo()
    page.store.dispatch(set('Sheet1', 'D4', 'typed while the undo was on its way'))
    release()
    await undone
    expect(page.reloads).toBe(1)
    expect(page.sync.takeUnaccepted()).toEqual([set('Sheet1', 'D4', 'typed while the undo was on its way')])
    // the reloaded copy has the undo; the edit is made again on top of it
    expect((await serverCopy(id)).getInput('Sheet1', at('D4'))).toBe('')
  })

  it('keeps edits through a cut network and says so, then sends them in order', async () => {
    const { id, store, sync } = await openWorkbook()
    const restore = service.cut('POST', /\/changes$/)
    try {
      store.dispatch(set('Sheet1', 'A1', 'offline one'))
      await expect(sync.flush()).rejects.toThrow()
      expect(sync.current).toMatchObject({ failure: 'offline', pending: 1 })
      store.dispatch(set('Sheet1', 'A2', 'offline two'))
      await expect(sync.flush()).rejects.toThrow()
      expect(sync.current).toMatchObject({ failure: 'offline', pending: 2 })
    } finally {
      restore()
    }
    await sync.flush()
    expect(sync.current).toMatchObject({ failure: null, pending: 0 })
    const copy = await serverCopy(id)
    expect([copy.getInput('Sheet1', at('A1')), copy.getInput('Sheet1', at('A2'))]).toEqual(['offline one', 'offline two'])
  })

  it('asks for a reload when the server refuses an edit', async () => {
    const opened = await openWorkbook([{ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A5', input: 'row five' }] }])
    // another client deletes row 5 before this page's edit of it arrives: the service cannot move the edit anywhere
    await service.api.post(`/spreadsheet/workbook/${opened.id}/changes`, { commands: [{ type: 'delete-rows', sheet: 'Sheet1', at: 4, count: 1 }] })
    opened.store.dispatch(set('Sheet1', 'B5', 'on a deleted row'))
    await expect(opened.sync.flush()).rejects.toThrow(/409/)
    expect(opened.reloads).toBe(1)
    expect(opened.sync.current.failure).toBe('refused')
  })

  it('reports waiting, sending and saved as they happen', async () => {
    const { store, sync, statuses } = await openWorkbook()
    const release = service.hold('POST', /\/changes$/)
    store.dispatch(set('Sheet1', 'A1', '1'))
    expect(statuses.at(-1)).toMatchObject({ pending: 1, sending: false })
    const sent = sync.flush()
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(statuses.at(-1)).toMatchObject({ pending: 1, sending: true })
    release()
    await sent
    expect(statuses.at(-1)).toMatchObject({ pending: 0, sending: false, failure: null })
  })
})
