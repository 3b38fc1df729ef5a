/**
 * An xlsx export in a worker thread, so that the seconds exceljs takes over a large workbook never
 * hold the event loop that answers other users: the snapshot's cells are handed over in batches,
 * yielding between them, and the worker builds the file. The worker's heap is bounded, so a workbook
 * too large to write fails its export alone (XlsxExportError 'memory') instead of the process.
 */
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { Worker } from 'node:worker_threads'
import { startModuleWorker } from '../module-worker.js'
import type { CellRecord, SheetRecord } from '../model/cell-record.js'
import { tablesOf } from '../model/snapshot.js'
import type { DefinedNameRecord, TableRecord, WorkbookSnapshot } from '../model/snapshot.js'
import type { CalculationSettings } from '../model/calculation.js'
import type { ExternalLinkRecord } from '../model/external-links.js'
import { chartPictures, type ChartPicture, type ChartPictures } from './chart-pictures.js'

export type XlsxWorkerRequest =
  | { type: 'sheet'; sheet: Pick<SheetRecord, 'name' | 'columnWidths' | 'merges' | 'view' | 'conditionalFormats' | 'validations'>; tables?: TableRecord[] }
  | { type: 'links'; links: ExternalLinkRecord[] }
  | { type: 'cells'; index: number; cells: CellRecord[] }
  | { type: 'picture'; picture: ChartPicture }
  | { type: 'finish'; definedNames: DefinedNameRecord[]; calculation?: CalculationSettings; defaultFont?: { family: string; size: number } }

export type XlsxWorkerAnswer = { bytes: Uint8Array } | { error: string }

export interface XlsxOffThreadOptions {
  /** The worker's heap, in MB. */
  memoryMb?: number
  /** How long the worker may take, in milliseconds. */
  timeoutMs?: number
  /** Cells handed over per message. */
  batchCells?: number
}

/** Defaults: room for a million cells in exceljs (about 1.2 GB), and three minutes for them on a busy machine. */
const DEFAULTS: Required<XlsxOffThreadOptions> = { memoryMb: 2048, timeoutMs: 180_000, batchCells: 5_000 }

/** Exports written at once; more wait their turn, and past a queue this long are refused as busy. */
const CONCURRENT_EXPORTS = 2
const WAITING_EXPORTS = 8
let running = 0
const waiting: (() => void)[] = []

async function takeTurn(): Promise<() => void> {
  if (running >= CONCURRENT_EXPORTS) {
    if (waiting.length >= WAITING_EXPORTS) throw new XlsxExportError('busy', 'Too many xlsx exports are under way; try again in a minute')
    await new Promise<void>((resolve) => waiting.push(resolve))
  }
  running++
  return () => {
    running--
    waiting.shift()?.()
  }
}

/** Why an export failed: its worker ran out of memory or time, too many were under way, or it failed otherwise. */
export class XlsxExportError extends Error {
  override readonly name = 'XlsxExportError'
  constructor(
    readonly reason: 'memory' | 'time' | 'busy' | 'failed',
    message: string,
  ) {
    super(message)
  }
}

function startWorker(memoryMb: number): Worker {
  return startModuleWorker(new URL('./xlsx-worker', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: memoryMb } })
}

/**
 * Writes the snapshot as an xlsx file in a worker thread. At most two run at once (each may take its
 * memory limit); others wait their turn.
 */
export async function writeXlsxOffThread(snapshot: WorkbookSnapshot, options: XlsxOffThreadOptions & { pictures?: ChartPictures } = {}): Promise<Buffer> {
  const release = await takeTurn()
  try {
    const { pictures } = options.pictures ?? (await chartPictures(snapshot))
    return await writeInWorker(snapshot, pictures, { ...DEFAULTS, ...options })
  } finally {
    release()
  }
}

async function writeInWorker(snapshot: WorkbookSnapshot, pictures: readonly ChartPicture[], { memoryMb, timeoutMs, batchCells }: Required<XlsxOffThreadOptions>): Promise<Buffer> {
  const worker = startWorker(memoryMb)
  let settled = false
  const answer = new Promise<Buffer>((resolve, reject) => {
    const fail = (error: XlsxExportError) => {
      if (settled) return
      settled = true
      reject(error)
    }
    const timer = setTimeout(() => fail(new XlsxExportError('time', `The xlsx export took longer than ${timeoutMs / 1000} s`)), timeoutMs)
    worker.once('message', (message: XlsxWorkerAnswer) => {
      clearTimeout(timer)
      if (settled) return
      settled = true
      if ('bytes' in message) resolve(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength))
      else reject(new XlsxExportError('failed', message.error))
    })
    worker.once('error', (error: Error & { code?: string }) => {
      clearTimeout(timer)
      fail(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new XlsxExportError('memory', `The xlsx export needed more than ${memoryMb} MB`)
          : new XlsxExportError('failed', error.message),
      )
    })
    worker.once('exit', () => {
      clearTimeout(timer)
      fail(new XlsxExportError('failed', 'The xlsx export stopped before it finished'))
    })
  })
  // Awaited below; marked handled now, since it may fail while batches are still being handed over.
  answer.catch(() => undefined)
  try {
    const post = (request: XlsxWorkerRequest) => worker.postMessage(request)
    if (snapshot.externalLinks) post({ type: 'links', links: snapshot.externalLinks })
    for (const [index, sheet] of snapshot.sheets.entries()) {
      post({ type: 'sheet', sheet: { name: sheet.name, columnWidths: sheet.columnWidths, merges: sheet.merges, ...(sheet.view ? { view: sheet.view } : {}), ...(sheet.conditionalFormats ? { conditionalFormats: sheet.conditionalFormats } : {}), ...(sheet.validations ? { validations: sheet.validations } : {}) }, tables: tablesOf(snapshot, sheet.name) })
      for (let start = 0; start < sheet.cells.length && !settled; start += batchCells) {
        post({ type: 'cells', index, cells: sheet.cells.slice(start, start + batchCells) })
        // Copying a batch into the message takes the event loop: let other requests in between.
        await nextTurn()
      }
    }
    for (const picture of pictures) post({ type: 'picture', picture })
    post({ type: 'finish', definedNames: snapshot.definedNames, ...(snapshot.calculation ? { calculation: snapshot.calculation } : {}), ...(snapshot.defaultFont ? { defaultFont: snapshot.defaultFont } : {}) })
    return await answer
  } finally {
    settled = true
    await worker.terminate()
  }
}
