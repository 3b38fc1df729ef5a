/**
 * The spreadsheet service as the files worker calls it: with the user's own token, so the workbook
 * belongs to the user who uploaded the file and the spreadsheet service checks that identity itself.
 */
import { Readable } from 'node:stream'
import { Value } from 'typebox/value'
import { ErrorBody, IMPORT_STREAM_CONTENT_TYPE, ImportWorkbookResponse, type ImportRecalculation } from '@finsheet/contracts'

export interface ImportedWorkbookAnswer {
  workbookId: string
  cellCount: number
  formulaCount: number
  /** The service's check of the formulas against the values the file cached. */
  recalculation: ImportRecalculation
  /** An earlier request with the same import id had stored it. */
  repeated: boolean
}

export interface SpreadsheetClient {
  /** Sends the import body in its streamed form (lines of NDJSON), as the lines are made. */
  importWorkbook(token: string, lines: Iterable<string> | AsyncIterable<string>): Promise<ImportedWorkbookAnswer>
}

/** The spreadsheet service refused the workbook (a 4xx): retrying cannot help. */
export class WorkbookRejectedError extends Error {
  override readonly name = 'WorkbookRejectedError'
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** The spreadsheet service could not be reached or failed (a 5xx): the job is retried. */
export class SpreadsheetUnavailableError extends Error {
  override readonly name = 'SpreadsheetUnavailableError'
}

const IMPORT_TIMEOUT_MS = 10 * 60_000

export function createSpreadsheetClient(baseUrl: string): SpreadsheetClient {
  return {
    async importWorkbook(token, lines) {
      let response: Response
      try {
        response = await fetch(new URL('/workbooks/import', baseUrl), {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': IMPORT_STREAM_CONTENT_TYPE },
          body: Readable.toWeb(Readable.from(lines, { objectMode: false })) as ReadableStream<Uint8Array>,
          duplex: 'half',
          signal: AbortSignal.timeout(IMPORT_TIMEOUT_MS),
        } as RequestInit)
      } catch (error) {
        throw new SpreadsheetUnavailableError(`The spreadsheet service could not be reached: ${(error as Error).message}`)
      }
      const text = await response.text()
      let answer: unknown = null
      try {
        answer = text ? JSON.parse(text) : null
      } catch {
        // not JSON: reported below by status
      }
      if (response.status >= 500) throw new SpreadsheetUnavailableError(`The spreadsheet service failed to store the workbook (status ${response.status})`)
      if (!response.ok) {
        const message = Value.Check(ErrorBody, answer) ? answer.error.message : `status ${response.status}`
        throw new WorkbookRejectedError(response.status, `The spreadsheet service refused the workbook: ${message}`)
      }
      // The answer must be the one the spreadsheet service's contract describes; anything else is a
      // fault of that service (or of what stands between), so the job is retried rather than trusted.
      if (!Value.Check(ImportWorkbookResponse, answer)) {
        const problem = Value.Errors(ImportWorkbookResponse, answer)[0]
        throw new SpreadsheetUnavailableError(`The spreadsheet service answered outside its contract${problem ? `: ${problem.instancePath || '/'} ${problem.message}` : ''}`)
      }
      return {
        workbookId: answer.workbookId,
        cellCount: answer.cellCount,
        formulaCount: answer.formulaCount,
        recalculation: answer.recalculation,
        repeated: answer.repeated,
      }
    },
  }
}
