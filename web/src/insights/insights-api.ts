import type { FullWorkbookResponse } from '@finsheet/contracts'
import type { ApiClient } from '../api/api-client'
import type { WorkbookInsights } from './workbook-insights'
import { analyseWorkbook } from './workbook-insights'

/** Workbooks past this many cells are described by their counts only; reading them all would stall the page. */
export const MAX_ANALYSED_CELLS = 200_000

/** Reads every cell of the workbook and computes its insights. */
export async function loadInsights(api: ApiClient, workbookId: string, signal?: AbortSignal): Promise<WorkbookInsights> {
  const answer = await api.get<FullWorkbookResponse>(`/spreadsheet/workbook/${encodeURIComponent(workbookId)}`, { signal })
  return analyseWorkbook(answer.workbook.sheets)
}
