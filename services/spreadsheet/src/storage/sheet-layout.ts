/**
 * Where a sheet's rows and columns are kept in its cell blocks. Inserting a row does not move the
 * cells below it in the store: the sheet's row map gains a new stored row where the row goes, and the
 * stored rows after it stand one further down. Deleting a row takes its stored row out of the map (its
 * cells are left behind, unseen, until the sheet is written afresh). So an insertion or deletion in a
 * large sheet writes the map and the few cells whose content changed, never every cell it shifted.
 *
 * A formula that only moved with its cell keeps its stored text: it is read translated from the place
 * it was written at (its written address) to the place its stored row and column stand now, which is
 * what the engine's own text is when its references all followed the move. Formulas whose references
 * did not (a range that grew, a reference to a deleted cell) are written again at their new place.
 *
 * An axis map is a flat list of runs, stored start and length, ended by the stored start of the
 * unbounded tail: [0] is the identity (row n is kept at row n), [0, 1000, 1048576, 1, 1000] keeps rows
 * 0–999 in place, row 1000 at the first stored row past the sheet's last, and rows from 1001 at 1000
 * onward. Rows inserted take stored rows past the sheet's last (counted by `nextRow`), so that a stored
 * row is never given to two rows.
 */
import { MAX_COL, MAX_ROW } from '@finsheet/formula'

export type AxisMap = number[]

export interface SheetLayout {
  rows: AxisMap
  columns: AxisMap
  /** The next stored row (column) an inserted row (column) takes: past the sheet's last. */
  nextRow: number
  nextColumn: number
}

/**
 * Stored rows and columns at or past these belong to inserted rows and columns only: far past the
 * sheet's last, so that the tail, which moves on by every row deleted, never reaches them.
 */
export const INSERTED_ROWS_FROM = 2 ** 30
export const INSERTED_COLUMNS_FROM = 2 ** 30

/** Runs past which a sheet is written afresh rather than its map grown (reads walk the runs). */
export const MAX_LAYOUT_RUNS = 32

/** Whether a sheet's map should be folded away (its cells written afresh where they stand) rather than grown. */
export function needsRewrite(layout: SheetLayout | undefined): boolean {
  if (layout === undefined) return false
  const tailRow = layout.rows[layout.rows.length - 1]
  const tailColumn = layout.columns[layout.columns.length - 1]
  return (
    runCount(layout.rows) > MAX_LAYOUT_RUNS ||
    runCount(layout.columns) > MAX_LAYOUT_RUNS ||
    tailRow > INSERTED_ROWS_FROM / 4 - MAX_ROW ||
    tailColumn > INSERTED_COLUMNS_FROM / 4 - MAX_COL ||
    layout.nextRow > INSERTED_ROWS_FROM * 1.5 ||
    layout.nextColumn > INSERTED_COLUMNS_FROM * 1.5
  )
}

export const identityLayout = (): SheetLayout => ({ rows: [0], columns: [0], nextRow: INSERTED_ROWS_FROM, nextColumn: INSERTED_COLUMNS_FROM })

export const isIdentityAxis = (map: AxisMap): boolean => map.length === 1 && map[0] === 0

export const isIdentityLayout = (layout: SheetLayout | undefined): boolean => layout === undefined || (isIdentityAxis(layout.rows) && isIdentityAxis(layout.columns))

/** How many runs an axis map has besides its tail. */
export const runCount = (map: AxisMap): number => (map.length - 1) / 2

/** The stored index of a row (column). */
export function toStored(map: AxisMap, index: number): number {
  let rest = index
  const last = map.length - 1
  for (let i = 0; i < last; i += 2) {
    if (rest < map[i + 1]) return map[i] + rest
    rest -= map[i + 1]
  }
  return map[last] + rest
}

/**
 * The row (column) a stored index stands for now; undefined when it was deleted. `limit` is where
 * inserted stored indexes start: the tail never reaches them.
 */
