/**
 * Cells are stored in blocks: one document per tile of a sheet (BLOCK_ROWS rows × BLOCK_COLUMNS
 * columns) holding a compact list of its non-empty cells. A million-cell import writes a few thousand
 * documents instead of a million, and a one-cell edit rewrites one tile of at most
 * BLOCK_ROWS × BLOCK_COLUMNS cells however wide or long the sheet is. Each cell keeps the revision
 * that last wrote it and each block the highest of them, so the cells written after a revision are
 * found by the blocks' index and then filtered cell by cell.
 */
import type { CellStyle, CellType, CellValue } from '@finsheet/contracts'
import type { DeferredDocument } from '@finsheet/platform'
import { formatAddress, formatRange, translateFormula, tryParseRange } from '@finsheet/formula'
import { sortedCells, type CellRecord } from '@finsheet/workbook'
import { INSERTED_COLUMNS_FROM, INSERTED_ROWS_FROM, isIdentityAxis, isIdentityLayout, toLogical, toStored, type SheetLayout } from './sheet-layout.js'

export const BLOCK_ROWS = 32
export const BLOCK_COLUMNS = 16

/** What a block holds for a cell besides its input, value and revision; absent fields are unset. */
export interface StoredCellExtra {
  /** The value is an error code, not text. */
  e?: 1
  /** The user's number format. */
  f?: string
  /** The number format the input suggests. */
  g?: string
  s?: CellStyle
  /** A legacy (implicitly intersecting) formula. */
  l?: 1
  /** The range a fixed-size array formula anchored here fills. */
  a?: string
  /**
   * The address the cell was written at, when not its stored address (its sheet's rows or columns had
   * moved, see sheet-layout.ts): its formula and array range are read translated from there.
   */
  w?: string
}

/**
 * [place, input, value, revision, extras]: tuples keep the JSON of a million cells small and quick to
 * write and read. The place is where the cell is stored in its block (see placeInBlock): where it stands
 * on its sheet unless the sheet's rows or columns moved (see sheet-layout.ts). Blocks written before
 * places were numbers name it by its stored address ('B7'); both are read.
 */
export type StoredCell = [place: number | string, input: string, value: CellValue, revision: number, extra?: StoredCellExtra]

export interface CellBlockDoc {
  /** `workbookId/sheetId/blockRow/blockColumn`. */
  id: string
  workbookId: string
  sheetId: string
  /** The tile's position: its first row is blockRow × BLOCK_ROWS. */
  blockRow: number
  blockColumn: number
  /** The highest revision of its cells (the revision that last wrote the block). */
  revision: number
  /** Its non-empty cells, one address once, in no particular order. */
  cells: StoredCell[]
}

/** A stored cell with where it lives and the revision that last wrote it. */
export interface StoredRecord extends CellRecord {
  sheetId: string
  revision: number
}

export const blockDocId = (workbookId: string, sheetId: string, blockRow: number, blockColumn: number) =>
  `${workbookId}/${sheetId}/${blockRow}/${blockColumn}`

/** What the ids of a workbook's blocks (or one sheet's) start with. */
export const blockPrefix = (workbookId: string, sheetId?: string) => (sheetId === undefined ? `${workbookId}/` : `${workbookId}/${sheetId}/`)

/** A block's position on its sheet (its id's parts). */
export interface BlockPlace {
  sheetId: string
  blockRow: number
  blockColumn: number
}

/**
 * A stored cell's place in its block, row by row: a number below BLOCK_ROWS × BLOCK_COLUMNS. Reading a
 * million numbers is a fraction of reading a million address texts (JSON.parse makes a string of
 * each), and the row and column come from it by arithmetic rather than by parsing.
 */
export function placeInBlock(row: number, col: number): number {
  return (row % BLOCK_ROWS) * BLOCK_COLUMNS + (col % BLOCK_COLUMNS)
}

