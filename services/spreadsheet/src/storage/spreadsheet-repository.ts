import type { DocumentStore, DocumentTransaction } from '@finsheet/platform'
import type { CellDoc, CellHistoryDoc, ChangeDoc, VersionDoc, WorkbookDoc } from './documents.js'

/**
 * The service's collections. Every read and write of stored workbooks goes through here; a write
 * that must be atomic takes a transaction and passes it as `tx`.
 */
export function createSpreadsheetRepository(store: DocumentStore) {
  const workbooks = (tx: DocumentTransaction = store) =>
    tx.collection<WorkbookDoc>('workbooks', { indexes: [{ fields: ['ownerId', 'updatedAt'] }] })
  const cells = (tx: DocumentTransaction = store) =>
    tx.collection<CellDoc>('cells', { indexes: [{ fields: ['workbookId', 'sheetId'] }, { fields: ['workbookId', 'revision'] }] })
  const changes = (tx: DocumentTransaction = store) =>
    tx.collection<ChangeDoc>('changes', { indexes: [{ fields: ['workbookId', 'revision'] }, { fields: ['workbookId', 'userId', 'revision'] }] })
  const history = (tx: DocumentTransaction = store) =>
    tx.collection<CellHistoryDoc>('cell_history', { indexes: [{ fields: ['workbookId', 'sheetId', 'address', 'revision'] }] })
  const versions = (tx: DocumentTransaction = store) =>
    tx.collection<VersionDoc>('versions', { indexes: [{ fields: ['ownerId', 'timestamp'] }, { fields: ['workbookId', 'number'] }] })

  return {
    store,
    workbooks,
    cells,
    changes,
    history,
    versions,

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

    sheetCells(workbookId: string, sheetId: string): Promise<CellDoc[]> {
      return cells().find({ workbookId, sheetId })
    },

    workbookCells(workbookId: string): Promise<CellDoc[]> {
      return cells().find({ workbookId })
    },

    /** Cells whose input or value some change after `revision` wrote. */
    cellsWrittenAfter(workbookId: string, revision: number): Promise<CellDoc[]> {
      return cells().find({ workbookId, revision: { $gt: revision } })
    },

    changesAfter(workbookId: string, revision: number, limit?: number): Promise<ChangeDoc[]> {
      return changes().find({ workbookId, revision: { $gt: revision } }, { sort: [['revision', 1]], ...(limit ? { limit } : {}) })
    },

    /** The user's newest change that can still be undone. */
    lastUndoable(workbookId: string, userId: string): Promise<ChangeDoc | null> {
      return changes().findOne({ workbookId, userId, undoable: true, undone: false }, { sort: [['revision', -1]] })
    },

    /** The user's newest undo that was not redone, when no new edit of theirs came after it. */
    async lastRedoable(workbookId: string, userId: string): Promise<ChangeDoc | null> {
      const undo = await changes().findOne({ workbookId, userId, kind: 'undo', redone: false }, { sort: [['revision', -1]] })
      if (!undo) return null
      const edit = await changes().findOne({ workbookId, userId, kind: { $in: ['edit', 'restore'] }, revision: { $gt: undo.revision } })
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
        await cells(tx).deleteMany({ workbookId })
        await changes(tx).deleteMany({ workbookId })
        await history(tx).deleteMany({ workbookId })
        await versions(tx).deleteMany({ workbookId })
        await workbooks(tx).delete(workbookId)
        return removedVersions
      })
    },
  }
}

export type SpreadsheetRepository = ReturnType<typeof createSpreadsheetRepository>

/** Ids that sort by revision within a workbook. */
export const changeId = (workbookId: string, revision: number) => `${workbookId}:${String(revision).padStart(10, '0')}`
export const cellDocId = (workbookId: string, sheetId: string, address: string) => `${workbookId}/${sheetId}/${address}`
export const historyDocId = (workbookId: string, sheetId: string, address: string, revision: number) =>
  `${workbookId}/${sheetId}/${address}/${String(revision).padStart(10, '0')}`
