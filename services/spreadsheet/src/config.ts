import { Type, type Static } from 'typebox'
import { loadConfig, platformEnvProperties } from '@finsheet/platform'

export const SpreadsheetEnv = Type.Object({
  ...platformEnvProperties,
  PORT: Type.Integer({ default: 3002, minimum: 0, maximum: 65_535 }),
  /** Quiet time after the last change before an automatic version is made; 0 turns them off. */
  AUTOSAVE_QUIET_MS: Type.Integer({ default: 30_000, minimum: 0 }),
  /** Open workbooks (engines) kept in memory at most. */
  ENGINE_CACHE_WORKBOOKS: Type.Integer({ default: 32, minimum: 1 }),
  /** Cells kept in open engines at most, across workbooks. */
  ENGINE_CACHE_CELLS: Type.Integer({ default: 3_000_000, minimum: 1000 }),
  /** Largest body of a bulk import (a parsed workbook from the files service), in bytes. */
  IMPORT_LIMIT_BYTES: Type.Integer({ default: 256 * 1024 * 1024, minimum: 1024 }),
  /** The vectordb service, asked by search-cells with `semantic: true`. */
  VECTORDB_URL: Type.String({ pattern: '^https?://[^\\s]+$', default: 'http://127.0.0.1:3005', description: 'The vectordb service, for semantic cell search' }),
  /** Quiet time after a workbook's last change before the vector search indexes it again; 0 stops indexing. */
  SEARCH_INDEX_QUIET_MS: Type.Integer({ default: 5_000, minimum: 0 }),
  /**
   * Replicas of the service run in worker threads behind its port, so that one workbook's calculation
   * never holds another's requests; 0 runs it on the process's own event loop.
   */
  SPREADSHEET_THREADS: Type.Integer({ default: 2, minimum: 0, maximum: 64 }),
  /** Each thread's heap limit in MB: a workbook needing more stops its thread, which is replaced. */
  SPREADSHEET_THREAD_MEMORY_MB: Type.Integer({ default: 4096, minimum: 256 }),
  /**
   * Each thread's young generation in MB (V8 makes it three semi-spaces of a third each). V8's own
   * default (48 MB) stays resident once a thread has started; with 12 a million-cell import peaks
   * about 80 MB lower with two threads and runs as fast (bench:import).
   */
  SPREADSHEET_THREAD_YOUNG_MB: Type.Integer({ default: 12, minimum: 3, maximum: 256 }),
})
export type SpreadsheetConfig = Static<typeof SpreadsheetEnv>

export function loadSpreadsheetConfig(env: Record<string, string | undefined> = process.env): SpreadsheetConfig {
  return loadConfig(SpreadsheetEnv, env)
}
