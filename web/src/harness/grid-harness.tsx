/**
 * The spreadsheet screen on its own, with a local workbook and no backend: the browser tests drive
 * the grid's editing here and the grid benchmark opens its large sheet here. Built only by the
 * tests (it is not an input of the app's build).
 *
 * Query: ?rows=N&cols=M fills Sheet1 with N × M numbers through the bulk loading path.
 */
import { functionCatalogue } from '@finsheet/formula'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import type { DrawStats } from '../grid/types'
import { Toolbar } from '../shell/Toolbar'
import { SpreadsheetView } from '../spreadsheet/SpreadsheetView'
import { Workspace } from '../spreadsheet/workspace'
import { WorkspaceProvider } from '../spreadsheet/workspace-context'
import { streamRows } from '../workbook/row-streaming'
import '../styles/app.css'

export interface HarnessHandle {
  workspace: Workspace
  draws: DrawStats[]
  /** ms since navigation start when the first frame with cells was drawn */
  firstCellPaint: number | null
  /** ms since navigation start when every row had loaded */
  allLoaded: number | null
}

declare global {
  interface Window {
    harness: HarnessHandle
  }
}

const params = new URLSearchParams(location.search)
const rows = Number(params.get('rows') ?? 0)
const cols = Number(params.get('cols') ?? 0)

const handle: HarnessHandle = { workspace: new Workspace(), draws: [], firstCellPaint: null, allLoaded: null }
window.harness = handle

const store = handle.workspace.open({ id: 'harness', sheets: [{ name: 'Sheet1', cells: {} }] })
if (rows > 0 && cols > 0) {
  // numbers made row by row as the stream asks for them, as pages of a download would arrive
  const produce = (start: number, end: number) =>
    Array.from({ length: end - start }, (_, i) => Array.from({ length: cols }, (_, c) => (start + i + 1) * 1000 + c + 0.25))
  void streamRows(store, 'Sheet1', rows, cols, produce, { onDone: () => (handle.allLoaded = performance.now()) })
} else {
  handle.allLoaded = performance.now()
}

const functions = functionCatalogue()

function onDraw(stats: DrawStats) {
  handle.draws.push(stats)
  if (handle.firstCellPaint === null && stats.cellsDrawn > 0) handle.firstCellPaint = performance.now()
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <WorkspaceProvider workspace={handle.workspace}>
      <div style={{ display: 'flex', flexDirection: 'column', height: '100vh' }}>
        <Toolbar onImport={() => undefined} />
        <div style={{ flex: 1, minHeight: 0 }}>
          <SpreadsheetView functions={functions} onClearEverything={() => undefined} onDraw={onDraw} />
        </div>
      </div>
    </WorkspaceProvider>
  </StrictMode>,
)