/** Where a stored cell of this block is stored: its 0-based row and column. */
export function storedPositionOf(block: Pick<BlockPlace, 'blockRow' | 'blockColumn'>, stored: StoredCell): { row: number; col: number } {
  const place = stored[0]
  if (typeof place === 'string') return parseStoredAddress(place)
  return { row: block.blockRow * BLOCK_ROWS + Math.floor(place / BLOCK_COLUMNS), col: block.blockColumn * BLOCK_COLUMNS + (place % BLOCK_COLUMNS) }
}

export function blockOf(row: number, col: number): { blockRow: number; blockColumn: number } {
  return { blockRow: Math.floor(row / BLOCK_ROWS), blockColumn: Math.floor(col / BLOCK_COLUMNS) }
}

/** What a block keeps of a cell. */
export interface CellContent {
  address: string
  input: string
  value: CellValue
  error: boolean
  userFormat?: string
  suggestedFormat?: string
  style?: CellStyle
  legacy?: boolean
  arrayRange?: string
}

/** What a cell holds besides its address, input and value. */
type CellExtraParts = Omit<CellContent, 'address' | 'input' | 'value' | 'error'> & { error?: boolean }

/** What a cell holds besides its input and value, as a block stores it; undefined when nothing. */
function storedExtra(cell: CellExtraParts): StoredCellExtra | undefined {
  let extra: StoredCellExtra | undefined
  if (cell.error) (extra ??= {}).e = 1
  if (cell.userFormat !== undefined) (extra ??= {}).f = cell.userFormat
  if (cell.suggestedFormat !== undefined) (extra ??= {}).g = cell.suggestedFormat
  if (cell.style !== undefined) (extra ??= {}).s = cell.style
  if (cell.legacy) (extra ??= {}).l = 1
  if (cell.arrayRange !== undefined) (extra ??= {}).a = cell.arrayRange
  return extra
}

export function encodeContent(place: number, cell: Omit<CellContent, 'address'>, revision: number): StoredCell {
  const extra = storedExtra(cell)
  return extra ? [place, cell.input, cell.value, revision, extra] : [place, cell.input, cell.value, revision]
}

export function encodeCell(place: number, record: CellRecord, revision: number): StoredCell {
  return encodeContent(place, { ...record, error: record.type === 'error' }, revision)
}

function typeOf(value: CellValue, error: boolean): CellType {
  if (value === null) return 'empty'
  if (error) return 'error'
  switch (typeof value) {
    case 'number':
      return 'number'
    case 'boolean':
      return 'boolean'
    default:
      return 'text'
  }
}

/** A stored address's 0-based row and column; stored rows and columns may lie past the sheet's last. */
export function parseStoredAddress(address: string): { row: number; col: number } {
  let col = 0
  let i = 0
  for (; i < address.length; i++) {
    const code = address.charCodeAt(i)
    if (code < 65 || code > 90) break
    col = col * 26 + code - 64
  }
  return { row: Number(address.slice(i)) - 1, col: col - 1 }
}

/** A formula (or array formula in braces) written at `from`, as it reads at `to`; text that is not a formula as it is. */
function translatedInput(input: string, from: string, to: string): string {
  const braced = input.startsWith('{=') && input.endsWith('}')
  if (!braced && input.charCodeAt(0) !== 61) return input
  try {
    const formula = braced ? input.slice(1, -1) : input
    const moved = translateFormula(formula, from, to)
    return braced ? `{${moved}}` : moved
  } catch {
    // A formula that does not parse moves with its cell, its text unchanged (as the engine keeps it).
    return input
  }
}

/** A range text moved as its anchor cell moved from `from` to `to`. */
function translatedRange(range: string, from: { row: number; col: number }, to: { row: number; col: number }): string {
  const parsed = tryParseRange(range)
  if (!parsed) return range
  const rows = to.row - from.row
  const cols = to.col - from.col
  return formatRange({ top: parsed.top + rows, bottom: parsed.bottom + rows, left: parsed.left + cols, right: parsed.right + cols })
}

/**
 * A stored cell where it stands now on its sheet (through the sheet's layout, when its rows or columns
 * moved); undefined for a cell of a deleted row or column.
 */
