/** The documents the spreadsheet service stores, one collection each. */
import type {
  ApprovalReason,
  CellStyle,
  CellType,
  CellValue,
  IterationLimits,
  ChangeKind,
  ChangeSource,
  ChangesetChart,
  ChangesetFormatChange,
  ChangesetStatus,
  ChangesetStructuralChange,
  ImportRecalculation,
  VersionType,
  WorkbookCommand,
  WorkbookFont,
} from '@finsheet/contracts'
import type { ChartRecord, DefinedNameRecord, ExternalLinkRecord, SheetRecord, TableRecord } from '@finsheet/workbook'
import type { LoggedCommand } from '../engine/commands.js'
import type { SheetLayout } from './sheet-layout.js'
import type { ChangesetView } from '../agent/changeset-view.js'

export interface SheetStats {
  cells: number
  formulas: number
}

export interface WorkbookDoc {
  id: string
  ownerId: string
  name: string
  /** Bumped by every change; an edit names the revision it was made on. */
  revision: number
  /** In workbook order. */
  sheets: SheetRecord[]
  sheetStats: Record<string, SheetStats>
  /**
   * Where the cell blocks keep the rows and columns of sheets whose rows or columns were inserted or
   * deleted since their cells were last written afresh (see sheet-layout.ts); absent for the others.
   */
  layouts?: Record<string, SheetLayout>
  definedNames: DefinedNameRecord[]
  /** Excel tables; absent when the workbook has none. */
  tables?: TableRecord[]
  charts: ChartRecord[]
  createdAt: string
  updatedAt: string
  isAIGenerated: boolean
  storageUrl: string | null
  templateId: string | null
  /** Circular references are iterated (absent on workbooks stored before the setting existed: off). */
  iterativeCalculation?: boolean
  /** Its limits, when the user set them (absent: Excel's defaults). */
  iterationLimits?: IterationLimits
  /** Other workbooks the formulas refer to (`[1]` is the first), with the values kept of them; absent for none. */
  externalLinks?: ExternalLinkRecord[]
  /** The font of cells that state none, when the workbook came with its own (an imported file's first font). */
  defaultFont?: WorkbookFont
  /** Charts and pictures of the file the workbook was imported from, kept to be written back on export; absent for none. */
  keptDrawings?: KeptDrawingRecord[]
  /** The revision the newest version shows; changes after it are waiting for one. */
  versionedRevision: number
  versionCount: number
  /**
   * The owner's uid on the user's first workbook (the one `defaultWorkbook` names), absent on every
   * other: a unique index keeps it to one per user.
   */
  defaultOf?: string | null
}

/**
 * A sheet's drawing kept from an imported file: the sheet it sits on, the file's sheet names its charts
 * read with the ids of the sheets they became (so renames follow), and where its parts are stored.
 */
export interface KeptDrawingRecord {
  sheetId: string
  sheetIds: Record<string, string>
  /** The blob holding the drawing's parts. */
  key: string
  charts: number
  pictures: number
}

/** A deleted workbook, kept with everything stored with it until it is restored or its time is up. */
export interface TrashedWorkbookDoc extends WorkbookDoc {
  trashedAt: string
  /** When it is erased for good. */
  restorableUntil: string
}

/** A cell as it was stored before blocks, one document each; read only to move it into blocks. */
export interface LegacyCellDoc {
  id: string
  workbookId: string
  sheetId: string
  address: string
  row: number
  col: number
  input: string
  value: CellValue
  type: CellType
  userFormat?: string
  suggestedFormat?: string
  style?: CellStyle
  revision: number
}

/** A new workbook whose blocks are being written in several transactions; gone once it is visible. */
export interface PendingWorkbookDoc {
  /** The workbook's id. */
  id: string
  ownerId: string
  startedAt: string
}

/** One import by its user's import id: what makes a repeated import answer with the first one's workbook. */
export interface ImportDoc {
  /** ownerId:importId */
  id: string
  ownerId: string
  importId: string
  workbookId: string
  at: string
  /** The recalculation report the import answered with. */
  recalculation: ImportRecalculation
}

/** One entry of a workbook's change log. Its id sorts by revision. */
export interface ChangeDoc {
  id: string
  workbookId: string
  revision: number
  /** The revision the change was made on (older than revision - 1 when merged). */
  baseRevision: number
  userId: string
  userName: string | null
  /** The client (browser tab) that made it, when it said; its undo acts on its own changes. */
  clientId?: string | null
  at: string
  kind: ChangeKind
  source: ChangeSource
  label: string
  /** Sheets named by id. Changes stored by older versions hold the form `fromStoredCommand` reads. */
  commands: LoggedCommand[]
  /** What undoes the change; null when it cannot be undone. */
  inverse: LoggedCommand[] | null
  undoable: boolean
  undone: boolean
  /** For undo changes: whether they were redone. */
  redone: boolean
  /** The change an undo or redo acted on. */
  target: string | null
  /** Cells whose content the change wrote, as sheetId!A1 (for merging stale edits). */
  touched: string[]
  structural: boolean
  cellCount: number
  /** The assistant's summary of an AI changeset. */
  summary: string | null
}

/** One change of one cell's input, for the cell history route. */
export interface CellHistoryDoc {
  id: string
  workbookId: string
  sheetId: string
  address: string
  revision: number
  changeId: string
  kind: ChangeKind
  oldInput: string
  newInput: string
  userId: string
  userName: string | null
  at: string
}

export interface VersionDoc {
  id: string
  workbookId: string
  ownerId: string
  number: number
  fileName: string
  author: string
  authorId: string
  timestamp: string
  type: VersionType
  changes: string
  aiSummary: string | null
  tags: string[]
  revision: number
  stats: { sheets: number; cells: number; formulas: number }
  /** Where the snapshot lives in the blob store. */
  snapshotKey: string
  restoredFrom: string | null
}

/**
 * An assistant's changeset: the commands its write tools produced (sheets by name, as the API sends
 * them), applied to the workbook only when the changeset is applied, as one change.
 */
export interface ChangesetDoc {
  id: string
  workbookId: string
  ownerId: string
  /** 'applying' while an apply is under way, so that a second apply or a write cannot race it. */
  status: ChangesetStatus | 'applying'
  /** Bumped by every write, so that two requests cannot both extend the same version. */
  version: number
  createdAt: string
  updatedAt: string
  commands: WorkbookCommand[]
  /** Cells (sheet id!A1) the changeset wrote: later writes may replace them without overwrite. */
  written: string[]
  structural: ChangesetStructuralChange[]
  formats: ChangesetFormatChange[]
  charts: ChangesetChart[]
  approvalReasons: ApprovalReason[]
  toolCalls: number
  view: ChangesetView
  description: string
  changeId: string | null
  appliedRevision: number | null
  appliedAt: string | null
}
