/**
 * Turning what a model says into cells: a sheet name (exact, then ignoring case, spacing and
 * punctuation), an A1 address or range (with or without its sheet), a defined name, or labels — the
 * row labelled "EBITDA" and the column headed "FY2027". Every answer carries the A1 text it came to
 * and how, so that the model sees which cell it got. What cannot be resolved is a ToolError naming
 * the closest candidates.
 */
import { MAX_COL, MAX_ROW, parseFormulaText, type FormulaNode } from '@finsheet/formula'
import { columnToLetters, compactText, formatAddress, formatRange, formatSheetPrefix, LABEL_MATCH_THRESHOLD, labelSimilarity, lettersToColumn, splitSheetReference, tryParseRange, type RangeAddress, type SheetRecord, type WorkbookModel } from '@finsheet/workbook'
import type { LabelRange } from '@finsheet/contracts'
import type { HeaderRow, RowLabel, SheetLayout } from './sheet-layout.js'
import { ToolError } from './tool-error.js'

export interface ResolvedRange {
  sheet: SheetRecord
  range: RangeAddress
  /** `Sheet!B2:H40`. */
  ref: string
  /** How labels or a name led there ("row \"EBITDA\" (A12) × column \"FY2027\" (G3)"), when they did. */
  via?: string
}

export interface ResolvedCell extends ResolvedRange {
  row: number
  col: number
  address: string
}

/** What resolving needs from the request: the workbook and each sheet's layout as it is now. */
export interface TargetScope {
  state: WorkbookModel
  layout(sheet: SheetRecord): SheetLayout
}

const quoted = (text: string) => JSON.stringify(text)
export const refText = (sheet: SheetRecord, range: RangeAddress) => `${formatSheetPrefix(sheet.name)}!${formatRange(range)}`

/** A sheet by name: exact, then ignoring case, then ignoring spacing and punctuation, then the one close match. */
export function resolveSheet(state: WorkbookModel, name: string): SheetRecord {
  const trimmed = name.trim().replace(/^'(.*)'$/, '$1')
  const exact = state.findSheet(trimmed)
  if (exact) return exact
  const compact = compactText(trimmed)
  const loose = state.sheets.filter((sheet) => compactText(sheet.name) === compact)
  if (loose.length === 1) return loose[0]
  const scored = state.sheets.map((sheet) => ({ sheet, score: labelSimilarity(trimmed, sheet.name) })).sort((a, b) => b.score - a.score)
  if (scored.length > 0 && scored[0].score >= 0.8 && (scored.length === 1 || scored[1].score < scored[0].score)) return scored[0].sheet
  throw new ToolError(`There is no sheet named ${quoted(name)}. The sheets are: ${state.sheets.map((sheet) => quoted(sheet.name)).join(', ')}.`)
}

/** The used part of a sheet, to bound whole rows and columns. */
function usedOf(scope: TargetScope, sheet: SheetRecord): RangeAddress | undefined {
  return scope.layout(sheet).used ?? undefined
}

/** Whole rows or columns cut to the sheet's used part (kept whole when nothing is used). */
function clampWhole(scope: TargetScope, sheet: SheetRecord, range: RangeAddress): RangeAddress {
  const wholeColumns = range.top === 0 && range.bottom === MAX_ROW
  const wholeRows = range.left === 0 && range.right === MAX_COL
  if (!wholeColumns && !wholeRows) return range
  const used = usedOf(scope, sheet)
  if (!used) return { ...range, bottom: wholeColumns ? 0 : range.bottom, right: wholeRows ? 0 : range.right }
  return {
    top: wholeColumns ? Math.min(used.top, range.bottom) : range.top,
    bottom: wholeColumns ? used.bottom : range.bottom,
    left: wholeRows ? Math.min(used.left, range.right) : range.left,
    right: wholeRows ? used.right : range.right,
  }
}

/** The range a defined name stands for, or why it is not one. */
function nameRange(state: WorkbookModel, text: string, sheet: SheetRecord): { sheet: SheetRecord; range: RangeAddress; name: string } | string | undefined {
  const upper = text.toUpperCase()
  const names = state.engine.getNames()
  const definition =
    names.find((info) => info.name.toUpperCase() === upper && info.scope?.toUpperCase() === sheet.name.toUpperCase()) ??
    names.find((info) => info.name.toUpperCase() === upper && info.scope === undefined) ??
    names.find((info) => info.name.toUpperCase() === upper)
  if (!definition) return undefined
  let tree: FormulaNode
  try {
    tree = parseFormulaText(definition.formula)
  } catch {
    return `The name ${definition.name} stands for ${definition.formula}, which is not a range`
  }
  while (tree.type === 'group') tree = tree.expression
  if (tree.type !== 'cell' && tree.type !== 'range') return `The name ${definition.name} stands for ${definition.formula}, a value rather than cells`
  const sheetName = tree.sheet ?? definition.scope ?? sheet.name
  const target = state.findSheet(sheetName)
  if (!target) return `The name ${definition.name} refers to the sheet ${sheetName}, which does not exist`
  // Read at A1, a relative corner's offset is its index, as an absolute one's is.
  if (tree.type === 'cell') {
    const { row, col } = tree.ref
    return { sheet: target, range: { top: row, left: col, bottom: row, right: col }, name: definition.name }
  }
  const { start, end, kind } = tree
  const range: RangeAddress =
    kind === 'columns'
      ? { top: 0, bottom: MAX_ROW, left: Math.min(start.col, end.col), right: Math.max(start.col, end.col) }
      : kind === 'rows'
        ? { top: Math.min(start.row, end.row), bottom: Math.max(start.row, end.row), left: 0, right: MAX_COL }
        : { top: Math.min(start.row, end.row), bottom: Math.max(start.row, end.row), left: Math.min(start.col, end.col), right: Math.max(start.col, end.col) }
  return { sheet: target, range, name: definition.name }
}

