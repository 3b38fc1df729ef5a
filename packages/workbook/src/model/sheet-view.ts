/**
 * A sheet's layout beyond its column widths, as Excel keeps it with the workbook: frozen panes, the
 * sheet hidden, and per row or column a height, a hidden flag and an outline level. The `set-sheet-view`
 * command changes it; its inverse writes back exactly what the spans it touched held before.
 */
import { MAX_OUTLINE_LEVEL, MAX_ROW_HEIGHT, MAX_VIEW_SPAN, type AxisEntry, type AxisSpan, type SetSheetViewCommand, type SheetViewState } from '@finsheet/contracts'
import { MAX_COL, MAX_ROW, moveIndex, type StructuralEdit } from './a1.js'
import { commandErrors } from './command-checks.js'
import { copyFilter, movedFilter } from './sheet-filter.js'
import { annotationEdits, checkAnnotations, movedAnnotations, writeAnnotations } from './cell-annotations.js'
import { checkPageSetup, copyPageSetup, movedPageSetup } from './page-setup.js'

export type { AxisEntry, SheetViewState }
type Axis = 'rows' | 'columns'
type SpanFields = Omit<AxisSpan, 'from' | 'to'>
const SPAN_FIELDS = ['height', 'hidden', 'level', 'collapsed'] as const

/** Whether a view holds nothing, so that a sheet without one stores none. */
export function isEmptyView(view: SheetViewState | undefined): boolean {
  if (!view) return true
  return (
    !view.frozenRows &&
    !view.frozenColumns &&
    !view.hidden &&
    isEmptyRecord(view.rows) &&
    isEmptyRecord(view.columns) &&
    view.tabColor === undefined &&
    view.showGridLines !== false &&
    view.zoom === undefined &&
    isEmptyRecord(view.notes) &&
    isEmptyRecord(view.links) &&
    !view.filter &&
    !copyPageSetup(view.pageSetup)
  )
}

const isEmptyRecord = (record: Record<string, unknown> | undefined) => record === undefined || Object.keys(record).length === 0

/** A deep copy, dropping what is empty. */
export function copyView(view: SheetViewState | undefined): SheetViewState | undefined {
  if (isEmptyView(view)) return undefined
  const copy: SheetViewState = {}
  if (view!.frozenRows) copy.frozenRows = view!.frozenRows
  if (view!.frozenColumns) copy.frozenColumns = view!.frozenColumns
  if (view!.hidden) copy.hidden = true
  if (view!.filter) copy.filter = copyFilter(view!.filter)
  if (view!.hidden && view!.veryHidden) copy.veryHidden = true
  const pageSetup = copyPageSetup(view!.pageSetup)
  if (pageSetup) copy.pageSetup = pageSetup
  for (const axis of ['rows', 'columns'] as const) {
    const entries = view![axis]
    if (isEmptyRecord(entries)) continue
    const out: Record<string, AxisEntry> = {}
    for (const [index, entry] of Object.entries(entries!)) out[index] = { ...entry }
    copy[axis] = out
  }
  if (view!.tabColor !== undefined) copy.tabColor = view!.tabColor
  if (view!.showGridLines === false) copy.showGridLines = false
  if (view!.zoom !== undefined) copy.zoom = view!.zoom
  if (!isEmptyRecord(view!.notes)) copy.notes = Object.fromEntries(Object.entries(view!.notes!).map(([address, note]) => [address, { ...note }]))
  if (!isEmptyRecord(view!.links)) copy.links = { ...view!.links }
  return copy
}

function checkSpans(axis: Axis, spans: readonly AxisSpan[]): void {
  const last = axis === 'rows' ? MAX_ROW : MAX_COL
  const noun = axis === 'rows' ? 'row' : 'column'
  let total = 0
  for (const span of spans) {
    if (!Number.isInteger(span.from) || !Number.isInteger(span.to) || span.from < 0 || span.to > last || span.from > span.to) {
      throw commandErrors.invalidCommand(`There is no ${noun} span ${span.from + 1} to ${span.to + 1}`)
    }
    total += span.to - span.from + 1
    if (axis === 'columns' && span.height !== undefined) throw commandErrors.invalidCommand('Columns have widths, not heights: resize them with resize-column')
    if (span.height !== undefined && span.height !== null && !(span.height >= 0 && span.height <= MAX_ROW_HEIGHT)) {
      throw commandErrors.invalidCommand(`A row height runs from 0 to ${MAX_ROW_HEIGHT} pixels`)
    }
    if (span.level !== undefined && !(Number.isInteger(span.level) && span.level >= 0 && span.level <= MAX_OUTLINE_LEVEL)) {
      throw commandErrors.invalidCommand(`Rows and columns can be grouped at most ${MAX_OUTLINE_LEVEL} levels deep`)
    }
  }
  if (total > MAX_VIEW_SPAN) throw commandErrors.invalidCommand(`At most ${MAX_VIEW_SPAN.toLocaleString('en-US')} ${noun}s can be changed at once`)
}

