import { Type, type Static } from 'typebox'
import { JobState, StrictObject } from './common.js'
import { ImportMismatch } from './spreadsheet.js'

export const FileKind = Type.Union([Type.Literal('xlsx'), Type.Literal('xls'), Type.Literal('csv'), Type.Literal('pdf')])
export type FileKind = Static<typeof FileKind>

export const FileStatus = Type.Union([Type.Literal('uploaded'), Type.Literal('processing'), Type.Literal('processed'), Type.Literal('failed')])
export type FileStatus = Static<typeof FileStatus>

/** Spec 2 §3 PDF extraction result entry. */
export const PdfEntry = Type.Object({
  label: Type.String(),
  value: Type.Number(),
  notes: Type.String(),
})
export type PdfEntry = Static<typeof PdfEntry>

/** What an xlsx or csv import found: the file's counts, the recalculation against its cached values, and what was left out. */
export const ImportReport = Type.Object({
  sheets: Type.Integer(),
  cells: Type.Integer(),
  formulas: Type.Integer(),
  /** Formula cells whose value matches the cached one. */
  matched: Type.Integer(),
  /** How many formula cells differ; `mismatches` lists the first of them. */
  mismatchCount: Type.Integer(),
  mismatches: Type.Array(ImportMismatch),
  /** What the workbook model cannot hold and the import left out, such as row heights or borders. */
  notKept: Type.Array(Type.String()),
})
export type ImportReport = Static<typeof ImportReport>

/** Spec 2 §3 File record: processedData. */
export const ProcessedData = Type.Object({
  workbookId: Type.Union([Type.String(), Type.Null()]),
  modelId: Type.Union([Type.String(), Type.Null()]),
  sheets: Type.Array(Type.String()),
  cellsProcessed: Type.Integer(),
  formulasProcessed: Type.Integer(),
  hasData: Type.Boolean(),
  /** A PDF's extracted entries. */
  data: Type.Optional(Type.Array(PdfEntry)),
  report: Type.Optional(ImportReport),
})
export type ProcessedData = Static<typeof ProcessedData>

/** Spec 2 §3 File record, as every files route answers it. */
export const FileRecord = Type.Object({
  id: Type.String(),
  name: Type.String({ description: 'The uploaded name, made safe: no folders, no control characters' }),
  size: Type.Integer(),
  mimeType: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  kind: FileKind,
  status: FileStatus,
  /** Why processing failed, as a person can read it. */
  error: Type.Union([Type.String(), Type.Null()]),
  /** The job that processes (or last processed) the file. */
  jobId: Type.Union([Type.String(), Type.Null()]),
  url: Type.Union([Type.String(), Type.Null()]),
  downloadUrl: Type.Union([Type.String(), Type.Null()]),
  storageUrl: Type.Union([Type.String(), Type.Null()]),
  storagePath: Type.String(),
  isExcel: Type.Boolean(),
  isPdf: Type.Boolean(),
  isAIGenerated: Type.Boolean(),
  isUserUploadedWorkbook: Type.Boolean(),
  isVectorDBModel: Type.Boolean(),
  isBackendProcessed: Type.Boolean(),
  processed: Type.Boolean(),
  processedData: Type.Union([ProcessedData, Type.Null()]),
  workbookId: Type.Union([Type.String(), Type.Null()]),
  processedWorkbookId: Type.Union([Type.String(), Type.Null()]),
  modelType: Type.Union([Type.String(), Type.Null()]),
  companyName: Type.Union([Type.String(), Type.Null()]),
  cellsProcessed: Type.Integer(),
  formulasProcessed: Type.Integer(),
})
export type FileRecord = Static<typeof FileRecord>

export const UploadFileResponse = Type.Object({
  success: Type.Literal(true),
  file: FileRecord,
  /** Follow it at GET /api/files/jobs/{jobId}. */
  jobId: Type.String(),
})
export type UploadFileResponse = Static<typeof UploadFileResponse>

export const FileListTab = Type.Union([Type.Literal('all'), Type.Literal('excel'), Type.Literal('pdf'), Type.Literal('other')], {
  description: 'The file manager tabs: All Files, Excel Workbooks, PDF Documents, Other Files',
})
export type FileListTab = Static<typeof FileListTab>

export const ListFilesQuery = StrictObject({
  type: Type.Optional(FileListTab),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
})
export type ListFilesQuery = Static<typeof ListFilesQuery>

