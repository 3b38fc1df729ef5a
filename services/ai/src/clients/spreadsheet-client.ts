import { EvaluateFormulaResponse, WorkbookMetadataResponse, type EvaluateFormulaBody, type WorkbookMetadata } from '@finsheet/contracts'
import { aiErrors } from '../errors.js'
import { callService } from './service-client.js'

/** The spreadsheet service as the ai service uses it, on behalf of the user whose token it forwards. */
export function createSpreadsheetClient(baseUrl: string) {
  return {
    /** The user's workbook: its name and sheets; 404 for one that is missing or someone else's. */
    async workbook(token: string, workbookId: string, signal?: AbortSignal): Promise<WorkbookMetadata> {
      const answer = await callService({
        service: 'spreadsheet',
        baseUrl,
        method: 'GET',
        path: `/workbooks/${encodeURIComponent(workbookId)}`,
        token,
        answer: WorkbookMetadataResponse,
        notFound: aiErrors.workbookNotFound,
        signal,
      })
      return answer.workbook
    },
    /** A formula calculated at a cell of the user's workbook, writing nothing; 404 for a workbook not theirs. */
    evaluate(token: string, workbookId: string, body: EvaluateFormulaBody, signal?: AbortSignal): Promise<EvaluateFormulaResponse> {
      return callService({
        service: 'spreadsheet',
        baseUrl,
        method: 'POST',
        path: `/workbook/${encodeURIComponent(workbookId)}/evaluate`,
        token,
        body,
        answer: EvaluateFormulaResponse,
        notFound: aiErrors.workbookNotFound,
        signal,
      })
    },
  }
}

export type SpreadsheetClient = ReturnType<typeof createSpreadsheetClient>
