/**
 * Versions (spec 1, Version Control): snapshots of a workbook in the blob store with a record of who,
 * when, what type and what changed. Made automatically after a quiet period with changes (minor for
 * small edits, auto-save for more), as major ones when a user saves, an AI changeset is applied or a
 * version is restored, and compared cell by cell.
 */
import type { AuthUser, Logger } from '@finsheet/platform'
import type { CompareVersionsResponse, ListVersionsQuery, ListVersionsResponse, VersionRecord, VersionType } from '@finsheet/contracts'
import { diffSnapshots, snapshotStats, type SnapshotDiff, type WorkbookSnapshot } from '@finsheet/workbook'
import { spreadsheetErrors } from '../errors.js'
import { newVersionId } from '../engine/ids.js'
import type { WorkbookState } from '../engine/workbook-state.js'
import type { PerformanceMetrics } from '../metrics/performance-metrics.js'
import type { VersionDoc, WorkbookDoc } from '../storage/documents.js'
import type { SnapshotStore, StreamedSnapshot } from '../storage/snapshot-store.js'
import type { SpreadsheetRepository } from '../storage/spreadsheet-repository.js'
import { changedSheets, describeChanges, isSmallEdit } from './change-summary.js'
import { displayName, type ChangeListener, type ChangeOutcome, type WorkbookService } from './workbook-service.js'

export interface VersionServiceOptions {
  /** Quiet time after the last change before an automatic version is made; 0 turns them off. */
  quietMs: number
  logger?: Pick<Logger, 'warn'>
}

export interface NewVersion {
  /** Major, or chosen from the size of the changes when absent. */
  type?: VersionType
  tags?: string[]
  /** Replaces the generated `changes` text. */
  message?: string
  /** Put before the generated text. */
  prefix?: string
  aiSummary?: string | null
  restoredFrom?: string | null
  /** Describe the changes against this state instead of the previous version (a restore, against what it replaced). */
  comparedWith?: WorkbookSnapshot
  /** The state's snapshot when the caller has it already. */
  snapshot?: WorkbookSnapshot
}

/** The diff kept for a version's text and type; the counts stay exact past it. */
const DIFF_LIMIT = 5000
const WRITE_ATTEMPTS = 4

/**
 * A version as the API answers it. `workbookName` is the workbook's name now: a renamed workbook's
 * versions carry the new name, as the top bar and downloads do.
 */
export function toVersionRecord(doc: VersionDoc, currentNumber: number, workbookName = doc.fileName): VersionRecord {
  return {
    id: doc.id,
    workbookId: doc.workbookId,
    number: doc.number,
    fileName: workbookName,
    author: doc.author,
    authorId: doc.authorId,
    timestamp: doc.timestamp,
    type: doc.type,
    status: doc.number === currentNumber ? 'current' : 'previous',
    changes: doc.changes,
    aiSummary: doc.aiSummary,
    tags: doc.tags,
    revision: doc.revision,
    sheets: doc.stats.sheets,
    cells: doc.stats.cells,
    formulas: doc.stats.formulas,
    restoredFrom: doc.restoredFrom,
  }
}

export class VersionService implements ChangeListener {
  private readonly timers = new Map<string, { timer: NodeJS.Timeout; user: AuthUser }>()
  private closed = false

  constructor(
    private readonly repo: SpreadsheetRepository,
    private readonly snapshots: SnapshotStore,
    private readonly workbooks: WorkbookService,
    private readonly metrics: PerformanceMetrics,
    private readonly options: VersionServiceOptions,
  ) {
    workbooks.onChange(this)
  }

  /** Every stored change restarts the workbook's quiet-period timer. */
  changed(workbook: WorkbookDoc, user: AuthUser): void {
    if (this.closed || this.options.quietMs <= 0) return
    const pending = this.timers.get(workbook.id)
    if (pending) clearTimeout(pending.timer)
    const timer = setTimeout(() => {
      this.timers.delete(workbook.id)
      void this.autoSave(workbook.id, user)
    }, this.options.quietMs)
    timer.unref()
    this.timers.set(workbook.id, { timer, user })
  }

  /** Makes the automatic version of a workbook with unsaved changes, if it still has some. */
  async autoSave(workbookId: string, user: AuthUser): Promise<VersionDoc | null> {
    try {
      return await this.workbooks.withOpenWorkbook(workbookId, user, async (workbook, state) => {
        if (workbook.revision <= workbook.versionedRevision) return null
        return this.createVersion(workbook, state, user, {})
      })
    } catch (error) {
      if ((error as { code?: string }).code !== 'WORKBOOK_NOT_FOUND') this.options.logger?.warn({ err: error, workbookId }, 'automatic version failed')
      return null
    }
  }