export const ListFilesResponse = Type.Object({
  success: Type.Literal(true),
  files: Type.Array(FileRecord),
  total: Type.Integer(),
})
export type ListFilesResponse = Static<typeof ListFilesResponse>

export const FileIdParams = StrictObject({ id: Type.String({ minLength: 1, maxLength: 100 }) })
export type FileIdParams = Static<typeof FileIdParams>

export const FileResponse = Type.Object({
  success: Type.Literal(true),
  file: FileRecord,
})
export type FileResponse = Static<typeof FileResponse>

export const DeleteFileResponse = Type.Object({
  success: Type.Literal(true),
  id: Type.String(),
})
export type DeleteFileResponse = Static<typeof DeleteFileResponse>

export const ImportFileBody = StrictObject({
  fileId: Type.String({ minLength: 1, maxLength: 100 }),
  /** The new workbook's name; default the file's name without its extension. */
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
})
export type ImportFileBody = Static<typeof ImportFileBody>

/** Spec 2 §3 Upload result, plus the job and the report. */
export const ImportFileResponse = Type.Object({
  success: Type.Boolean(),
  workbookId: Type.Union([Type.String(), Type.Null()]),
  cellCount: Type.Integer(),
  formulaCount: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
  jobId: Type.String(),
  fileId: Type.String(),
  /** True while the job still runs (the answer came before it finished); follow jobId. */
  pending: Type.Boolean(),
  report: Type.Union([ImportReport, Type.Null()]),
})
export type ImportFileResponse = Static<typeof ImportFileResponse>

export const ImportFromFileParams = StrictObject({ fileId: Type.String({ minLength: 1, maxLength: 100 }) })
export type ImportFromFileParams = Static<typeof ImportFromFileParams>

export const JobIdParams = StrictObject({ id: Type.String({ minLength: 1, maxLength: 200 }) })
export type JobIdParams = Static<typeof JobIdParams>

/** What a files.process job ends with. */
export const FileJobResult = Type.Object({
  fileId: Type.String(),
  kind: FileKind,
  workbookId: Type.Union([Type.String(), Type.Null()]),
  cellCount: Type.Integer(),
  formulaCount: Type.Integer(),
  data: Type.Optional(Type.Array(PdfEntry)),
  report: Type.Optional(ImportReport),
  /**
   * Where the time went: reading the file, then storing the workbook (sending it, its recalculation and
   * the check of cached values). An xlsx file's cells are read as they are sent: `readMs` is then the
   * read of everything but the cells, `storeMs` includes reading them.
   */
  timings: Type.Optional(Type.Object({ readMs: Type.Integer(), storeMs: Type.Integer() })),
})
export type FileJobResult = Static<typeof FileJobResult>

/** GET /api/files/jobs/{id}: the job's real progress (0–100). */
export const FileJobResponse = Type.Object({
  id: Type.String(),
  name: Type.String(),
  state: JobState,
  progress: Type.Number({ minimum: 0, maximum: 100 }),
  result: Type.Union([FileJobResult, Type.Null()]),
  /** Why the job failed, as a person can read it (also as failedReason). */
  error: Type.Union([Type.String(), Type.Null()]),
  failedReason: Type.Optional(Type.String()),
  attemptsMade: Type.Integer(),
  fileId: Type.String(),
})
export type FileJobResponse = Static<typeof FileJobResponse>

/** Spec 2 §3 PDF extraction result: POST /api/ai/processDocument. */
export const PdfExtractionResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(PdfEntry),
  pages: Type.Integer(),
  fileName: Type.String(),
})
export type PdfExtractionResponse = Static<typeof PdfExtractionResponse>

/** POST /api/ai/analyze-document: the extraction plus figures computed from it. */
export const DocumentAnalysisResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(PdfEntry),
  pages: Type.Integer(),
  fileName: Type.String(),
  analysis: Type.Object({
    entries: Type.Integer(),
    summary: Type.String(),
    /** Entries whose label names a known statement line, by line: revenue, netIncome... */
    keyFigures: Type.Record(Type.String(), Type.Number()),
    /** Ratios computable from the key figures, such as netMargin. */
    ratios: Type.Record(Type.String(), Type.Number()),
  }),
})
export type DocumentAnalysisResponse = Static<typeof DocumentAnalysisResponse>