/** An entry with a span's fields written: null height, false flags and level 0 remove them. */
function written(entry: AxisEntry | undefined, span: SpanFields): AxisEntry | undefined {
  const next: AxisEntry = { ...entry }
  if (span.height !== undefined) {
    if (span.height === null) delete next.height
    else next.height = span.height
  }
  if (span.hidden !== undefined) {
    if (span.hidden) next.hidden = true
    else delete next.hidden
  }
  if (span.level !== undefined) {
    if (span.level > 0) next.level = span.level
    else delete next.level
  }
  if (span.collapsed !== undefined) {
    if (span.collapsed) next.collapsed = true
    else delete next.collapsed
  }
  return Object.keys(next).length > 0 ? next : undefined
}

/** The fields of a span as an entry holds them now, in the span's terms (so that writing them back restores it). */
function fieldsOf(entry: AxisEntry | undefined, span: SpanFields): SpanFields {
  const fields: SpanFields = {}
  if (span.height !== undefined) fields.height = entry?.height ?? null
  if (span.hidden !== undefined) fields.hidden = entry?.hidden ?? false
  if (span.level !== undefined) fields.level = entry?.level ?? 0
  if (span.collapsed !== undefined) fields.collapsed = entry?.collapsed ?? false
  return fields
}

const sameFields = (a: SpanFields, b: SpanFields) => SPAN_FIELDS.every((field) => a[field] === b[field])

/** Writes spans into one axis's entries; returns the entries and the spans that write back what was there. */
function writeSpans(entries: Record<string, AxisEntry> | undefined, spans: readonly AxisSpan[]): { entries: Record<string, AxisEntry>; undo: AxisSpan[] } {
  const next: Record<string, AxisEntry> = { ...entries }
  const undo: AxisSpan[] = []
  for (const span of spans) {
    // Runs of indexes that held the same before, each written back as one span.
    const before: AxisSpan[] = []
    for (let index = span.from; index <= span.to; index++) {
      const key = String(index)
      const old = fieldsOf(next[key], span)
      const run = before[before.length - 1]
      if (run && run.to === index - 1 && sameFields(run, old)) run.to = index
      else before.push({ from: index, to: index, ...old })
      const entry = written(next[key], span)
      if (entry) next[key] = entry
      else delete next[key]
    }
    undo.unshift(...before)
  }
  return { entries: next, undo }
}

/**
 * Applies a set-sheet-view command to a view; `otherVisibleSheets` says how many other sheets are shown,
 * since a workbook keeps at least one. Returns the new view and the command (without `type` and
 * `sheet`) that undoes it.
 */
export function applySheetView(
  view: SheetViewState | undefined,
  command: SetSheetViewCommand,
  otherVisibleSheets: number,
): { view: SheetViewState | undefined; undo: Omit<SetSheetViewCommand, 'type' | 'sheet'> } {
  if (command.frozenRows !== undefined && !(Number.isInteger(command.frozenRows) && command.frozenRows >= 0 && command.frozenRows <= MAX_ROW)) {
    throw commandErrors.invalidCommand(`Cannot freeze ${command.frozenRows} rows`)
  }
  if (command.frozenColumns !== undefined && !(Number.isInteger(command.frozenColumns) && command.frozenColumns >= 0 && command.frozenColumns <= MAX_COL)) {
    throw commandErrors.invalidCommand(`Cannot freeze ${command.frozenColumns} columns`)
  }
  if (command.rows) checkSpans('rows', command.rows)
  if (command.columns) checkSpans('columns', command.columns)
  if (command.hidden === true && !view?.hidden && otherVisibleSheets === 0) throw commandErrors.lastVisibleSheet()
  checkAnnotations(command)
  if (command.pageSetup) checkPageSetup(command.pageSetup)

  const next: SheetViewState = copyView(view) ?? {}
  const undo: Omit<SetSheetViewCommand, 'type' | 'sheet'> = {}
  if (command.frozenRows !== undefined) {
    undo.frozenRows = view?.frozenRows ?? 0
    next.frozenRows = command.frozenRows
  }
  if (command.frozenColumns !== undefined) {
    undo.frozenColumns = view?.frozenColumns ?? 0
    next.frozenColumns = command.frozenColumns
  }
  if (command.hidden !== undefined) {
    undo.hidden = view?.hidden ?? false
    if (view?.hidden && view.veryHidden) undo.veryHidden = true
    next.hidden = command.hidden
    if (command.hidden && command.veryHidden) next.veryHidden = true
    else delete next.veryHidden
  }
  if (command.pageSetup !== undefined) {
    undo.pageSetup = copyPageSetup(view?.pageSetup) ?? null
    const pageSetup = copyPageSetup(command.pageSetup)
    if (pageSetup) next.pageSetup = pageSetup
    else delete next.pageSetup
  }
  for (const axis of ['rows', 'columns'] as const) {
    const spans = command[axis]
    if (!spans || spans.length === 0) continue
    const { entries, undo: back } = writeSpans(next[axis], spans)
    next[axis] = entries
    undo[axis] = back
  }
  if (command.tabColor !== undefined) {
    undo.tabColor = view?.tabColor ?? null
    if (command.tabColor === null) delete next.tabColor
    else next.tabColor = command.tabColor
  }
  if (command.showGridLines !== undefined) {
    undo.showGridLines = view?.showGridLines !== false
    if (command.showGridLines) delete next.showGridLines
    else next.showGridLines = false
  }
  if (command.zoom !== undefined) {
    undo.zoom = view?.zoom ?? null
    if (command.zoom === null || command.zoom === 100) delete next.zoom
    else next.zoom = command.zoom
  }
  Object.assign(undo, writeAnnotations(next, command))
  return { view: copyView(next), undo }
}

