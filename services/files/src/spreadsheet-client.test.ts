import { createServer, type Server } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { createSpreadsheetClient, SpreadsheetUnavailableError, WorkbookRejectedError } from './spreadsheet-client.js'

let server: Server | null = null
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve))
  server = null
})

/** A spreadsheet service that reads the import and answers `status` with `body`. */
async function answering(status: number, body: unknown): Promise<string> {
  server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(typeof body === 'string' ? body : JSON.stringify(body))
    })
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server!.address() as { port: number }).port}`
}

const stored = {
  success: true,
  workbookId: 'wb-1',
  cellCount: 3,
  formulaCount: 1,
  workbook: {
    id: 'wb-1',
    workbookId: 'wb-1',
    name: 'Imported',
    createdBy: 'ada',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    sheets: ['Sheet1'],
    isAIGenerated: false,
    storageUrl: null,
    templateId: null,
    revision: 1,
    totalSheets: 1,
    totalCells: 3,
    totalFormulas: 1,
    isDefault: false,
  },
  recalculation: { checked: 1, matched: 1, mismatchCount: 0, mismatches: [] },
  repeated: false,
}

describe('the spreadsheet client of the files worker', () => {
  it("takes an answer that matches the spreadsheet service's contract", async () => {
    const client = createSpreadsheetClient(await answering(201, stored))
    expect(await client.importWorkbook('token', ['{}\n'])).toEqual({ workbookId: 'wb-1', cellCount: 3, formulaCount: 1, recalculation: stored.recalculation, repeated: false })
  })

  it('treats a success outside the contract as the service failing, so the job is retried', async () => {
    for (const body of [{ ...stored, cellCount: 'three' }, { success: true, workbookId: 'wb-1' }, 'not json', { ...stored, recalculation: { checked: 1 } }]) {
      const client = createSpreadsheetClient(await answering(200, body))
      await expect(client.importWorkbook('token', ['{}\n'])).rejects.toBeInstanceOf(SpreadsheetUnavailableError)
      await new Promise((resolve) => server?.close(resolve))
    }
  })

  it("reports a refusal with the service's own message when it sends the error body, and the status otherwise", async () => {
    let client = createSpreadsheetClient(await answering(422, { error: { code: 'TOO_MANY_CELLS', message: 'The workbook has too many cells' } }))
    await expect(client.importWorkbook('token', ['{}\n'])).rejects.toEqual(new WorkbookRejectedError(422, 'The spreadsheet service refused the workbook: The workbook has too many cells'))
    await new Promise((resolve) => server?.close(resolve))
    client = createSpreadsheetClient(await answering(400, { oops: true }))
    await expect(client.importWorkbook('token', ['{}\n'])).rejects.toEqual(new WorkbookRejectedError(400, 'The spreadsheet service refused the workbook: status 400'))
  })
})
