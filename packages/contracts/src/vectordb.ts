/**
 * The vector search area (/api/vectordb): formula search over the engine's function catalogue, cell
 * search over the user's indexed workbooks, workbook indexing on a queue, and a structured analysis
 * of a workbook.
 */
import { Type, type Static } from 'typebox'
import { StrictObject } from './common.js'
import { CellValue } from './spreadsheet.js'
import { DEFAULT_SEARCH_LIMIT, MAX_QUERY_LENGTH, MAX_SEARCH_LIMIT } from './constants.js'

export const SearchOptions = StrictObject({
  /** Up to 20 by default, as the vector search has always answered. */
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SEARCH_LIMIT, default: DEFAULT_SEARCH_LIMIT })),
})
export type SearchOptions = Static<typeof SearchOptions>

const Query = Type.String({ minLength: 1, maxLength: MAX_QUERY_LENGTH, description: 'What to look for, in words' })

export const SearchFormulasBody = StrictObject({ query: Query, options: Type.Optional(SearchOptions) })
export type SearchFormulasBody = Static<typeof SearchFormulasBody>

export const FormulaMatch = Type.Object({
  name: Type.String(),
  syntax: Type.String(),
  description: Type.String(),
  category: Type.String(),
  example: Type.String(),
  score: Type.Number({ description: 'Higher is closer; a function named exactly scores above any other' }),
})
export type FormulaMatch = Static<typeof FormulaMatch>

export const SearchFormulasResponse = Type.Object({ query: Type.String(), results: Type.Array(FormulaMatch) })
export type SearchFormulasResponse = Static<typeof SearchFormulasResponse>

export const VectorSearchCellsBody = StrictObject({
  query: Query,
  /** Only this workbook (the caller's own); all of the caller's indexed workbooks otherwise. */
  workbookId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  options: Type.Optional(SearchOptions),
})
export type VectorSearchCellsBody = Static<typeof VectorSearchCellsBody>

/** What an indexed cell is: a row label with its row, a column header, a value or formula cell, other text. */
export const IndexedCellKind = Type.Union([Type.Literal('label'), Type.Literal('header'), Type.Literal('cell'), Type.Literal('text')])
export type IndexedCellKind = Static<typeof IndexedCellKind>

export const CellMatch = Type.Object({
  workbookId: Type.String(),
  workbookName: Type.String(),
  sheet: Type.String(),
  address: Type.String(),
  /** The row label (or, for a header, the header itself) the cell is known by. */
  label: Type.String(),
  /** The column header above the cell, when there is one. */
  header: Type.Union([Type.String(), Type.Null()]),
  value: CellValue,
  formula: Type.Union([Type.String(), Type.Null()]),
  kind: IndexedCellKind,
  score: Type.Number(),
})
export type CellMatch = Static<typeof CellMatch>

export const VectorSearchCellsResponse = Type.Object({ query: Type.String(), results: Type.Array(CellMatch) })
export type VectorSearchCellsResponse = Static<typeof VectorSearchCellsResponse>

export const IndexWorkbookParams = StrictObject({ id: Type.String({ minLength: 1, maxLength: 64 }) })

export const IndexWorkbookResponse = Type.Object({
  success: Type.Literal(true),
  workbookId: Type.String(),
  jobId: Type.String({ description: 'Read its progress at GET /api/vectordb/jobs/{jobId}' }),
})
export type IndexWorkbookResponse = Static<typeof IndexWorkbookResponse>

/** A job on the vectordb.index-workbook queue: the user id, never a token. */
export interface IndexWorkbookJobData {
  action: 'index' | 'remove'
  workbookId: string
  userId: string
}

export const IndexWorkbookJobResult = Type.Object({
  workbookId: Type.String(),
  /** Points written: row labels, headers, cells and texts. */
  indexed: Type.Integer(),
  removed: Type.Boolean(),
})
export type IndexWorkbookJobResult = Static<typeof IndexWorkbookJobResult>

export const IndexedWorkbook = Type.Object({
  workbookId: Type.String(),
  name: Type.String(),
  /** Points in the index for it. */
  points: Type.Integer(),
  revision: Type.Integer(),
  indexedAt: Type.String({ format: 'date-time' }),
})
export type IndexedWorkbook = Static<typeof IndexedWorkbook>

export const IndexedWorkbooksResponse = Type.Object({ workbooks: Type.Array(IndexedWorkbook) })
export type IndexedWorkbooksResponse = Static<typeof IndexedWorkbooksResponse>

export const AnalysisType = Type.Union([
  Type.Literal('overview'),
  Type.Literal('drivers'),
  Type.Literal('outputs'),
  Type.Literal('errors'),
  Type.Literal('hardcodes'),
])
export type AnalysisType = Static<typeof AnalysisType>

export const AnalyzeWorkbookBody = StrictObject({
  workbookId: Type.String({ minLength: 1, maxLength: 64 }),
  /** overview (everything, the default), or one part of it. */
  analysisType: Type.Optional(AnalysisType),
  options: Type.Optional(
    StrictObject({
      /** Most items listed in each part. */
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20 })),
      sheet: Type.Optional(Type.String({ maxLength: 64 })),
    }),
  ),
})
export type AnalyzeWorkbookBody = Static<typeof AnalyzeWorkbookBody>

const CellRef = {
  sheet: Type.String(),
  address: Type.String(),
  label: Type.Union([Type.String(), Type.Null()]),
}

export const AnalysisFinding = Type.Object({
  ...CellRef,
  value: CellValue,
  formula: Type.Union([Type.String(), Type.Null()]),
  /** Why it is listed, in a sentence. */
  reason: Type.String(),
  /** Cells whose value depends on it (drivers), or that it depends on (outputs). */
  reach: Type.Integer(),
})
export type AnalysisFinding = Static<typeof AnalysisFinding>

export const WorkbookAnalysis = Type.Object({
  workbookId: Type.String(),
  workbookName: Type.String(),
  analysisType: AnalysisType,
  /** Input cells most of the model depends on. */
  keyDrivers: Type.Array(AnalysisFinding),
  /** Results nothing else uses: what the model is for. */
  outputs: Type.Array(AnalysisFinding),
  /** Cells showing an error value, with its cause when it is another cell. */
  errors: Type.Array(AnalysisFinding),
  /** Numbers typed into rows that are otherwise formulas: easy to miss when the inputs change. */
  hardcodedNumbers: Type.Array(AnalysisFinding),
  summary: Type.String({ description: 'A short account of the findings, in prose' }),
  /** Who wrote the summary: the rules, or the configured model. */
  narrator: Type.String(),
  stats: Type.Object({ sheets: Type.Integer(), cells: Type.Integer(), formulas: Type.Integer(), inputs: Type.Integer() }),
})
export type WorkbookAnalysis = Static<typeof WorkbookAnalysis>

export const AnalyzeWorkbookResponse = Type.Object({ success: Type.Literal(true), analysis: WorkbookAnalysis })
export type AnalyzeWorkbookResponse = Static<typeof AnalyzeWorkbookResponse>