/**
 * The view after rows or columns were inserted or deleted: entries move with them, deleted ones go;
 * the filter's range grows, shrinks or moves like a merge's; frozen panes stay.
 */
export function movedView(view: SheetViewState | undefined, edit: StructuralEdit): SheetViewState | undefined {
  if (view?.filter) {
    const filter = movedFilter(view.filter, edit)
    const { filter: _old, ...rest } = view
    view = filter ? { ...rest, filter } : rest
  }
  if (view?.pageSetup) view = copyView({ ...view, pageSetup: movedPageSetup(view.pageSetup, edit) })
  const entries = view?.[edit.axis]
  if (!view || (isEmptyRecord(entries) && isEmptyRecord(view.notes) && isEmptyRecord(view.links))) return copyView(view)
  const moved: Record<string, AxisEntry> = {}
  const last = edit.axis === 'rows' ? MAX_ROW : MAX_COL
  for (const [index, entry] of Object.entries(entries ?? {})) {
    const to = moveIndex(Number(index), edit)
    if (to !== undefined && to <= last) moved[String(to)] = entry
  }
  return copyView({ ...view, [edit.axis]: moved, notes: movedAnnotations(view.notes, edit), links: movedAnnotations(view.links, edit) })
}

/** Spans that put back the entries of rows or columns `at` to `at + count - 1` as they are in `view`. */
export function restoringSpans(view: SheetViewState | undefined, axis: Axis, at: number, count: number): AxisSpan[] {
  const entries = view?.[axis]
  if (!entries) return []
  const spans: AxisSpan[] = []
  for (const [key, entry] of Object.entries(entries)) {
    const index = Number(key)
    if (index < at || index >= at + count) continue
    const every: SpanFields = axis === 'rows' ? { height: null, hidden: false, level: 0, collapsed: false } : { hidden: false, level: 0, collapsed: false }
    spans.push({ from: index, to: index, ...fieldsOf(entry, every) })
  }
  return spans.sort((a, b) => a.from - b.from)
}

/** The command (without `type` and `sheet`) that builds a view from nothing: a deleted sheet's back. */
export function viewCommandOf(view: SheetViewState | undefined): Omit<SetSheetViewCommand, 'type' | 'sheet'> | undefined {
  if (isEmptyView(view)) return undefined
  const command: Omit<SetSheetViewCommand, 'type' | 'sheet'> = {}
  if (view!.frozenRows) command.frozenRows = view!.frozenRows
  if (view!.frozenColumns) command.frozenColumns = view!.frozenColumns
  if (view!.hidden) command.hidden = true
  if (view!.hidden && view!.veryHidden) command.veryHidden = true
  const pageSetup = copyPageSetup(view!.pageSetup)
  if (pageSetup) command.pageSetup = pageSetup
  for (const axis of ['rows', 'columns'] as const) {
    const spans = restoringSpans(view, axis, 0, Number.MAX_SAFE_INTEGER)
    if (spans.length > 0) command[axis] = spans
  }
  if (view!.tabColor !== undefined) command.tabColor = view!.tabColor
  if (view!.showGridLines === false) command.showGridLines = false
  if (view!.zoom !== undefined) command.zoom = view!.zoom
  return { ...command, ...annotationEdits(view) }
}

/** Whether a sheet is shown as a tab. */
export const isSheetVisible = (view: SheetViewState | undefined) => !view?.hidden
