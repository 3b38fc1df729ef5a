import { Compile } from 'typebox/compile'
import { CellsResponse } from '@finsheet/contracts'

const cellsCheck = Compile(CellsResponse)

/** The spreadsheet service failed or could not be reached: a job is retried, a request answers 503. */
export class SpreadsheetUnavailableError extends Error {
  override readonly name = 'SpreadsheetUnavailableError'
}

export interface SpreadsheetReader {
  /** The workbook's cells as its owner sees them, or null when it is missing or not the token's user's. */
  workbookCells(token: string, workbookId: string): Promise<CellsResponse['workbook'] | null>
  /** Whether the token's user has this workbook (its metadata only: no cells are read). */
  hasWorkbook(token: string, workbookId: string): Promise<boolean>
}

/** Reads workbooks from the spreadsheet service with a user's token; answers are checked against the contract. */
export function createSpreadsheetReader(baseUrl: string, timeoutMs = 60_000): SpreadsheetReader {
  return {
    async workbookCells(token, workbookId) {
      let response: Response
      try {
        response = await fetch(new URL(`/workbook/${encodeURIComponent(workbookId)}/cells`, baseUrl), {
          headers: { authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(timeoutMs),
        })
      } catch (error) {
        throw new SpreadsheetUnavailableError(`The spreadsheet service could not be reached: ${(error as Error).message}`)
      }
      if (response.status === 404) {
        await response.body?.cancel()
        return null
      }
      if (!response.ok) {
        await response.body?.cancel()
        throw new SpreadsheetUnavailableError(`The spreadsheet service answered ${response.status}`)
      }
      const answer: unknown = await response.json()
      if (!cellsCheck.Check(answer)) throw new SpreadsheetUnavailableError('The spreadsheet service answered cells that do not match the contract')
      return answer.workbook
    },

    async hasWorkbook(token, workbookId) {
      let response: Response
      try {
        response = await fetch(new URL(`/workbooks/${encodeURIComponent(workbookId)}`, baseUrl), { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(timeoutMs) })
      } catch (error) {
        throw new SpreadsheetUnavailableError(`The spreadsheet service could not be reached: ${(error as Error).message}`)
      }
      await response.body?.cancel()
      if (response.status === 404) return false
      if (!response.ok) throw new SpreadsheetUnavailableError(`The spreadsheet service answered ${response.status}`)
      return true
    },
  }
}
