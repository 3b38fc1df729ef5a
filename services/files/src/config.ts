import { Type, type Static } from 'typebox'
import { loadConfig, platformEnvProperties, usersUrlProperty } from '@finsheet/platform'
import { DEFAULT_IMPORT_LIMITS } from '@finsheet/workbook'

export const FilesEnv = Type.Object({
  ...platformEnvProperties,
  PORT: Type.Integer({ default: 3003, minimum: 0, maximum: 65_535 }),
  ...usersUrlProperty,
  SPREADSHEET_URL: Type.String({ pattern: '^https?://[^\\s]+$', default: 'http://127.0.0.1:3002', description: 'The spreadsheet service, which stores imported workbooks' }),
  /** auto: process jobs in this process when the queue is the embedded one, and leave them to files-worker with Redis. */
  RUN_WORKER: Type.Union([Type.Literal('auto'), Type.Literal('true'), Type.Literal('false')], { default: 'auto' }),
  WORKER_CONCURRENCY: Type.Integer({ default: 1, minimum: 1, maximum: 16 }),
  IMPORT_MAX_CELLS: Type.Integer({ default: DEFAULT_IMPORT_LIMITS.maxCells, minimum: 1 }),
  IMPORT_MAX_UNCOMPRESSED_BYTES: Type.Integer({ default: DEFAULT_IMPORT_LIMITS.maxUncompressedBytes, minimum: 1024 }),
  /** How long upload-excel and the import routes wait for their job before answering with it still running. */
  IMPORT_WAIT_MS: Type.Integer({ default: 120_000, minimum: 0 }),
  /** Where workers keep a file while they process it; default the system's temporary folder. */
  WORK_DIR: Type.Optional(Type.String({ minLength: 1 })),
  /** A file the worker touches after each poll, for container health checks; default in the temporary folder. */
  WORKER_HEARTBEAT_FILE: Type.Optional(Type.String({ minLength: 1 })),
})
export type FilesConfig = Static<typeof FilesEnv>

export function loadFilesConfig(env: Record<string, string | undefined> = process.env): FilesConfig {
  return loadConfig(FilesEnv, env)
}
