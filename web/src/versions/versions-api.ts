import type { CompareVersionsResponse, ListVersionsResponse, ListWorkbooksResponse, RestoreVersionResponse, VersionRecord, WorkbookMetadata } from '@finsheet/contracts'
import type { ApiClient } from '../api/api-client'

/** The largest page the versions and workbooks routes give. */
const PAGE = 100
/** Side-by-side comparisons list at most this many cells; the counts stay exact past it. */
export const COMPARE_CELL_LIMIT = 500

export interface VersionData {
  /** every version of the user's workbooks, newest first */
  versions: VersionRecord[]
  totalVersions: number
  activeWorkbooks: number
  workbooks: WorkbookMetadata[]
}

export async function loadVersionData(api: ApiClient, signal?: AbortSignal): Promise<VersionData> {
  const versions: VersionRecord[] = []
  let first: ListVersionsResponse | null = null
  for (let offset = 0; ; offset += PAGE) {
    const page = await api.get<ListVersionsResponse>('/spreadsheet/versions', { signal, query: { limit: PAGE, offset } })
    first ??= page
    versions.push(...page.versions)
    if (page.versions.length < PAGE || versions.length >= page.total) break
  }
  const workbooks: WorkbookMetadata[] = []
  for (let offset = 0; ; offset += PAGE) {
    const page = await api.get<ListWorkbooksResponse>('/spreadsheet/workbooks', { signal, query: { limit: PAGE, offset } })
    workbooks.push(...page.workbooks)
    if (page.workbooks.length < PAGE || workbooks.length >= page.total) break
  }
  return { versions, totalVersions: first.totalVersions, activeWorkbooks: first.activeWorkbooks, workbooks }
}

export function compareVersions(api: ApiClient, workbookId: string, from: string, to: string, signal?: AbortSignal): Promise<CompareVersionsResponse> {
  return api.get<CompareVersionsResponse>(`/spreadsheet/workbook/${encodeURIComponent(workbookId)}/versions/compare`, {
    signal,
    query: { from, to, limit: COMPARE_CELL_LIMIT },
  })
}

export function restoreVersion(api: ApiClient, version: Pick<VersionRecord, 'workbookId' | 'id'>): Promise<RestoreVersionResponse> {
  return api.post<RestoreVersionResponse>(`/spreadsheet/workbook/${encodeURIComponent(version.workbookId)}/versions/${encodeURIComponent(version.id)}/restore`, {})
}
