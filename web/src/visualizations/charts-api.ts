import type { CellsResponse, Chart, ChartResponse, ChartsResponse, CreateChartBody, ListWorkbooksResponse, SheetsResponse, WorkbookMetadata } from '@finsheet/contracts'
import type { ApiClient } from '../api/api-client'
import { usedRange } from './chart-form'

const WORKBOOK_PAGE = 100

/** The user's workbooks kept by the spreadsheet service, most recently changed first. */
export async function listWorkbooks(api: ApiClient, signal?: AbortSignal): Promise<WorkbookMetadata[]> {
  const workbooks: WorkbookMetadata[] = []
  for (let offset = 0; ; offset += WORKBOOK_PAGE) {
    const page = await api.get<ListWorkbooksResponse>('/spreadsheet/workbooks', { signal, query: { limit: WORKBOOK_PAGE, offset } })
    workbooks.push(...page.workbooks)
    if (page.workbooks.length < WORKBOOK_PAGE || workbooks.length >= page.total) return workbooks
  }
}

/** The workbook's saved charts with their data read from the cells now, newest first. */
export async function loadCharts(api: ApiClient, workbookId: string, signal?: AbortSignal): Promise<Chart[]> {
  const answer = await api.get<ChartsResponse>(`/spreadsheet/workbook/${encodeURIComponent(workbookId)}/charts`, { signal })
  return [...answer.charts].sort((a, b) => b.createdAt.localeCompare(a.createdAt))
}

export async function loadSheetNames(api: ApiClient, workbookId: string, signal?: AbortSignal): Promise<string[]> {
  const answer = await api.get<SheetsResponse>(`/spreadsheet/workbook/${encodeURIComponent(workbookId)}/sheets`, { signal })
  return answer.sheetOrder
}

/** The used block of one sheet, to offer as the chart's range. */
export async function sheetUsedRange(api: ApiClient, workbookId: string, sheet: string, signal?: AbortSignal): Promise<string> {
  const answer = await api.get<CellsResponse>(`/spreadsheet/workbook/${encodeURIComponent(workbookId)}/cells`, { signal, query: { sheet } })
  const found = answer.workbook.sheets.find((candidate) => candidate.name === sheet)
  return found ? usedRange(found.rowCount, found.columnCount) : ''
}

export async function createChart(api: ApiClient, body: CreateChartBody): Promise<Chart> {
  const answer = await api.post<ChartResponse>('/spreadsheet/create-chart', body)
  return answer.chart
}

export function deleteChart(api: ApiClient, workbookId: string, chartId: string): Promise<unknown> {
  return api.delete(`/spreadsheet/workbook/${encodeURIComponent(workbookId)}/charts/${encodeURIComponent(chartId)}`)
}
