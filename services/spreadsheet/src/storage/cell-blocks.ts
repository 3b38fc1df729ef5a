/**
 * Cells are stored in blocks: one document per tile of a sheet (BLOCK_ROWS rows × BLOCK_COLUMNS
 * columns) holding a compact map of its non-empty cells. A million-cell import writes a few thousand
 * documents instead of a million, and a one-cell edit rewrites one tile of at most
 * BLOCK_ROWS × BLOCK_COLUMNS cells however wide or long the sheet is. Each cell keeps the revision
 * that last wrote it and each block the highest of them, so the cells written after a revision are
 * found by the blocks' index and then filtered cell by cell.
 */
import type { CellStyle, CellType, CellValue } from '@finsheet/contracts'
import { parseAddress, type CellRecord } from '@finsheet/workbook'

export const BLOCK_ROWS = 64
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
}

/** [input, value, revision, extras]: arrays keep the JSON of a million cells small and quick to read. */
export type StoredCell = [input: string, value: CellValue, revision: number, extra?: StoredCellExtra]

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
  cells: Record<string, StoredCell>
}

/** A stored cell with where it lives and the revision that last wrote it. */
export interface StoredRecord extends CellRecord {
  sheetId: string
  revision: number
}

export const blockDocId = (workbookId: string, sheetId: string, blockRow: number, blockColumn: number) =>
  `${workbookId}/${sheetId}/${blockRow}/${blockColumn}`

export function blockOf(row: number, col: number): { blockRow: number; blockColumn: number } {
  return { blockRow: Math.floor(row / BLOCK_ROWS), blockColumn: Math.floor(col / BLOCK_COLUMNS) }
}

export function encodeCell(record: CellRecord, revision: number): StoredCell {
  let extra: StoredCellExtra | undefined
  if (record.type === 'error') (extra ??= {}).e = 1
  if (record.userFormat !== undefined) (extra ??= {}).f = record.userFormat
  if (record.suggestedFormat !== undefined) (extra ??= {}).g = record.suggestedFormat
  if (record.style !== undefined) (extra ??= {}).s = record.style
  if (record.legacy) (extra ??= {}).l = 1
  if (record.arrayRange !== undefined) (extra ??= {}).a = record.arrayRange
  return extra ? [record.input, record.value, revision, extra] : [record.input, record.value, revision]
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

export function decodeCell(sheetId: string, address: string, stored: StoredCell): StoredRecord {
  const [input, value, revision, extra] = stored
  const { row, col } = parseAddress(address)
  const record: StoredRecord = { sheetId, revision, address, row, col, input, value, type: typeOf(value, extra?.e === 1) }
  if (extra) {
    if (extra.f !== undefined) record.userFormat = extra.f
    if (extra.g !== undefined) record.suggestedFormat = extra.g
    if (extra.s !== undefined) record.style = extra.s
    if (extra.l === 1) record.legacy = true
    if (extra.a !== undefined) record.arrayRange = extra.a
  }
  return record
}

/** Every cell of the blocks, decoded; `after` keeps only cells written after that revision. */
export function* blockCells(blocks: Iterable<CellBlockDoc>, after?: number): Generator<StoredRecord> {
  for (const block of blocks) {
    for (const address in block.cells) {
      const stored = block.cells[address]
      if (after === undefined || stored[2] > after) yield decodeCell(block.sheetId, address, stored)
    }
  }
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
 * The blocks of new cells (a new workbook), built as the records come: records may arrive in any
 * order; `flush` hands over the blocks collected so far.
 */
export class BlockBuilder {
  private blocks = new Map<string, CellBlockDoc>()
  count = 0

  constructor(
    private readonly workbookId: string,
    private readonly revision: number,
  ) {}

  /** Adds a cell, written at the builder's revision unless it names its own. */
  add(sheetId: string, record: CellRecord, revision = this.revision): void {
    const { blockRow, blockColumn } = blockOf(record.row, record.col)
    const id = blockDocId(this.workbookId, sheetId, blockRow, blockColumn)
    let block = this.blocks.get(id)
    if (!block) {
      block = { id, workbookId: this.workbookId, sheetId, blockRow, blockColumn, revision, cells: {} }
      this.blocks.set(id, block)
    } else if (revision > block.revision) block.revision = revision
    block.cells[record.address] = encodeCell(record, revision)
    this.count++
  }

  /** The blocks collected so far, forgotten here. */
  flush(): CellBlockDoc[] {
    const blocks = [...this.blocks.values()]
    this.blocks = new Map()
    return blocks
  }
}

/**
 * Applies cell writes to the blocks that hold them: `current` are those blocks as stored (missing
 * ones are new). Answers the blocks to store and the ids of blocks left empty.
 */
export function applyToBlocks(
  workbookId: string,
  revision: number,
  writes: readonly CellPut[],
  current: readonly CellBlockDoc[],
): { put: CellBlockDoc[]; emptied: string[] } {
  const byId = new Map(current.map((block) => [block.id, block]))
  const touched = new Map<string, CellBlockDoc>()
  for (const write of writes) {
    const { blockRow, blockColumn } = blockOf(write.row, write.col)
    const id = blockDocId(workbookId, write.sheetId, blockRow, blockColumn)
    let block = touched.get(id)
    if (!block) {
      block = byId.get(id) ?? { id, workbookId, sheetId: write.sheetId, blockRow, blockColumn, revision, cells: {} }
      block.revision = revision
      touched.set(id, block)
    }
    if (write.record) block.cells[write.address] = encodeCell(write.record, revision)
    else delete block.cells[write.address]
  }
  const put: CellBlockDoc[] = []
  const emptied: string[] = []
  for (const block of touched.values()) {
    let empty = true
    for (const _ in block.cells) {
      empty = false
      break
    }
    if (!empty) put.push(block)
    else if (byId.has(block.id)) emptied.push(block.id)
  }
  return { put, emptied }
}

/** The ids of the blocks that hold these cells. */
export function blockIdsOf(workbookId: string, writes: readonly Pick<CellPut, 'sheetId' | 'row' | 'col'>[]): string[] {
  const ids = new Set<string>()
  for (const write of writes) {
    const { blockRow, blockColumn } = blockOf(write.row, write.col)
    ids.add(blockDocId(workbookId, write.sheetId, blockRow, blockColumn))
  }
  return [...ids]
}
