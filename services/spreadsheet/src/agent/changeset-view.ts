/**
 * What a changeset does, worked out while its draft is applied and after it is undone again: each
 * cell it writes (before and after), the cells elsewhere whose values it changes (its downstream
 * effect, largest relative change first), the errors it brings, the ranges to outline, and for each
 * written cell what it held before, so that apply can tell whether anyone changed it since.
 */
import { AGENT_MAX_DOWNSTREAM, AGENT_MAX_LISTED_CHANGES, type CellValue, type ChangesetCellChange, type DownstreamEffect, type Highlight } from '@finsheet/contracts'
import { formatAddress, formatRange, parseAddress, splitKey, type SheetRecord, type WorkbookModel } from '@finsheet/workbook'
import type { CellValue as EngineValue } from '@finsheet/formula'
import { CellLabeller } from './cell-labels.js'
import { cellText, type DraftSession } from './draft-session.js'
import { modelValue, shown } from './tool-kit.js'

/** What a written cell held before the changeset, where it was then: apply refuses if it holds something else. */
export interface Fingerprint {
  sheetId: string
  address: string
  input: string
}

export interface ChangesetView {
  baseRevision: number
  changes: ChangesetCellChange[]
  changeCount: number
  downstream: DownstreamEffect[]
  downstreamCount: number
  errors: { sheet: string; address: string; value: string }[]
  highlights: Highlight[]
  fingerprints: Fingerprint[]
}

/** Errors a view lists. */
const MAX_ERRORS = 100
/** Ranges outlined; past this each sheet's changes are outlined as one block. */
const MAX_HIGHLIGHTS = 60

interface Seen {
  sheet: SheetRecord
  row: number
  col: number
  input: string
  value: EngineValue
  format: string | undefined
}

function read(state: WorkbookModel, sheet: SheetRecord, row: number, col: number, withInput: boolean): Omit<Seen, 'sheet' | 'row' | 'col'> {
  const address = formatAddress(row, col)
  return {
    input: withInput ? state.engine.getInputAt(sheet.name, row, col) : '',
    value: state.engine.getValueAt(sheet.name, row, col),
    format: state.formatAtPosition(sheet.id, row, col) ?? state.engine.getSuggestedFormat(sheet.name, address),
  }
}

const isError = (value: CellValue): value is string => typeof value === 'string' && value.startsWith('#')
const sameValue = (a: EngineValue, b: EngineValue) => modelValue(a) === modelValue(b) && typeof a === typeof b

/** A number as people read it in a sentence: 1.20bn, 35.4m, 12,300, or as the cell shows it. */
export function compactNumber(value: EngineValue, format: string | undefined): string {
  if (value === null) return '(empty)'
  if (typeof value !== 'number') return shown(value, format)
  if (format !== undefined && format.includes('%')) return shown(value, format)
  const size = Math.abs(value)
  if (size >= 1e9) return `${(value / 1e9).toFixed(2)}bn`
  if (size >= 1e6) return `${(value / 1e6).toFixed(2)}m`
  return shown(value, format ?? '#,##0.##').replace(/\.$/, '')
}

/**
 * How much a value changed, relative to what it was; Infinity for a change of kind or from zero.
 * Rounded to nine significant digits, so that cells changed in the same proportion rank as equal
 * (and then by position) whatever the last bits of their arithmetic.
 */
function relative(before: EngineValue, after: EngineValue): number {
  if (typeof before !== 'number' || typeof after !== 'number') return Infinity
  if (before === 0) return after === 0 ? 0 : Infinity
  return Number((Math.abs(after - before) / Math.abs(before)).toPrecision(9))
}