export function toLogical(map: AxisMap, stored: number, limit: number): number | undefined {
  let before = 0
  const last = map.length - 1
  for (let i = 0; i < last; i += 2) {
    const start = map[i]
    if (stored >= start && stored < start + map[i + 1]) return before + stored - start
    before += map[i + 1]
  }
  const tail = map[last]
  return stored >= tail && stored < limit ? before + stored - tail : undefined
}

/** The runs, with the tail made finite up to `through` (exclusive) rows. */
function finite(map: AxisMap, through: number): { runs: [number, number][]; tail: number } {
  const runs: [number, number][] = []
  let covered = 0
  const last = map.length - 1
  for (let i = 0; i < last; i += 2) {
    runs.push([map[i], map[i + 1]])
    covered += map[i + 1]
  }
  let tail = map[last]
  if (covered < through) {
    runs.push([tail, through - covered])
    tail += through - covered
  }
  return { runs, tail }
}

/** The runs merged where one continues the previous, flattened with the tail. */
function flatten(runs: [number, number][], tail: number): AxisMap {
  const merged: [number, number][] = []
  for (const [start, length] of runs) {
    if (length <= 0) continue
    const previous = merged[merged.length - 1]
    if (previous && previous[0] + previous[1] === start) previous[1] += length
    else merged.push([start, length])
  }
  // A last run that ends where the tail starts is part of it.
  while (merged.length > 0) {
    const [start, length] = merged[merged.length - 1]
    if (start + length !== tail) break
    tail = start
    merged.pop()
  }
  return [...merged.flat(), tail]
}

/** Splits the runs so that one starts at index `at` (runs must cover it); answers that run's position. */
function splitAt(runs: [number, number][], at: number): number {
  let before = 0
  for (let i = 0; i < runs.length; i++) {
    const [start, length] = runs[i]
    if (at === before) return i
    if (at < before + length) {
      runs.splice(i, 1, [start, at - before], [start + at - before, length - (at - before)])
      return i + 1
    }
    before += length
  }
  return runs.length
}

/** The map after `count` rows (columns) were inserted before `at`, given stored indexes from `next`. */
export function insertInto(map: AxisMap, at: number, count: number, next: number): AxisMap {
  const { runs, tail } = finite(map, at)
  const index = splitAt(runs, at)
  runs.splice(index, 0, [next, count])
  return flatten(runs, tail)
}

/** The map after `count` rows (columns) from `at` were deleted, and the stored runs they were kept at. */
export function deleteFrom(map: AxisMap, at: number, count: number): { map: AxisMap; removed: [number, number][] } {
  const { runs, tail } = finite(map, at + count)
  const first = splitAt(runs, at)
  const end = splitAt(runs, at + count)
  const removed = runs.splice(first, end - first)
  return { map: flatten(runs, tail), removed }
}

/** The stored intervals (first, last, both included) that rows (columns) first…last are kept at, in order. */
export function storedIntervals(map: AxisMap, first: number, last: number): [number, number][] {
  const { runs, tail } = finite(map, last + 1)
  void tail
  const intervals: [number, number][] = []
  let before = 0
  for (const [start, length] of runs) {
    const from = Math.max(first, before)
    const to = Math.min(last, before + length - 1)
    if (from <= to) intervals.push([start + from - before, start + to - before])
    before += length
    if (before > last) break
  }
  return intervals
}

/** The runs of an axis map as logical first index, stored start and length, the tail last with length Infinity. */
export function runsOf(map: AxisMap): { first: number; start: number; length: number }[] {
  const runs: { first: number; start: number; length: number }[] = []
  let before = 0
  const last = map.length - 1
  for (let i = 0; i < last; i += 2) {
    runs.push({ first: before, start: map[i], length: map[i + 1] })
    before += map[i + 1]
  }
  runs.push({ first: before, start: map[last], length: Infinity })
  return runs
}