  /** Makes every automatic version that is waiting now (on shutdown, and for tests). */
  async flush(): Promise<void> {
    const pending = [...this.timers]
    this.timers.clear()
    for (const [workbookId, { timer, user }] of pending) {
      clearTimeout(timer)
      await this.autoSave(workbookId, user)
    }
  }

  close(): void {
    this.closed = true
    for (const { timer } of this.timers.values()) clearTimeout(timer)
    this.timers.clear()
  }

  /** Stores a version of the open workbook; call under the workbook's lock. */
  async createVersion(workbook: WorkbookDoc, state: WorkbookState, user: AuthUser, options: NewVersion): Promise<VersionDoc> {
    const previous = await this.repo.latestVersion(workbook.id)
    // The first version is compared with nothing: its cells are written as they are read, never held whole.
    if (!previous && !options.comparedWith && !options.snapshot) {
      const stats = { sheets: state.sheets.length, ...state.totals() }
      return this.storeVersion(workbook, state, user, options, streamedSnapshot(workbook.name, state), stats, 'Created the workbook.', undefined)
    }
    const snapshot = options.snapshot ?? state.snapshot(workbook.name)
    let diff: SnapshotDiff | undefined
    let previousSnapshot: WorkbookSnapshot | undefined
    if (options.comparedWith || previous) {
      previousSnapshot = options.comparedWith ?? (await this.snapshots.get((previous as VersionDoc).snapshotKey))
      diff = diffSnapshots(previousSnapshot, snapshot, DIFF_LIMIT)
    }
    const generated = diff && previousSnapshot ? describeChanges(diff, previousSnapshot, snapshot) : 'Created the workbook.'
    return this.storeVersion(workbook, state, user, options, snapshot, snapshotStats(snapshot), generated, diff)
  }

  private async storeVersion(
    workbook: WorkbookDoc,
    state: WorkbookState,
    user: AuthUser,
    options: NewVersion,
    snapshot: WorkbookSnapshot | StreamedSnapshot,
    stats: VersionDoc['stats'],
    generated: string,
    diff: SnapshotDiff | undefined,
  ): Promise<VersionDoc> {
    const type: VersionType = options.type ?? (diff && isSmallEdit(diff) ? 'minor' : 'auto-save')
    const changes = options.message ?? (options.prefix ? `${options.prefix} ${generated}` : generated)
    const tags = [...new Set([...(options.tags ?? []), ...(diff ? changedSheets(diff).slice(0, 3) : [])])]

    const id = newVersionId()
    const snapshotKey = this.snapshots.versionKey(workbook.id, id)
    await this.snapshots.put(snapshotKey, snapshot)
    const number = await this.reserveNumber(workbook.id, state.revision)
    const doc: VersionDoc = {
      id,
      workbookId: workbook.id,
      ownerId: workbook.ownerId,
      number,
      fileName: workbook.name,
      author: displayName(user),
      authorId: user.uid,
      timestamp: new Date().toISOString(),
      type,
      changes,
      aiSummary: options.aiSummary ?? null,
      tags,
      revision: state.revision,
      stats,
      snapshotKey,
      restoredFrom: options.restoredFrom ?? null,
    }
    await this.repo.versions().insert(doc)
    this.metrics.recordVersion(type)
    return doc
  }