export function decodeCell(block: BlockPlace, stored: StoredCell, layout?: SheetLayout): StoredRecord | undefined {
  const [place, storedInput, value, revision, extra] = stored
  const position = storedPositionOf(block, stored)
  let row = position.row
  let col = position.col
  if (isIdentityLayout(layout)) {
    // Stored past the sheet's last: an inserted row or column since deleted.
    if (row >= INSERTED_ROWS_FROM || col >= INSERTED_COLUMNS_FROM) return undefined
  } else {
    const logicalRow = toLogical(layout!.rows, row, INSERTED_ROWS_FROM)
    const logicalCol = toLogical(layout!.columns, col, INSERTED_COLUMNS_FROM)
    if (logicalRow === undefined || logicalCol === undefined) return undefined
    row = logicalRow
    col = logicalCol
  }
  const stays = row === position.row && col === position.col
  const storedAddress = () => (typeof place === 'string' ? place : formatAddress(position.row, position.col))
  const address = stays ? storedAddress() : formatAddress(row, col)
  // Written where it is stored unless it says otherwise; moved when that is not where it stands now.
  const writtenAt = extra?.w ?? (stays ? address : storedAddress())
  const moved = writtenAt !== address
  const input = moved ? translatedInput(storedInput, writtenAt, address) : storedInput
  const record: StoredRecord = { sheetId: block.sheetId, revision, address, row, col, input, value, type: typeOf(value, extra?.e === 1) }
  if (extra) {
    if (extra.f !== undefined) record.userFormat = extra.f
    if (extra.g !== undefined) record.suggestedFormat = extra.g
    if (extra.s !== undefined) record.style = extra.s
    if (extra.l === 1) record.legacy = true
    if (extra.a !== undefined) record.arrayRange = moved ? translatedRange(extra.a, parseStoredAddress(writtenAt), { row, col }) : extra.a
  }
  return record
}

/** Sheets' layouts by id; a sheet not named keeps its cells where they stand. */
export type Layouts = Readonly<Record<string, SheetLayout>> | undefined

/** Every cell of the blocks, decoded where it stands now; `after` keeps only cells written after that revision. */
export function* blockCells(blocks: Iterable<CellBlockDoc>, after?: number, layouts?: Layouts): Generator<StoredRecord> {
  for (const block of blocks) {
    const layout = layouts?.[block.sheetId]
    for (const stored of block.cells) {
      if (after !== undefined && stored[3] <= after) continue
      const record = decodeCell(block, stored, layout)
      if (record) yield record
    }
  }
}

/** Where a block lies, from its id (see blockDocId): read without decoding the block. */
export function blockPlaceOf(id: string): { sheetId: string; blockRow: number; blockColumn: number } {
  const column = id.lastIndexOf('/')
  const row = id.lastIndexOf('/', column - 1)
  const sheet = id.lastIndexOf('/', row - 1)
  return { sheetId: id.slice(sheet + 1, row), blockRow: Number(id.slice(row + 1, column)), blockColumn: Number(id.slice(column + 1)) }
}

/**
 * One sheet's cells in row-major order, decoded a band of rows (one row of blocks) at a time, for a
 * reader that writes each cell out as it comes (the inputs and cells routes): it never holds a million
 * decoded records nor sorts them all, and the blocks of a band are read from their stored text only when
 * the reader reaches it. A sheet whose rows moved since its blocks were written (a row inserted or
 * deleted) keeps cells out of their stored band: it is decoded whole and sorted.
 */