/** Candidates' text for an error: the closest few, with their addresses. */
function closest<T>(items: { item: T; score: number }[], show: (item: T) => string): string {
  const best = items.filter((entry) => entry.score > 0.3).slice(0, 3)
  return best.length === 0 ? '' : ` The closest are ${best.map((entry) => show(entry.item)).join(', ')}.`
}

/** The rows whose label matches best (several when they match equally well). */
function matchRows(layout: SheetLayout, query: string): { rows: RowLabel[]; score: number; ranked: { item: RowLabel; score: number }[] } {
  const ranked = layout.labels.map((label) => ({ item: label, score: labelSimilarity(query, label.text) })).sort((a, b) => b.score - a.score || a.item.row - b.item.row)
  const top = ranked[0]?.score ?? 0
  if (top < LABEL_MATCH_THRESHOLD) return { rows: [], score: top, ranked }
  return { rows: ranked.filter((entry) => entry.score >= top - 1e-9).map((entry) => entry.item), score: top, ranked }
}

const labelShown = (label: RowLabel) => `${quoted(label.text)} (${formatAddress(label.row, label.col)})`

/** The column a header names, seen from a row: the best match, nearest header row above the row first. */
function matchColumn(layout: SheetLayout, query: string, row: number | undefined): { headerRow: HeaderRow; col: number; text: string } | { error: string } {
  if (layout.headerRows.length === 0) {
    const letters = /^[A-Za-z]{1,3}$/.test(query.trim()) ? lettersToColumn(query.trim()) : -1
    if (letters >= 0) return { headerRow: { row: -1, cells: [] }, col: letters, text: query.trim().toUpperCase() }
    return { error: `${layout.name} has no header row to find ${quoted(query)} in; use an A1 address.` }
  }
  const candidates: { headerRow: HeaderRow; col: number; text: string; score: number; distance: number }[] = []
  for (const headerRow of layout.headerRows) {
    const distance = row === undefined ? 0 : row > headerRow.row ? row - headerRow.row : Number.MAX_SAFE_INTEGER / 2 + headerRow.row - row
    for (const cell of headerRow.cells) candidates.push({ headerRow, col: cell.col, text: cell.text, score: labelSimilarity(query, cell.text), distance })
  }
  candidates.sort((a, b) => b.score - a.score || a.distance - b.distance || a.col - b.col)
  const best = candidates[0]
  if (!best || best.score < LABEL_MATCH_THRESHOLD) {
    const letters = /^[A-Za-z]{1,3}$/.test(query.trim()) ? lettersToColumn(query.trim()) : -1
    if (letters >= 0) return { headerRow: { row: -1, cells: [] }, col: letters, text: query.trim().toUpperCase() }
    const shown = closest(
      candidates.map((candidate) => ({ item: candidate, score: candidate.score })),
      (candidate) => `${quoted(candidate.text)} (${formatAddress(candidate.headerRow.row, candidate.col)})`,
    )
    return { error: `No column headed ${quoted(query)} on ${layout.name}.${shown}` }
  }
  const rivals = candidates.filter((candidate) => candidate.score >= best.score - 1e-9 && candidate.distance === best.distance && candidate.col !== best.col)
  if (rivals.length > 0) {
    const all = [best, ...rivals].slice(0, 4).map((candidate) => `${quoted(candidate.text)} (${formatAddress(candidate.headerRow.row, candidate.col)})`)
    return { error: `${quoted(query)} matches several columns on ${layout.name}: ${all.join(', ')}; use one of their addresses.` }
  }
  return best
}

