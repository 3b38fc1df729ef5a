/**
 * The worker thread of an xlsx export (see xlsx-off-thread.ts): receives the sheets, then their cells
 * in batches, builds the file with XlsxWriter and posts its bytes back.
 */
import { parentPort } from 'node:worker_threads'
import { XlsxWriter } from './xlsx.js'
import type { XlsxWorkerRequest, XlsxWorkerAnswer } from './xlsx-off-thread.js'

const port = parentPort
if (!port) throw new Error('xlsx-worker runs as a worker thread')
// Messages sent meanwhile wait on the port until the listener below is attached.
const writer = await XlsxWriter.create()

port.on('message', (request: XlsxWorkerRequest) => {
  switch (request.type) {
    case 'links':
      writer.linkWorkbooks(request.links)
      return
    case 'sheet':
      writer.addSheet(request.sheet, request.tables)
      return
    case 'cells':
      writer.addCells(request.index, request.cells)
      return
    case 'picture':
      writer.addPicture(request.picture.sheetIndex, request.picture)
      return
    case 'finish':
      writer.finish(request.definedNames, request.calculation, request.defaultFont).then(
        (bytes) => port.postMessage({ bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) } satisfies XlsxWorkerAnswer),
        (error: unknown) => port.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies XlsxWorkerAnswer),
      )
  }
})