export function* rowMajorCells(sheetId: string, blocks: readonly DeferredDocument<CellBlockDoc>[], layout?: SheetLayout): Generator<StoredRecord> {
  const placed = blocks.map((block) => ({ block, ...blockPlaceOf(block.id) })).filter((block) => block.sheetId === sheetId)
  if (layout !== undefined && !isIdentityAxis(layout.rows)) {
    yield* sortedCells([...blockCells(placed.map(({ block }) => block.read()), undefined, { [sheetId]: layout })])
    return
  }
  const ordered = placed.sort((a, b) => a.blockRow - b.blockRow || a.blockColumn - b.blockColumn)
  for (let start = 0; start < ordered.length; ) {
    let end = start + 1
    while (end < ordered.length && ordered[end].blockRow === ordered[start].blockRow) end++
    const band: StoredRecord[] = []
    for (let i = start; i < end; i++) {
      for (const stored of ordered[i].block.read().cells) {
        const record = decodeCell(ordered[i], stored, layout)
        if (record) band.push(record)
      }
    }
    yield* sortedCells(band)
    start = end
  }
}

/** Cells with content (an input or a value) and formulas, counted per sheet. */
export interface CellCounts {
  cells: number
  formulas: number
}

function countInto(counts: Map<string, CellCounts>, sheetId: string, input: string, value: CellValue, sign: 1 | -1): void {
  let entry = counts.get(sheetId)
  if (!entry) counts.set(sheetId, (entry = { cells: 0, formulas: 0 }))
  if (input !== '' || value !== null) entry.cells += sign
  if (input.charCodeAt(0) === 61) entry.formulas += sign
}

/** A cell write of a change: the record now, or null when the cell is empty. */
export interface CellPut {
  sheetId: string
  address: string
  row: number
  col: number
  record: CellRecord | null
}

/**
 * The blocks of new cells (a new workbook), built as the cells come: in any order, each address
 * once; `flush` hands over the blocks collected so far.
 */
export class BlockBuilder {
  private blocks = new Map<string, CellBlockDoc>()
  /** The block the last cell went to: cells come a column at a time, 64 in a row share one. */
  private last: CellBlockDoc | undefined
  /** Cells added. */
  count = 0
  /** What the added cells hold, per sheet. */
  readonly counts = new Map<string, CellCounts>()

  constructor(
    private readonly workbookId: string,
    private readonly revision: number,
  ) {}

  /** Adds a cell from its parts, without an object per cell (a new workbook's bulk write). */
  addParts(sheetId: string, row: number, col: number, input: string, value: CellValue, extras: CellExtraParts | undefined): void {
    const block = this.blockAt(sheetId, row, col, this.revision)
    const place = placeInBlock(row, col)
    const extra = extras === undefined ? undefined : storedExtra(extras)
    block.cells.push(extra === undefined ? [place, input, value, this.revision] : [place, input, value, this.revision, extra])
    countInto(this.counts, sheetId, input, value, 1)
    this.count++
  }

  /** Adds a cell, written at the builder's revision unless it names its own. */
  add(sheetId: string, row: number, col: number, cell: CellContent, revision = this.revision): void {
    const block = this.blockAt(sheetId, row, col, revision)
    block.cells.push(encodeContent(placeInBlock(row, col), cell, revision))
    countInto(this.counts, sheetId, cell.input, cell.value, 1)
    this.count++
  }

  private blockAt(sheetId: string, row: number, col: number, revision: number): CellBlockDoc {
    const blockRow = Math.floor(row / BLOCK_ROWS)
    const blockColumn = Math.floor(col / BLOCK_COLUMNS)
    let block = this.last
    if (!block || block.blockRow !== blockRow || block.blockColumn !== blockColumn || block.sheetId !== sheetId) {
      const id = blockDocId(this.workbookId, sheetId, blockRow, blockColumn)
      block = this.blocks.get(id)
      if (!block) {
        block = { id, workbookId: this.workbookId, sheetId, blockRow, blockColumn, revision, cells: [] }
        this.blocks.set(id, block)
      }
      this.last = block
    }
    if (revision > block.revision) block.revision = revision
    return block
  }

  /** The blocks collected so far, forgotten here. */
  flush(): CellBlockDoc[] {
    const blocks = [...this.blocks.values()]
    this.blocks = new Map()
    this.last = undefined
    return blocks
  }
}