/** Cell positions per sheet as outlines: runs along rows stacked into blocks. */
function highlightsOf(cells: { sheet: SheetRecord; row: number; col: number }[], sheetOrder: Map<string, number>): Highlight[] {
  const bySheet = new Map<SheetRecord, { row: number; col: number }[]>()
  for (const cell of cells) {
    let list = bySheet.get(cell.sheet)
    if (!list) bySheet.set(cell.sheet, (list = []))
    list.push(cell)
  }
  const highlights: Highlight[] = []
  const sheets = [...bySheet.keys()].sort((a, b) => (sheetOrder.get(a.id) ?? 0) - (sheetOrder.get(b.id) ?? 0))
  for (const sheet of sheets) {
    const positions = (bySheet.get(sheet) ?? []).sort((a, b) => a.row - b.row || a.col - b.col)
    const runs: { row: number; left: number; right: number }[] = []
    for (const position of positions) {
      const last = runs[runs.length - 1]
      if (last && last.row === position.row && last.right === position.col - 1) last.right = position.col
      else if (!(last && last.row === position.row && last.right === position.col)) runs.push({ row: position.row, left: position.col, right: position.col })
    }
    const blocks: { top: number; bottom: number; left: number; right: number }[] = []
    const open = new Map<string, (typeof blocks)[number]>()
    for (const run of runs) {
      const key = `${run.left}:${run.right}`
      const block = open.get(key)
      if (block && block.bottom === run.row - 1) block.bottom = run.row
      else {
        const fresh = { top: run.row, bottom: run.row, left: run.left, right: run.right }
        open.set(key, fresh)
        blocks.push(fresh)
      }
    }
    for (const block of blocks) highlights.push({ sheet: sheet.name, range: formatRange(block) })
  }
  if (highlights.length <= MAX_HIGHLIGHTS) return highlights
  // Too many to outline one by one: each sheet's changes as one block.
  return sheets.map((sheet) => {
    const positions = bySheet.get(sheet) ?? []
    const range = {
      top: Math.min(...positions.map((p) => p.row)),
      bottom: Math.max(...positions.map((p) => p.row)),
      left: Math.min(...positions.map((p) => p.col)),
      right: Math.max(...positions.map((p) => p.col)),
    }
    return { sheet: sheet.name, range: formatRange(range) }
  })
}

/**
 * Works out the view with the draft applied, then closes the session (undoing the draft) and reads
 * what the cells held before. The session is closed when this returns, whatever happens.
 */