  /** The next version number, taken with a compare-and-set so that replicas never share one. */
  private async reserveNumber(workbookId: string, revision: number): Promise<number> {
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      const current = await this.repo.workbooks().get(workbookId)
      if (!current) throw spreadsheetErrors.workbookNotFound()
      const number = current.versionCount + 1
      const updated = await this.repo.workbooks().update(
        { id: workbookId, versionCount: current.versionCount },
        { versionCount: number, versionedRevision: Math.max(revision, current.versionedRevision) },
      )
      if (updated === 1) return number
    }
    throw spreadsheetErrors.busy()
  }

  /** Saves a major version now (the Save route). */
  save(workbookId: string, user: AuthUser, options: { message?: string; tags?: string[] }): Promise<VersionDoc> {
    return this.workbooks.withOpenWorkbook(workbookId, user, (workbook, state) =>
      this.createVersion(workbook, state, user, { type: 'major', message: options.message, tags: ['saved', ...(options.tags ?? [])] }),
    )
  }

  /** The major version an applied AI changeset makes. */
  async afterAiChange(outcome: ChangeOutcome, user: AuthUser, summary: string | null): Promise<void> {
    await this.createVersion(outcome.workbook, outcome.state, user, { type: 'major', aiSummary: summary, tags: ['ai'], prefix: `AI changeset: ${outcome.label}.` })
  }

  /** Puts a version back as a new change (undoable) and records it as a new major version. */
  async restore(workbookId: string, versionId: string, user: AuthUser, revision?: number): Promise<{ outcome: ChangeOutcome; version: VersionDoc; restored: VersionDoc }> {
    const workbook = await this.workbooks.requireWorkbook(workbookId, user)
    const restored = await this.repo.versions().get(versionId)
    if (!restored || restored.workbookId !== workbook.id) throw spreadsheetErrors.versionNotFound()
    let version: VersionDoc | undefined
    const when = restored.timestamp.replace('T', ' ').slice(0, 16)
    const outcome = await this.workbooks.restoreSnapshot(workbookId, user, restored.snapshotKey, `Restore version ${restored.number}`, revision, async (done) => {
      version = await this.createVersion(done.workbook, done.state, user, {
        comparedWith: await this.snapshots.get(this.snapshots.restoreKey(workbookId, done.revision - 1)),
        type: 'major',
        tags: ['restore'],
        restoredFrom: restored.id,
        prefix: `Restored version ${restored.number} of ${when} UTC.`,
      })
    })
    return { outcome, version: version as VersionDoc, restored }
  }

  async list(user: AuthUser, query: ListVersionsQuery, workbookId?: string): Promise<Omit<ListVersionsResponse, 'success'>> {
    const workbooks = await this.repo.allWorkbooks(user.uid)
    const current = new Map(workbooks.map((workbook) => [workbook.id, workbook.versionCount]))
    const names = new Map(workbooks.map((workbook) => [workbook.id, workbook.name]))
    const nameOf = (version: VersionDoc) => names.get(version.workbookId) ?? version.fileName
    const all = workbookId ? await this.repo.workbookVersions(workbookId) : await this.repo.userVersions(user.uid)
    const search = query.search?.trim().toLowerCase() ?? ''
    const type = query.type ?? 'all'
    const matching = all
      .filter((version) => current.has(version.workbookId))
      .filter((version) => type === 'all' || version.type === type)
      .filter((version) => query.workbook === undefined || query.workbook === '' || nameOf(version).startsWith(query.workbook))
      .filter(
        (version) =>
          search === '' ||
          [nameOf(version), version.author, version.changes, version.aiSummary ?? '', ...version.tags].some((field) => field.toLowerCase().includes(search)),
      )
      .sort((a, b) => b.timestamp.localeCompare(a.timestamp) || b.number - a.number)
    const offset = query.offset ?? 0
    const limit = query.limit ?? 50
    return {
      versions: matching.slice(offset, offset + limit).map((version) => toVersionRecord(version, current.get(version.workbookId) ?? 0, nameOf(version))),
      total: matching.length,
      totalVersions: all.filter((version) => current.has(version.workbookId)).length,
      activeWorkbooks: workbooks.length,
    }
  }

  /** Cell-by-cell differences between two versions of a workbook, or a version and the workbook now. */
  async compare(workbookId: string, user: AuthUser, from: string, to: string, limit: number): Promise<Omit<CompareVersionsResponse, 'success'>> {
    const workbook = await this.workbooks.requireWorkbook(workbookId, user)
    const side = async (id: string) => {
      if (id === 'current') return { id, number: null, snapshot: await this.workbooks.storedSnapshot(workbook) }
      const version = await this.repo.versions().get(id)
      if (!version || version.workbookId !== workbook.id) throw spreadsheetErrors.versionNotFound()
      return { id, number: version.number, snapshot: await this.snapshots.get(version.snapshotKey) }
    }
    const [before, after] = [await side(from), await side(to)]
    const diff = diffSnapshots(before.snapshot, after.snapshot, limit)
    return {
      from: { id: before.id, number: before.number, revision: before.snapshot.revision },
      to: { id: after.id, number: after.number, revision: after.snapshot.revision },
      summary: diff.summary,
      sheets: diff.sheets,
      cells: diff.cells,
      truncated: diff.truncated,
    }
  }

  async getVersion(workbookId: string, versionId: string, user: AuthUser): Promise<VersionRecord> {
    const workbook = await this.workbooks.requireWorkbook(workbookId, user)
    const version = await this.repo.versions().get(versionId)
    if (!version || version.workbookId !== workbook.id) throw spreadsheetErrors.versionNotFound()
    return toVersionRecord(version, workbook.versionCount, workbook.name)
  }
}

/** The state as a snapshot whose cells are read from the engine as the snapshot is written. */
function streamedSnapshot(name: string, state: WorkbookState): StreamedSnapshot {
  return {
    format: 'finsheet-workbook',
    formatVersion: 1,
    name,
    revision: state.revision,
    sheets: state.sheets.map((sheet) => ({ ...sheet, columnWidths: { ...sheet.columnWidths }, merges: [...sheet.merges], cells: { [Symbol.iterator]: () => state.rowMajorRecords(sheet.id) } })),
    definedNames: state.definedNames.map((definition) => ({ ...definition })),
    ...(state.tables.length > 0 ? { tables: state.tables } : {}),
    charts: state.charts.map((chart) => ({ ...chart })),
    ...(state.externalLinks.length > 0 ? { externalLinks: state.externalLinks } : {}),
  }
}