/** One cell by row label and column header. */
function labelledCell(scope: TargetScope, sheet: SheetRecord, rowQuery: string, columnQuery: string): ResolvedCell {
  const layout = scope.layout(sheet)
  const { rows, ranked } = matchRows(layout, rowQuery)
  if (rows.length === 0) throw new ToolError(`No row labelled ${quoted(rowQuery)} on ${sheet.name}.${closest(ranked, labelShown)}`)
  const found: ResolvedCell[] = []
  let columnError = ''
  for (const label of rows) {
    const column = matchColumn(layout, columnQuery, label.row)
    if ('error' in column) {
      columnError = column.error
      continue
    }
    const range = { top: label.row, left: column.col, bottom: label.row, right: column.col }
    const header = column.headerRow.row >= 0 ? ` (${formatAddress(column.headerRow.row, column.col)})` : ''
    found.push({ sheet, range, ref: refText(sheet, range), row: label.row, col: column.col, address: formatAddress(label.row, column.col), via: `row ${labelShown(label)} × column ${quoted(column.text)}${header}` })
  }
  if (found.length === 0) throw new ToolError(columnError)
  if (found.length > 1) throw new ToolError(`${quoted(rowQuery)} labels several rows on ${sheet.name}: ${rows.map(labelShown).join(', ')}; use an address (${found.map((cell) => cell.address).join(', ')}).`)
  return found[0]
}

/** A whole labelled row (its cells right of the label) or a labelled column (its cells below the header). */
function labelledRange(scope: TargetScope, sheet: SheetRecord, target: LabelRange): ResolvedRange {
  if (target.row !== undefined && target.column !== undefined) return labelledCell(scope, sheet, target.row, target.column)
  const layout = scope.layout(sheet)
  const used = layout.used
  if (target.row !== undefined) {
    const { rows, ranked } = matchRows(layout, target.row)
    if (rows.length === 0) throw new ToolError(`No row labelled ${quoted(target.row)} on ${sheet.name}.${closest(ranked, labelShown)}`)
    if (rows.length > 1) throw new ToolError(`${quoted(target.row)} labels several rows on ${sheet.name}: ${rows.map(labelShown).join(', ')}; use an A1 range.`)
    const label = rows[0]
    const range = { top: label.row, bottom: label.row, left: Math.min(label.col + 1, used?.right ?? label.col + 1), right: Math.max(used?.right ?? label.col + 1, label.col + 1) }
    return { sheet, range, ref: refText(sheet, range), via: `the row labelled ${labelShown(label)}` }
  }
  if (target.column !== undefined) {
    const column = matchColumn(layout, target.column, undefined)
    if ('error' in column) throw new ToolError(column.error)
    const top = column.headerRow.row >= 0 ? column.headerRow.row + 1 : (used?.top ?? 0)
    const range = { top, bottom: Math.max(top, used?.bottom ?? top), left: column.col, right: column.col }
    return { sheet, range, ref: refText(sheet, range), via: `the column headed ${quoted(column.text)} (${columnToLetters(column.col)})` }
  }
  throw new ToolError('A label range needs a row label, a column header, or both')
}

/** A range, a cell, a defined name or labels, on `sheetName` unless the text names its own sheet. */
export function resolveRange(scope: TargetScope, sheetName: string, target: string | LabelRange): ResolvedRange {
  if (typeof target !== 'string') return labelledRange(scope, resolveSheet(scope.state, sheetName), target)
  const { sheet: named, reference } = splitSheetReference(target)
  const sheet = resolveSheet(scope.state, named ?? sheetName)
  const text = reference.trim()
  const range = tryParseRange(text.replace(/\$/g, ''))
  if (range) {
    const clamped = clampWhole(scope, sheet, range)
    return { sheet, range: clamped, ref: refText(sheet, clamped), ...(clamped !== range ? { via: `${formatRange(range)} cut to the used cells` } : {}) }
  }
  const named2 = nameRange(scope.state, text, sheet)
  if (typeof named2 === 'string') throw new ToolError(named2)
  if (named2) {
    const clamped = clampWhole(scope, named2.sheet, named2.range)
    return { sheet: named2.sheet, range: clamped, ref: refText(named2.sheet, clamped), via: `the name ${named2.name}` }
  }
  // Plain words: the row they label, when one matches well.
  const layout = scope.layout(sheet)
  const { rows } = matchRows(layout, text)
  if (rows.length === 1 && labelSimilarity(text, rows[0].text) >= 0.8) return labelledRange(scope, sheet, { row: text })
  throw new ToolError(`${quoted(target)} is not an A1 address or range, a defined name or a row label on ${sheet.name}.`)
}

/** One cell: an address, a one-cell name, or a row label and column header. */
export function resolveCell(scope: TargetScope, sheetName: string, target: string | { row: string; column: string }): ResolvedCell {
  if (typeof target !== 'string') return labelledCell(scope, resolveSheet(scope.state, sheetName), target.row, target.column)
  const resolved = resolveRange(scope, sheetName, target)
  const { range } = resolved
  if (range.top !== range.bottom || range.left !== range.right) throw new ToolError(`${quoted(target)} is the range ${resolved.ref}; give one cell.`)
  return { ...resolved, row: range.top, col: range.left, address: formatAddress(range.top, range.left) }
}
