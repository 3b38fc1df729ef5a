import type { CellDifference, CompareVersionsResponse, VersionRecord, VersionType } from '@finsheet/contracts'
import { parseCellAddress } from '../grid/address'
import { plural } from '../ui/plural'

/** Spec 1 §2 Version Control texts and constants. */
export const SEARCH_PLACEHOLDER = 'Search by filename, author, changes, or tags...'
export const TEAM_MEMBERS = 4

export type VersionTypeFilter = 'all' | VersionType

export const TYPE_FILTERS: readonly { value: VersionTypeFilter; label: string }[] = [
  { value: 'all', label: 'All Changes' },
  { value: 'major', label: 'Major Changes' },
  { value: 'minor', label: 'Minor Changes' },
  { value: 'auto-save', label: 'Auto-saves' },
]

export const TYPE_BADGES: Record<VersionType, string> = { major: 'Major', minor: 'Minor', 'auto-save': 'Auto-save' }

/** Tags the service gives for how a version came about; the others name the sheets that changed. */
const ORIGIN_TAGS = new Set(['saved', 'template', 'import', 'ai', 'restore'])

const MINUTE_MS = 60_000
const HOUR_MS = 60 * MINUTE_MS
const DAY_MS = 24 * HOUR_MS

/** Spec 1 §9: under an hour in minutes, under a day in hours, otherwise in days. */
export function relativeTime(timestamp: string, now: number): string {
  const elapsed = Math.max(0, now - Date.parse(timestamp))
  if (elapsed < HOUR_MS) return `${plural(Math.floor(elapsed / MINUTE_MS), 'minute')} ago`
  if (elapsed < DAY_MS) return `${plural(Math.floor(elapsed / HOUR_MS), 'hour')} ago`
  return `${plural(Math.floor(elapsed / DAY_MS), 'day')} ago`
}

/** For each version, the version of the same workbook just before it (by number), if it is known. */
export function previousVersions(versions: readonly VersionRecord[]): Map<string, VersionRecord> {
  const byWorkbook = new Map<string, VersionRecord[]>()
  for (const version of versions) {
    const list = byWorkbook.get(version.workbookId) ?? []
    list.push(version)
    byWorkbook.set(version.workbookId, list)
  }
  const previous = new Map<string, VersionRecord>()
  for (const list of byWorkbook.values()) {
    list.sort((a, b) => a.number - b.number)
    for (let i = 1; i < list.length; i++) previous.set(list[i].id, list[i - 1])
  }
  return previous
}

function signed(count: number, noun: string): string {
  return `${count > 0 ? '+' : '−'}${plural(Math.abs(count), noun)}`
}

/**
 * The text of a version's 'AI Summary' box: the assistant's own summary when an AI changeset made
 * the version; otherwise one computed from the version's record — how it came about, which sheets
 * changed, how the counts of cells, formulas and sheets moved since the version before, and a
 * warning when formulas went away.
 */
export function versionSummary(version: VersionRecord, previous: VersionRecord | undefined, restoredFrom?: VersionRecord): string {
  if (version.aiSummary) return version.aiSummary
  const size = `${plural(version.cells, 'cell')} and ${plural(version.formulas, 'formula')} on ${plural(version.sheets, 'sheet')}`
  if (version.restoredFrom) {
    const source = restoredFrom ? `version ${restoredFrom.number} of ${relativeDate(restoredFrom.timestamp)}` : 'an earlier version'
    return `Brings back ${source}; the workbook holds ${size} again.`
  }
  if (!previous) {
    const origin = version.tags.includes('template') ? 'Created from a template' : version.tags.includes('import') ? 'Imported' : 'First saved state'
    return `${origin}: ${size}.`
  }
  const sheets = version.tags.filter((tag) => !ORIGIN_TAGS.has(tag))
  const kind = version.type === 'major' ? 'A major change' : version.type === 'minor' ? 'A small edit' : 'An automatic save of a larger batch of edits'
  const where = sheets.length > 0 ? ` on ${sheets.join(', ')}` : ''
  const moves = [
    [version.cells - previous.cells, 'cell'],
    [version.formulas - previous.formulas, 'formula'],
    [version.sheets - previous.sheets, 'sheet'],
  ] as const
  const moved = moves.filter(([delta]) => delta !== 0).map(([delta, noun]) => signed(delta, noun))
  const change = moved.length > 0 ? `: ${moved.join(', ')} since version ${previous.number}.` : ` that changed contents in place since version ${previous.number}.`
  const lostFormulas = previous.formulas - version.formulas
  const warning = lostFormulas > 0 ? ` ${plural(lostFormulas, 'formula')} fewer: check the results that depended on them.` : ''
  return `${kind}${where}${change} Now ${size}.${warning}`
}

function relativeDate(timestamp: string): string {
  return timestamp.slice(0, 16).replace('T', ' ') + ' UTC'
}

export interface VersionEntry {
  version: VersionRecord
  summary: string
}

export interface VersionFilters {
  search: string
  type: VersionTypeFilter
  /** a workbook name, or null for every workbook */
  workbook: string | null
}