export function changesetView(session: DraftSession): ChangesetView {
  const { state } = session
  const sheetOrder = new Map(state.sheets.map((sheet, index) => [sheet.id, index]))
  const sheetsNow = new Map(state.sheets.map((sheet) => [sheet.id, sheet]))
  const { touched, recalculated } = session.effects()
  const origin = session.originOf()
  const written: Seen[] = []
  const outlined: { sheet: SheetRecord; row: number; col: number }[] = []
  for (const key of touched) {
    const { sheetId, address } = splitKey(key)
    const sheet = sheetsNow.get(sheetId)
    if (!sheet) continue
    const { row, col } = parseAddress(address)
    outlined.push({ sheet, row, col })
    written.push({ sheet, row, col, ...read(state, sheet, row, col, true) })
  }
  written.sort((a, b) => (sheetOrder.get(a.sheet.id) ?? 0) - (sheetOrder.get(b.sheet.id) ?? 0) || a.row - b.row || a.col - b.col)
  // Cells downstream keep their formulas (only values change), so their formats are read once, as stored, for those listed.
  const others: { sheet: SheetRecord; row: number; col: number; value: EngineValue }[] = []
  for (const key of recalculated) {
    if (touched.has(key)) continue
    const { sheetId, address } = splitKey(key)
    const sheet = sheetsNow.get(sheetId)
    if (!sheet) continue
    const { row, col } = parseAddress(address)
    others.push({ sheet, row, col, value: state.engine.getValueAt(sheet.name, row, col) })
  }
  const highlights = highlightsOf(outlined, sheetOrder)

  session.close()

  // The workbook is as stored again: read what each cell held before the changeset, where it was then.
  const sheetsBefore = new Map(state.sheets.map((sheet) => [sheet.id, sheet]))
  const labeller = new CellLabeller(state, (sheet) => session.keptLayout(sheet))
  const placeBefore = (sheetId: string, row: number, col: number) => {
    const at = origin(sheetId, row, col)
    const sheet = sheetsBefore.get(sheetId)
    return at && sheet ? { sheet, ...at } : undefined
  }
  const changes: ChangesetCellChange[] = []
  const fingerprints: Fingerprint[] = []
  const errors: ChangesetView['errors'] = []
  let changeCount = 0
  for (const cell of written) {
    const at = placeBefore(cell.sheet.id, cell.row, cell.col)
    const was = at ? read(state, at.sheet, at.row, at.col, true) : { input: '', value: null as EngineValue, format: undefined }
    if (at) fingerprints.push({ sheetId: cell.sheet.id, address: formatAddress(at.row, at.col), input: was.input })
    if (was.input === cell.input && sameValue(was.value, cell.value)) continue
    changeCount++
    const after = modelValue(cell.value)
    if (isError(after) && modelValue(was.value) !== after && errors.length < MAX_ERRORS) errors.push({ sheet: cell.sheet.name, address: formatAddress(cell.row, cell.col), value: after })
    if (changes.length >= AGENT_MAX_LISTED_CHANGES) continue
    const label = at ? labeller.label(at.sheet, at.row, at.col) : undefined
    changes.push({
      sheet: cell.sheet.name,
      address: formatAddress(cell.row, cell.col),
      ...(label ? { label } : {}),
      before: { input: was.input, value: modelValue(was.value), display: shown(was.value, was.format) },
      after: { input: cell.input, value: after, display: shown(cell.value, cell.format) },
    })
  }
  const effects: { cell: (typeof others)[number]; at: NonNullable<ReturnType<typeof placeBefore>> | undefined; was: EngineValue; rank: number }[] = []
  for (const cell of others) {
    const at = placeBefore(cell.sheet.id, cell.row, cell.col)
    const was = at ? state.engine.getValueAt(at.sheet.name, at.row, at.col) : null
    if (sameValue(was, cell.value)) continue
    effects.push({ cell, at, was, rank: relative(was, cell.value) })
    const after = modelValue(cell.value)
    if (isError(after) && modelValue(was) !== after && errors.length < MAX_ERRORS) errors.push({ sheet: cell.sheet.name, address: formatAddress(cell.row, cell.col), value: after })
  }
  effects.sort((a, b) => b.rank - a.rank || (sheetOrder.get(a.cell.sheet.id) ?? 0) - (sheetOrder.get(b.cell.sheet.id) ?? 0) || a.cell.row - b.cell.row || a.cell.col - b.cell.col)
  const downstream: DownstreamEffect[] = effects.slice(0, AGENT_MAX_DOWNSTREAM).map(({ cell, at, was, rank }) => {
    const format = at ? (state.formatAtPosition(at.sheet.id, at.row, at.col) ?? state.engine.getSuggestedFormat(at.sheet.name, formatAddress(at.row, at.col))) : undefined
    const label = at ? labeller.label(at.sheet, at.row, at.col) : undefined
    const where = cellText(cell.sheet.name, cell.row, cell.col)
    return {
      sheet: cell.sheet.name,
      address: formatAddress(cell.row, cell.col),
      ...(label ? { label } : {}),
      before: { value: modelValue(was), display: shown(was, format) },
      after: { value: modelValue(cell.value), display: shown(cell.value, format) },
      relativeChange: Number.isFinite(rank) ? rank : null,
      text: `${where} ${compactNumber(was, format)} → ${compactNumber(cell.value, format)}`,
    }
  })
  return { baseRevision: state.revision, changes, changeCount, downstream, downstreamCount: effects.length, errors, highlights, fingerprints }
}
