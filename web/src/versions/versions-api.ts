import type { CompareVersionsResponse, ListVersionsResponse, ListWorkbooksResponse, RestoreVersionResponse, VersionRecord, WorkbookMetadata } from '@finsheet/contracts'
import type { ApiClient } from '../api/api-client'

/** The largest page the versions and workbooks routes give. */
const PAGE = 100
/** The newest versions the screen reads; the stat cards still count them all. */
export const MAX_VERSIONS_LOADED = 1000
/** Side-by-side comparisons list at most this many cells; the counts stay exact past it. */
export const COMPARE_CELL_LIMIT = 500

export interface VersionData {
  /** the user's versions, newest first, up to MAX_VERSIONS_LOADED */
  versions: VersionRecord[]
  /** every version was read */
  complete: boolean
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
    if (page.versions.length < PAGE || versions.length >= page.total || versions.length >= MAX_VERSIONS_LOADED) break
  }
  const workbooks: WorkbookMetadata[] = []
  for (let offset = 0; ; offset += PAGE) {
    const page = await api.get<ListWorkbooksResponse>('/spreadsheet/workbooks', { signal, query: { limit: PAGE, offset } })
    workbooks.push(...page.workbooks)
    if (page.workbooks.length < PAGE || workbooks.length >= page.total) break
  }
  return { versions, complete: versions.length >= first.total, totalVersions: first.totalVersions, activeWorkbooks: first.activeWorkbooks, workbooks }
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

/** The version of the same workbook numbered just before `version`, read from the service. */
export async function loadPreviousVersion(api: ApiClient, version: Pick<VersionRecord, 'workbookId' | 'number'>, signal?: AbortSignal): Promise<VersionRecord | undefined> {
  for (let offset = 0; ; offset += PAGE) {
    const page = await api.get<ListVersionsResponse>(`/spreadsheet/workbook/${encodeURIComponent(version.workbookId)}/versions`, { signal, query: { limit: PAGE, offset } })
    const found = page.versions.find((candidate) => candidate.number === version.number - 1)
    if (found) return found
    if (page.versions.length < PAGE) return undefined
  }
}