/**
 * Spec 1 §4: search is a case-insensitive substring match over fileName, author, the change text,
 * the AI summary and tags; the type must equal the chosen one unless All; the workbook filter
 * requires fileName to start with the selected workbook's name.
 */
export function filterVersions(entries: readonly VersionEntry[], filters: VersionFilters): VersionEntry[] {
  const search = filters.search.trim().toLowerCase()
  return entries.filter(
    ({ version, summary }) =>
      (filters.type === 'all' || version.type === filters.type) &&
      (filters.workbook === null || version.fileName.startsWith(filters.workbook)) &&
      (search === '' || [version.fileName, version.author, version.changes, summary, ...version.tags].some((field) => field.toLowerCase().includes(search))),
  )
}

/** By Workbook: each workbook with the number of versions kept of it. */
export function versionCounts(workbooks: readonly { id: string; name: string }[], versions: readonly VersionRecord[]): { id: string; name: string; count: number }[] {
  const counts = new Map<string, number>()
  for (const version of versions) counts.set(version.workbookId, (counts.get(version.workbookId) ?? 0) + 1)
  return workbooks.map((workbook) => ({ ...workbook, count: counts.get(workbook.id) ?? 0 }))
}

/** Compare Versions takes two versions of one workbook, older first; null while that is not the case. */
export function comparisonPair(selected: readonly VersionRecord[]): { from: VersionRecord; to: VersionRecord } | null {
  if (selected.length !== 2 || selected[0].workbookId !== selected[1].workbookId) return null
  const [a, b] = selected
  return a.number <= b.number ? { from: a, to: b } : { from: b, to: a }
}

/** Selecting a version for comparison: a third choice replaces the oldest choice. */
export function toggleSelection(selected: readonly VersionRecord[], version: VersionRecord): VersionRecord[] {
  if (selected.some((v) => v.id === version.id)) return selected.filter((v) => v.id !== version.id)
  return [...selected, version].slice(-2)
}

// ---- side-by-side differences -----------------------------------------------------------------

export interface DiffRow {
  address: string
  status: CellDifference['status']
  /** what the cell held in the older version: formula and value, or the constant */
  before: string
  after: string
  /** the content was edited (not only recalculated) */
  edited: boolean
}

export interface SheetDiff {
  sheet: string
  rows: DiffRow[]
}

type CellState = NonNullable<CellDifference['before']>

function cellValueText(state: CellState): string {
  if (state.value === null) return ''
  if (typeof state.value === 'number') return Number.isInteger(state.value) ? String(state.value) : String(Number(state.value.toPrecision(12)))
  return String(state.value)
}

/** A cell's content as the comparison shows it: a formula with its value, or the constant typed. */
export function cellText(state: CellDifference['before']): string {
  if (state === null) return ''
  if (state.input.startsWith('=')) return `${state.input} → ${cellValueText(state)}`
  return state.input === '' ? cellValueText(state) : state.input
}

function addressOrder(a: string, b: string): number {
  const pa = parseCellAddress(a)
  const pb = parseCellAddress(b)
  if (!pa || !pb) return a.localeCompare(b)
  return pa.row - pb.row || pa.col - pb.col
}

/** The comparison's cells by sheet (in the order the sheets first appear), each sheet in reading order. */
export function sheetDiffs(comparison: Pick<CompareVersionsResponse, 'cells'>): SheetDiff[] {
  const sheets = new Map<string, DiffRow[]>()
  for (const cell of comparison.cells) {
    const rows = sheets.get(cell.sheet) ?? []
    rows.push({ address: cell.address, status: cell.status, before: cellText(cell.before), after: cellText(cell.after), edited: cell.inputChanged || cell.status !== 'changed' })
    sheets.set(cell.sheet, rows)
  }
  return [...sheets].map(([sheet, rows]) => ({ sheet, rows: rows.sort((a, b) => addressOrder(a.address, b.address)) }))
}

/** One line on the size of a comparison. */
export function comparisonHeadline(comparison: Pick<CompareVersionsResponse, 'summary' | 'sheets'>): string {
  const { summary, sheets } = comparison
  // inputsChanged counts added and removed cells too; `changed` counts edited and recalculated cells
  const edited = summary.inputsChanged - summary.added - summary.removed
  const recalculated = summary.changed - edited
  const parts = [
    summary.added > 0 ? `${plural(summary.added, 'cell')} added` : '',
    summary.removed > 0 ? `${plural(summary.removed, 'cell')} removed` : '',
    edited > 0 ? `${plural(edited, 'cell')} edited` : '',
    recalculated > 0 ? `${plural(recalculated, 'value')} recalculated` : '',
    ...sheets.added.map((name) => `sheet ${name} added`),
    ...sheets.removed.map((name) => `sheet ${name} removed`),
    ...sheets.renamed.map((rename) => `sheet ${rename.from} renamed to ${rename.to}`),
  ].filter(Boolean)
  return parts.length > 0 ? parts.join(', ') : 'No cell differs between these versions'
}
