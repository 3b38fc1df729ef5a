import type { ChangesetService } from '../agent/changeset-service.js'
import type { EngineCache } from '../engine/engine-cache.js'
import type { PerformanceMetrics } from '../metrics/performance-metrics.js'
import type { SnapshotStore } from '../storage/snapshot-store.js'
import type { SpreadsheetRepository } from '../storage/spreadsheet-repository.js'
import type { VersionService } from '../workbooks/version-service.js'
import type { WorkbookService } from '../workbooks/workbook-service.js'
import type { VectorSearchClient } from '../workbooks/vector-search-client.js'

/** What the routes work with, built once in app.ts. */
export interface SpreadsheetServices {
  repo: SpreadsheetRepository
  snapshots: SnapshotStore
  cache: EngineCache
  metrics: PerformanceMetrics
  workbooks: WorkbookService
  versions: VersionService
  /** The vectordb service's cell search, when configured. */
  vectorSearch: VectorSearchClient | null
  changesets: ChangesetService
}