/** Where a cell write goes in the store: its block's position and its stored address ('' when where it stands). */
function storedPlace(write: Pick<CellPut, 'sheetId' | 'row' | 'col'>, layouts: Layouts): { row: number; col: number; address: string } {
  const layout = layouts?.[write.sheetId]
  if (isIdentityLayout(layout)) return { row: write.row, col: write.col, address: '' }
  const row = toStored(layout!.rows, write.row)
  const col = toStored(layout!.columns, write.col)
  return { row, col, address: row !== write.row || col !== write.col ? formatAddress(row, col) : '' }
}

/**
 * Applies cell writes to the blocks that hold them: `current` are those blocks as stored (missing
 * ones are new). Writes name cells where they stand; `layouts` says where they are stored. Answers the
 * blocks to store, the ids of blocks left empty, and how the counts of cells and formulas per sheet
 * change (from what the blocks held to what they hold now).
 */
export function applyToBlocks(
  workbookId: string,
  revision: number,
  writes: readonly CellPut[],
  current: readonly CellBlockDoc[],
  layouts?: Layouts,
): { put: CellBlockDoc[]; emptied: string[]; delta: Map<string, CellCounts> } {
  const delta = new Map<string, CellCounts>()
  const byId = new Map(current.map((block) => [block.id, block]))
  const touched = new Map<string, { block: CellBlockDoc; cells: Map<number, StoredCell> }>()
  for (const write of writes) {
    const place = storedPlace(write, layouts)
    const { blockRow, blockColumn } = blockOf(place.row, place.col)
    const id = blockDocId(workbookId, write.sheetId, blockRow, blockColumn)
    let entry = touched.get(id)
    if (!entry) {
      const block = byId.get(id) ?? { id, workbookId, sheetId: write.sheetId, blockRow, blockColumn, revision, cells: [] }
      entry = { block, cells: new Map(block.cells.map((cell) => [placeOfStored(block, cell), cell])) }
      touched.set(id, entry)
    }
    const stored = placeInBlock(place.row, place.col)
    const before = entry.cells.get(stored)
    if (before) countInto(delta, write.sheetId, before[1], before[2], -1)
    if (write.record) {
      const cell = encodeCell(stored, write.record, revision)
      // stored away from where it stands: it says where it was written, for its formula's references
      if (place.address) cell[4] = { ...cell[4], w: write.address }
      entry.cells.set(stored, cell)
      countInto(delta, write.sheetId, write.record.input, write.record.value, 1)
    } else entry.cells.delete(stored)
  }
  const put: CellBlockDoc[] = []
  const emptied: string[] = []
  for (const { block, cells } of touched.values()) {
    if (cells.size > 0) put.push({ ...block, revision, cells: [...cells].map(([place, cell]) => (cell[0] === place ? cell : withPlace(cell, place))) })
    else if (byId.has(block.id)) emptied.push(block.id)
  }
  return { put, emptied, delta }
}

/** A stored cell's place in its block, whichever way it names it. */
function placeOfStored(block: Pick<BlockPlace, 'blockRow' | 'blockColumn'>, cell: StoredCell): number {
  if (typeof cell[0] === 'number') return cell[0]
  const { row, col } = storedPositionOf(block, cell)
  return placeInBlock(row, col)
}

/** The cell named by its place (a block written before places were numbers is rewritten with them). */
function withPlace(cell: StoredCell, place: number): StoredCell {
  const [, input, value, revision, extra] = cell
  return extra ? [place, input, value, revision, extra] : [place, input, value, revision]
}

/** The ids of the blocks that hold these cells (named where they stand; `layouts` says where they are stored). */
export function blockIdsOf(workbookId: string, writes: readonly Pick<CellPut, 'sheetId' | 'row' | 'col'>[], layouts?: Layouts): string[] {
  const ids = new Set<string>()
  for (const write of writes) {
    const place = storedPlace(write, layouts)
    const { blockRow, blockColumn } = blockOf(place.row, place.col)
    ids.add(blockDocId(workbookId, write.sheetId, blockRow, blockColumn))
  }
  return [...ids]
}
