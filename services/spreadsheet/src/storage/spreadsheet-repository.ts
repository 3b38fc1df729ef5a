import type { DeferredDocument, DocumentStore, DocumentTransaction } from '@finsheet/platform'
import { applyToBlocks, BLOCK_COLUMNS, BLOCK_ROWS, blockCells, blockIdsOf, blockPrefix, BlockBuilder, storedPositionOf, type CellBlockDoc, type CellCounts, type CellPut, type Layouts, type StoredRecord } from './cell-blocks.js'
import { INSERTED_COLUMNS_FROM, INSERTED_ROWS_FROM, isIdentityLayout, runsOf, storedIntervals, type SheetLayout } from './sheet-layout.js'
import type { CellHistoryDoc, ChangeDoc, ChangesetDoc, ImportDoc, LegacyCellDoc, PendingWorkbookDoc, TrashedWorkbookDoc, VersionDoc, WorkbookDoc } from './documents.js'

const DELETE_CHUNK = 500

/**
 * The service's collections. Every read and write of stored workbooks goes through here; a write
 * that must be atomic takes a transaction and passes it as `tx`.
 */
export function createSpreadsheetRepository(store: DocumentStore) {
  const workbooks = (tx: DocumentTransaction = store) =>
    tx.collection<WorkbookDoc>('workbooks', { indexes: [{ fields: ['ownerId', 'updatedAt'] }, { fields: ['defaultOf'], unique: true, sparse: true }] })
  /**
   * Deleted workbooks: the document moves here, so that every read of `workbooks` (lists, ownership,
   * versions, search) stops seeing it at once, while its cells, changes and versions stay in place
   * for a restore.
   */
  const trash = (tx: DocumentTransaction = store) =>
    tx.collection<TrashedWorkbookDoc>('trashed_workbooks', { indexes: [{ fields: ['ownerId', 'trashedAt'] }, { fields: ['restorableUntil'] }] })
  /**
   * Cell blocks. Besides the cells written after a revision, the indexes find a sheet's furthest band
   * and column band (its extent) without reading its blocks.
   */
  const blocks = (tx: DocumentTransaction = store) =>
    tx.collection<CellBlockDoc>('cell_blocks', {
      indexes: [{ fields: ['workbookId', 'revision'] }, { fields: ['workbookId', 'sheetId', 'blockRow'] }, { fields: ['workbookId', 'sheetId', 'blockColumn'] }],
    })
  /** Where cells were kept one document each before blocks; read only to move them into blocks. */
  const legacyCells = (tx: DocumentTransaction = store) => tx.collection<LegacyCellDoc>('cells', { indexes: [{ fields: ['workbookId', 'sheetId'] }] })
  /** New workbooks whose blocks are being written in several transactions, not visible yet. */
  const pendingWorkbooks = (tx: DocumentTransaction = store) => tx.collection<PendingWorkbookDoc>('pending_workbooks')
  const imports = (tx: DocumentTransaction = store) => tx.collection<ImportDoc>('imports', { indexes: [{ fields: ['workbookId'] }] })
  const changes = (tx: DocumentTransaction = store) =>
    tx.collection<ChangeDoc>('changes', { indexes: [{ fields: ['workbookId', 'revision'] }, { fields: ['workbookId', 'userId', 'revision'] }] })
  const history = (tx: DocumentTransaction = store) =>
    tx.collection<CellHistoryDoc>('cell_history', { indexes: [{ fields: ['workbookId', 'sheetId', 'address', 'revision'] }] })
  const versions = (tx: DocumentTransaction = store) =>
    tx.collection<VersionDoc>('versions', { indexes: [{ fields: ['ownerId', 'timestamp'] }, { fields: ['workbookId', 'number'] }] })
  /** Assistants' changesets, each owned by its user like the workbook it changes. */
  const changesets = (tx: DocumentTransaction = store) =>
    tx.collection<ChangesetDoc>('changesets', { indexes: [{ fields: ['ownerId', 'updatedAt'] }, { fields: ['workbookId'] }] })

  /** The stored cells of one sheet's block rows `firstBlockRow` to `lastBlockRow`, where they stand through `layout`. */
  async function storedBands(workbookId: string, sheetId: string, firstBlockRow: number, lastBlockRow: number, layout?: SheetLayout): Promise<StoredRecord[]> {
    const bands: Promise<CellBlockDoc[]>[] = []
    for (let blockRow = firstBlockRow; blockRow <= lastBlockRow; blockRow++) bands.push(blocks().find({ id: { $prefix: `${blockPrefix(workbookId, sheetId)}${blockRow}/` } }))
    return [...blockCells((await Promise.all(bands)).flat(), undefined, layout ? { [sheetId]: layout } : undefined)]
  }

  /**
   * The cells of one sheet's rows `firstRow` to `lastRow` (0-based, where they stand): only the block
   * rows that keep them are read, each one range of the primary key. Cells of other rows of those
   * blocks come too.
   */
  async function bandCells(workbookId: string, sheetId: string, firstRow: number, lastRow: number, layout?: SheetLayout): Promise<StoredRecord[]> {
    if (isIdentityLayout(layout)) return storedBands(workbookId, sheetId, Math.floor(firstRow / BLOCK_ROWS), Math.floor(lastRow / BLOCK_ROWS))
    const blockRows = new Set<number>()
    for (const [first, last] of storedIntervals(layout!.rows, firstRow, lastRow)) {
      for (let blockRow = Math.floor(first / BLOCK_ROWS); blockRow <= Math.floor(last / BLOCK_ROWS); blockRow++) blockRows.add(blockRow)
    }
    const bands = await Promise.all([...blockRows].map((blockRow) => storedBands(workbookId, sheetId, blockRow, blockRow, layout)))
    return bands.flat()
  }

  /**
   * The furthest stored row (column) of a sheet from `from` to `to` that keeps a cell: one range query
   * of an index finds the furthest block row (column band), then that band is read (for columns, the
   * first block of it found); bands whose cells all lie outside the range are passed over.
   */
  async function furthestStored(workbookId: string, sheetId: string, axis: 'rows' | 'columns', from: number, to: number): Promise<number | undefined> {
    const field = axis === 'rows' ? 'blockRow' : 'blockColumn'
    const size = axis === 'rows' ? BLOCK_ROWS : BLOCK_COLUMNS
    const lower = Math.floor(from / size)
    let upper = Math.floor(to / size)
    while (upper >= lower) {
      const found = await blocks().find({ workbookId, sheetId, [field]: { $gte: lower, $lte: upper } }, { sort: [[field, -1]], limit: 1 })
      if (found.length === 0) return undefined
      const band = found[0][field]
      const read = axis === 'rows' ? await blocks().find({ id: { $prefix: `${blockPrefix(workbookId, sheetId)}${band}/` } }) : found
      let furthest = -1
      for (const block of read) {
        for (const cell of block.cells) {
          const position = storedPositionOf(block, cell)
          const index = axis === 'rows' ? position.row : position.col
          if (index >= from && index <= to && index > furthest) furthest = index
        }
      }
      if (furthest >= 0) return furthest
      upper = band - 1
    }
    return undefined
  }

  /** One past the last row (column) of a sheet that keeps a cell, through its layout's runs from the last. */
  async function extentAlong(workbookId: string, sheetId: string, axis: 'rows' | 'columns', layout: SheetLayout | undefined): Promise<number> {
    const limit = axis === 'rows' ? INSERTED_ROWS_FROM : INSERTED_COLUMNS_FROM
    const map = layout ? (axis === 'rows' ? layout.rows : layout.columns) : [0]
    for (const run of runsOf(map).reverse()) {
      const last = run.length === Infinity ? limit - 1 : run.start + run.length - 1
      const furthest = await furthestStored(workbookId, sheetId, axis, run.start, last)
      if (furthest !== undefined) return run.first + furthest - run.start + 1
    }
    return 0
  }

  return {
    store,
    workbooks,
    blocks,
    imports,
    pendingWorkbooks,
    changes,
    history,
    versions,
    changesets,

    trash,

    /** The user's first workbook, if they have one (it may have been deleted since). */
    defaultWorkbook(ownerId: string): Promise<WorkbookDoc | null> {
      return workbooks().findOne({ defaultOf: ownerId })
    },

    /**
     * Moves a workbook to the trash in one transaction. Its import records go: a retried import of the
     * same file makes a new workbook rather than answering with a deleted one.
     */
    async trashWorkbook(workbook: WorkbookDoc, now: Date, retentionMs: number): Promise<TrashedWorkbookDoc> {
      const trashed: TrashedWorkbookDoc = { ...workbook, trashedAt: now.toISOString(), restorableUntil: new Date(now.getTime() + retentionMs).toISOString() }
      await store.transaction(async (tx) => {
        await trash(tx).put(trashed)
        await imports(tx).deleteMany({ workbookId: workbook.id })
        await workbooks(tx).delete(workbook.id)
      })
      return trashed
    },

    /** The user's workbook in the trash; null when it is not there or someone else's. */
    async trashedWorkbook(id: string, ownerId: string): Promise<TrashedWorkbookDoc | null> {
      const trashed = await trash().get(id)
      return trashed && trashed.ownerId === ownerId ? trashed : null
    },

    /**
     * Puts a trashed workbook back. It stays the user's first workbook unless another one took that
     * place meanwhile.
     */
    async restoreWorkbook(trashed: TrashedWorkbookDoc, now: string): Promise<WorkbookDoc> {
      const { trashedAt: _trashedAt, restorableUntil: _until, ...workbook } = trashed
      const stillDefault = workbook.defaultOf ? (await workbooks().findOne({ defaultOf: workbook.defaultOf })) === null : false
      const restored: WorkbookDoc = { ...workbook, defaultOf: stillDefault ? workbook.defaultOf : null, updatedAt: now }
      await store.transaction(async (tx) => {
        await workbooks(tx).insert(restored)
        await trash(tx).delete(trashed.id)
      })
      return restored
    },

    /** Trashed workbooks whose time is up. */
    expiredTrash(now: string, limit: number): Promise<TrashedWorkbookDoc[]> {
      return trash().find({ restorableUntil: { $lt: now } }, { sort: [['restorableUntil', 1]], limit })
    },

    /** The workbook if it exists and belongs to the user; null otherwise, so that both answer 404 alike. */
    async ownedWorkbook(id: string, ownerId: string): Promise<WorkbookDoc | null> {
      const workbook = await workbooks().get(id)
      return workbook && workbook.ownerId === ownerId ? workbook : null
    },

    listWorkbooks(ownerId: string, page: { limit: number; offset: number }): Promise<WorkbookDoc[]> {
      return workbooks().find({ ownerId }, { sort: [['updatedAt', -1]], limit: page.limit, offset: page.offset })
    },

    countWorkbooks(ownerId: string): Promise<number> {
      return workbooks().count({ ownerId })
    },

    allWorkbooks(ownerId: string): Promise<WorkbookDoc[]> {
      return workbooks().find({ ownerId }, { sort: [['updatedAt', -1]] })
    },

    /** The stored blocks of a workbook, or of one of its sheets, as they are, each decoded when read (see rowMajorCells). */
    async cellBlocks(workbookId: string, sheetId?: string): Promise<DeferredDocument<CellBlockDoc>[]> {
      return blocks().findDeferred({ id: { $prefix: blockPrefix(workbookId, sheetId) } })
    },

    /** One sheet's cells, where they stand through its layout: only that sheet's blocks are read. */

    async sheetCells(workbookId: string, sheetId: string, layout?: SheetLayout): Promise<StoredRecord[]> {
      // Block ids start with the workbook and the sheet: the primary key finds them.
      return [...blockCells(await blocks().find({ id: { $prefix: blockPrefix(workbookId, sheetId) } }), undefined, layout ? { [sheetId]: layout } : undefined)]
    },

    bandCells,

    /**
     * One sheet's extent from its furthest blocks: one past its last used row (exact: every block of
     * the last band is read) and one past the last used column of the blocks read (the furthest
     * column band's first block among them). Zero for an empty sheet.
     */
    async sheetExtent(workbookId: string, sheetId: string, layout?: SheetLayout): Promise<{ rows: number; columns: number }> {
      const [rows, columns] = await Promise.all([extentAlong(workbookId, sheetId, 'rows', layout), extentAlong(workbookId, sheetId, 'columns', layout)])
      return rows === 0 ? { rows: 0, columns: 0 } : { rows, columns }
    },

    /** Every cell of the workbook, where it stands through its sheets' layouts. */
    async workbookCells(workbookId: string, layouts?: Layouts): Promise<StoredRecord[]> {
      return [...blockCells(await blocks().find({ id: { $prefix: blockPrefix(workbookId) } }), undefined, layouts)]
    },

    /** Cells whose input or value some change after `revision` wrote, where they stand now. */
    async cellsWrittenAfter(workbookId: string, revision: number, layouts?: Layouts): Promise<StoredRecord[]> {
      return [...blockCells(await blocks().find({ workbookId, revision: { $gt: revision } }), revision, layouts)]
    },

    /**
     * Stores a change's cell writes (cells named where they stand, kept where `layouts` says) in the
     * blocks that hold them, inside the change's transaction; answers how the counts of cells and
     * formulas per sheet changed.
     */
    async writeCells(tx: DocumentTransaction, workbookId: string, revision: number, writes: readonly CellPut[], layouts?: Layouts): Promise<Map<string, CellCounts>> {
      if (writes.length === 0) return new Map()
      const current = await blocks(tx).getMany(blockIdsOf(workbookId, writes, layouts))
      const { put, emptied, delta } = applyToBlocks(workbookId, revision, writes, current, layouts)
      // One by one: the change's transaction already makes them atomic, and a batch of a few costs more.
      for (const block of put) await blocks(tx).put(block)
      for (let i = 0; i < emptied.length; i += DELETE_CHUNK) await blocks(tx).deleteMany({ id: { $in: emptied.slice(i, i + DELETE_CHUNK) } })
      return delta
    },

    /**
     * Replaces every block of the workbook with the ones given (its cells written afresh where they
     * stand, every sheet's layout the identity), inside the change's transaction.
     */
    async rewriteCells(tx: DocumentTransaction, workbookId: string, built: readonly CellBlockDoc[]): Promise<void> {
      await blocks(tx).deleteMany({ id: { $prefix: blockPrefix(workbookId) } })
      for (let i = 0; i < built.length; i += DELETE_CHUNK) await blocks(tx).putMany(built.slice(i, i + DELETE_CHUNK))
    },

    /** Removes the blocks a new workbook stored before it failed to become visible. */
    async removeUnfinishedWorkbook(workbookId: string): Promise<void> {
      await store.transaction(async (tx) => {
        if (await workbooks(tx).get(workbookId)) return
        await blocks(tx).deleteMany({ id: { $prefix: blockPrefix(workbookId) } })
        await pendingWorkbooks(tx).delete(workbookId)
      })
    },

    /**
     * Sweeps the blocks of new workbooks that a process stopped writing (it died mid-import) more
     * than `olderThanMs` ago; answers how many it removed. A workbook still being written is younger.
     */
    async sweepUnfinishedWorkbooks(olderThanMs: number): Promise<number> {
      const before = new Date(Date.now() - olderThanMs).toISOString()
      let swept = 0
      for (const pending of await pendingWorkbooks().find({ startedAt: { $lt: before } })) {
        await this.removeUnfinishedWorkbook(pending.id)
        swept++
      }
      return swept
    },

    /**
     * Moves workbooks stored one document per cell (before blocks) into blocks, one workbook per
     * transaction, so that every workbook reads whole at any moment. Answers how many it moved.
     */
    async moveLegacyCells(): Promise<number> {
      let moved = 0
      for (let next = await legacyCells().findOne({}); next; next = await legacyCells().findOne({})) {
        const workbookId = next.workbookId
        await store.transaction(async (tx) => {
          const builder = new BlockBuilder(workbookId, 0)
          for (const { id: _id, workbookId: _workbook, sheetId, revision, ...record } of await legacyCells(tx).find({ workbookId })) {
            builder.add(sheetId, record.row, record.col, { ...record, error: record.type === 'error' }, revision)
          }
          const built = builder.flush()
          if (built.length > 0) await blocks(tx).putMany(built)
          await legacyCells(tx).deleteMany({ workbookId })
        })
        moved++
      }
      return moved
    },

    changesAfter(workbookId: string, revision: number, limit?: number): Promise<ChangeDoc[]> {
      return changes().find({ workbookId, revision: { $gt: revision } }, { sort: [['revision', 1]], ...(limit ? { limit } : {}) })
    },

    /** The newest change of the user (of one of their clients, when named) that can still be undone. */
    lastUndoable(workbookId: string, userId: string, clientId?: string): Promise<ChangeDoc | null> {
      return changes().findOne({ workbookId, userId, ...(clientId ? { clientId } : {}), undoable: true, undone: false }, { sort: [['revision', -1]] })
    },

    /** The newest undo of the user (of one of their clients, when named) not redone, when no new edit of theirs came after it. */
    async lastRedoable(workbookId: string, userId: string, clientId?: string): Promise<ChangeDoc | null> {
      const by = { workbookId, userId, ...(clientId ? { clientId } : {}) }
      const undo = await changes().findOne({ ...by, kind: 'undo', redone: false }, { sort: [['revision', -1]] })
      if (!undo) return null
      const edit = await changes().findOne({ ...by, kind: { $in: ['edit', 'restore'] }, revision: { $gt: undo.revision } })
      return edit ? null : undo
    },

    cellHistory(workbookId: string, sheetId: string, address: string, limit: number): Promise<CellHistoryDoc[]> {
      return history().find({ workbookId, sheetId, address }, { sort: [['revision', -1]], limit })
    },

    workbookVersions(workbookId: string): Promise<VersionDoc[]> {
      return versions().find({ workbookId }, { sort: [['number', -1]] })
    },

    userVersions(ownerId: string): Promise<VersionDoc[]> {
      return versions().find({ ownerId }, { sort: [['timestamp', -1]] })
    },

    async latestVersion(workbookId: string): Promise<VersionDoc | null> {
      return versions().findOne({ workbookId }, { sort: [['number', -1]] })
    },

    /** Removes the workbook and everything stored with it, in one transaction. */
    async deleteWorkbook(workbookId: string): Promise<VersionDoc[]> {
      return store.transaction(async (tx) => {
        const removedVersions = await versions(tx).find({ workbookId })
        await blocks(tx).deleteMany({ id: { $prefix: blockPrefix(workbookId) } })
        await imports(tx).deleteMany({ workbookId })
        await changes(tx).deleteMany({ workbookId })
        await history(tx).deleteMany({ workbookId })
        await versions(tx).deleteMany({ workbookId })
        await changesets(tx).deleteMany({ workbookId })
        await workbooks(tx).delete(workbookId)
        await trash(tx).delete(workbookId)
        return removedVersions
      })
    },
  }
}

export type SpreadsheetRepository = ReturnType<typeof createSpreadsheetRepository>

/** Ids that sort by revision within a workbook. */
export const changeId = (workbookId: string, revision: number) => `${workbookId}:${String(revision).padStart(10, '0')}`
/** One import per user and import id. */
export const importDocId = (ownerId: string, importId: string) => `${ownerId}:${importId}`
export const historyDocId = (workbookId: string, sheetId: string, address: string, revision: number) =>
  `${workbookId}/${sheetId}/${address}/${String(revision).padStart(10, '0')}`
