/**
 * The assistant's tools run against the spreadsheet service's own open workbook, one model turn at a
 * time, and what they write is kept in a changeset that belongs to the user. A turn runs under the
 * workbook's lock: the changeset's draft is applied, the calls run in order (reads see the draft,
 * writes add to it), the changeset's effect is worked out, and everything is undone before the lock
 * is released, so the store and every other reader see the workbook as it was. Applying the changeset
 * is one change in the workbook's history (source 'ai', a major version): one undo reverts all of it.
 */
import { randomUUID } from 'node:crypto'
import type { AuthUser, Logger } from '@finsheet/platform'
import {
  type AgentToolResult,
  type AgentToolsBody,
  type AgentToolsResponse,
  type ApplyChangesetBody,
  type ApprovalReason,
  type CellRef,
  type Changeset,
  type ChangesetBrief,
  type ChangeResponse,
  type WorkbookCommand,
} from '@finsheet/contracts'
import { CommandError, plural, seriesInColumnsFor, tryParseRange, type WorkbookModel } from '@finsheet/workbook'
import { newChartId } from '../engine/ids.js'
import { spreadsheetErrors } from '../errors.js'
import { toChangeResponse } from '../routes/responses.js'
import type { ChangesetDoc, WorkbookDoc } from '../storage/documents.js'
import type { SpreadsheetRepository } from '../storage/spreadsheet-repository.js'
import type { VersionService } from '../workbooks/version-service.js'
import type { WorkbookService } from '../workbooks/workbook-service.js'
import { changesetView, type ChangesetView, type Fingerprint } from './changeset-view.js'
import { DraftSession } from './draft-session.js'
import { networkRisk } from './safety.js'
import { emptyRecord, type CallRecord } from './tool-kit.js'
import { runToolCall } from './tool-runner.js'

/** "12 cells on FCF and 2 on Inputs; Insert 1 row on Revenue before row 5; 2 ranges formatted; 1 chart". */
function describe(doc: Pick<ChangesetDoc, 'view' | 'structural' | 'formats' | 'charts'>): string {
  const parts: string[] = []
  const bySheet = new Map<string, number>()
  for (const change of doc.view.changes) bySheet.set(change.sheet, (bySheet.get(change.sheet) ?? 0) + 1)
  const listed = doc.view.changes.length
  if (doc.view.changeCount > 0) {
    const sheets = [...bySheet]
    if (sheets.length === 1 && listed === doc.view.changeCount) parts.push(`${plural(doc.view.changeCount, 'cell')} on ${sheets[0][0]}`)
    else if (listed === doc.view.changeCount) parts.push(sheets.map(([sheet, n], i) => (i === 0 ? `${plural(n, 'cell')} on ${sheet}` : `${n} on ${sheet}`)).join(', '))
    else parts.push(`${plural(doc.view.changeCount, 'cell')} on ${plural(bySheet.size, 'sheet')}`)
  }
  for (const step of doc.structural) parts.push(step.description)
  if (doc.formats.length > 0) parts.push(`${plural(doc.formats.length, 'range')} formatted`)
  if (doc.charts.length > 0) parts.push(plural(doc.charts.length, 'chart'))
  return parts.length === 0 ? 'No changes' : parts.join('; ')
}

export function toChangeset(doc: ChangesetDoc): Changeset {
  const status = doc.status === 'applying' ? 'draft' : doc.status
  return {
    id: doc.id,
    workbookId: doc.workbookId,
    status,
    applied: doc.status === 'applied',
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    baseRevision: doc.view.baseRevision,
    description: doc.description,
    changes: doc.view.changes,
    changeCount: doc.view.changeCount,
    structural: doc.structural,
    formats: doc.formats,
    charts: doc.charts,
    downstream: doc.view.downstream,
    downstreamCount: doc.view.downstreamCount,
    errors: doc.view.errors,
    needsApproval: doc.approvalReasons.length > 0,
    approvalReasons: doc.approvalReasons,
    highlights: doc.view.highlights,
    toolCalls: doc.toolCalls,
    changeId: doc.changeId,
    appliedRevision: doc.appliedRevision,
    appliedAt: doc.appliedAt,
  }
}

function brief(doc: ChangesetDoc): ChangesetBrief {
  return {
    id: doc.id,
    status: doc.status === 'applying' ? 'draft' : doc.status,
    description: doc.description,
    changeCount: doc.view.changeCount,
    downstreamCount: doc.view.downstreamCount,
    errorCount: doc.view.errors.length,
    needsApproval: doc.approvalReasons.length > 0,
    approvalReasons: doc.approvalReasons,
    highlights: doc.view.highlights,
  }
}

/** An apply holds its changeset this long at most; past it, the apply is taken to have died. */
const APPLY_CLAIM_MS = 2 * 60_000

/**
 * The formulas a changeset leaves that could reach the network, each cell by the last input written
 * to it (a risky formula replaced by a safe one no longer needs approval).
 */
function approvalsOf(commands: readonly WorkbookCommand[]): ApprovalReason[] {
  const last = new Map<string, { sheet: string; address: string; input: string }>()
  const visit = (command: WorkbookCommand) => {
    if (command.type === 'batch') command.commands.forEach(visit)
    if (command.type !== 'set-cells') return
    for (const cell of command.cells) {
      if (cell.input === undefined) continue
      last.set(`${command.sheet.toUpperCase()}!${cell.address.toUpperCase()}`, { sheet: command.sheet, address: cell.address.toUpperCase(), input: String(cell.input ?? '') })
    }
  }
  commands.forEach(visit)
  const reasons: ApprovalReason[] = []
  for (const cell of last.values()) {
    const reason = networkRisk(cell.input)
    if (reason) reasons.push({ sheet: cell.sheet, address: cell.address, formula: cell.input, reason })
  }
  return reasons
}

/** The written cells that hold something else now than when the changeset was worked out. */
function changedSince(state: WorkbookModel, view: ChangesetView): CellRef[] {
  if (state.revision === view.baseRevision) return []
  const changed: CellRef[] = []
  const sheets = new Map(state.sheets.map((sheet) => [sheet.id, sheet]))
  const byId = (fingerprint: Fingerprint) => sheets.get(fingerprint.sheetId)
  for (const fingerprint of view.fingerprints) {
    const sheet = byId(fingerprint)
    if (!sheet) {
      changed.push({ sheet: '(deleted sheet)', address: fingerprint.address })
      continue
    }
    if (state.engine.getInput(sheet.name, fingerprint.address) !== fingerprint.input) changed.push({ sheet: sheet.name, address: fingerprint.address })
  }
  return changed
}

export class ChangesetService {
  constructor(
    private readonly repo: SpreadsheetRepository,
    private readonly workbooks: WorkbookService,
    private readonly versions: VersionService,
    private readonly logger?: Pick<Logger, 'error' | 'info'>,
  ) {}

  /**
   * The user's changeset, or 404 for one that is missing or someone else's. An apply that stopped
   * long ago without finishing (its process died) leaves the changeset a draft again: if its change
   * was stored after all, the cells it wrote no longer hold what they held, and applying it again is
   * refused as a conflict.
   */
  private async owned(id: string, user: AuthUser): Promise<ChangesetDoc> {
    const doc = await this.repo.changesets().get(id)
    if (!doc || doc.ownerId !== user.uid) throw spreadsheetErrors.changesetNotFound()
    if (doc.status === 'applying' && Date.now() - Date.parse(doc.updatedAt) > APPLY_CLAIM_MS) {
      if ((await this.repo.changesets().update({ id, status: 'applying', updatedAt: doc.updatedAt }, { status: 'draft' })) === 1) return { ...doc, status: 'draft' }
    }
    return doc
  }

  async get(id: string, user: AuthUser): Promise<Changeset> {
    return toChangeset(await this.owned(id, user))
  }

  /** Runs one model turn's tool calls in order against the workbook with the changeset's draft. */
  async runTools(workbookId: string, user: AuthUser, body: AgentToolsBody): Promise<AgentToolsResponse> {
    const started = performance.now()
    return this.workbooks.withOpenWorkbook(workbookId, user, async (workbook, state) => {
      // The changeset is read and written under the workbook's lock, so two turns cannot both extend one version of it.
      let doc: ChangesetDoc | undefined
      if (body.changesetId !== undefined) {
        doc = await this.owned(body.changesetId, user)
        if (doc.workbookId !== workbookId) throw spreadsheetErrors.changesetNotFound()
        if (doc.status === 'applying') throw spreadsheetErrors.changesetBusy()
        if (doc.status !== 'draft') throw spreadsheetErrors.changesetClosed(doc.status)
      }
      const changesetId = doc?.id ?? randomUUID()
      let session: DraftSession
      try {
        session = DraftSession.open(state, { id: changesetId, commands: doc?.commands ?? [], written: doc?.written ?? [] })
      } catch (error) {
        if (error instanceof CommandError) throw spreadsheetErrors.changesetStale(error.message)
        this.workbooks.discardOpenWorkbook(workbookId)
        throw error
      }
      const records = emptyRecord()
      const results: AgentToolResult[] = []
      let view: ChangesetView | undefined
      try {
        for (const call of body.calls) results.push(await runToolCall(call, session, workbook.name, records, this.logger))
        // A chart is a write kept beside the cell commands: a turn that only adds one still makes a changeset.
        if (session.wrote || records.charts.length > 0) view = changesetView(session)
        else session.close()
      } catch (error) {
        // Undoing the draft failed, or something broke midway: the open workbook may differ from the store.
        this.workbooks.discardOpenWorkbook(workbookId)
        throw error
      }
      let saved = doc
      if (view) saved = await this.save(doc, { id: changesetId, workbook, user, session, records, view, calls: body.calls.length })
      else if (doc) await this.repo.changesets().update({ id: doc.id, version: doc.version }, { toolCalls: doc.toolCalls + body.calls.length })
      this.logger?.info({ workbookId, changesetId: saved?.id ?? null, calls: results.map((result) => ({ name: result.name, ok: result.ok, ms: result.ms })) }, 'agent tool calls')
      return {
        success: true as const,
        changesetId: saved?.id ?? null,
        changeset: saved ? brief(saved) : null,
        results,
        serviceMs: Math.round((performance.now() - started) * 100) / 100,
      }
    })
  }

  /** Stores the changeset after a turn that wrote: created, or extended only if no other turn did first. */
  private async save(
    doc: ChangesetDoc | undefined,
    turn: { id: string; workbook: WorkbookDoc; user: AuthUser; session: DraftSession; records: CallRecord; view: ChangesetView; calls: number },
  ): Promise<ChangesetDoc> {
    const now = new Date().toISOString()
    const commands: WorkbookCommand[] = [...(doc?.commands ?? []), ...turn.session.added]
    const next: ChangesetDoc = {
      id: turn.id,
      workbookId: turn.workbook.id,
      ownerId: turn.user.uid,
      status: 'draft',
      version: (doc?.version ?? 0) + 1,
      createdAt: doc?.createdAt ?? now,
      updatedAt: now,
      commands,
      written: turn.session.writtenCells(),
      structural: [...(doc?.structural ?? []), ...turn.records.structural],
      formats: [...(doc?.formats ?? []), ...turn.records.formats],
      charts: [...(doc?.charts ?? []), ...turn.records.charts],
      approvalReasons: approvalsOf(commands),
      toolCalls: (doc?.toolCalls ?? 0) + turn.calls,
      view: turn.view,
      description: '',
      changeId: null,
      appliedRevision: null,
      appliedAt: null,
    }
    next.description = describe(next)
    if (!doc) {
      await this.repo.changesets().insert(next)
      return next
    }
    const { id: _id, ...patch } = next
    if ((await this.repo.changesets().update({ id: doc.id, version: doc.version, status: 'draft' }, patch)) !== 1) throw spreadsheetErrors.changesetBusy()
    return next
  }

  /**
   * Applies the changeset as one change (source 'ai': a major version with the summary), then adds its
   * charts. Refused with 409 when it needs approval and has none, or when a cell it writes changed
   * since it was worked out; nothing is applied then.
   */
  async apply(id: string, user: AuthUser, body: ApplyChangesetBody): Promise<{ changeset: Changeset; change: ChangeResponse | null }> {
    const doc = await this.owned(id, user)
    if (doc.status === 'applying') throw spreadsheetErrors.changesetBusy()
    if (doc.status !== 'draft') throw spreadsheetErrors.changesetClosed(doc.status)
    if (doc.approvalReasons.length > 0 && body.approve !== true) throw spreadsheetErrors.approvalRequired(doc.approvalReasons)
    if ((await this.repo.changesets().update({ id, version: doc.version, status: 'draft' }, { status: 'applying', updatedAt: new Date().toISOString() })) !== 1) throw spreadsheetErrors.changesetBusy()
    let change: ChangeResponse | null = null
    try {
      if (doc.commands.length > 0) {
        const outcome = await this.workbooks.change(
          doc.workbookId,
          user,
          {
            commands: (state) => {
              const changed = changedSince(state, doc.view)
              if (changed.length > 0) throw spreadsheetErrors.changesetConflict(changed)
              return doc.commands
            },
            source: 'ai',
            label: body.label ?? `Assistant: ${doc.description}`.slice(0, 200),
            summary: body.summary ?? doc.description,
          },
          (done) => this.versions.afterAiChange(done, user, body.summary ?? doc.description),
        )
        change = toChangeResponse(outcome)
      }
    } catch (error) {
      await this.repo.changesets().update({ id, status: 'applying' }, { status: 'draft' })
      if (error instanceof CommandError) throw spreadsheetErrors.changesetStale(error.message)
      throw error
    }
    if (doc.charts.length > 0) {
      try {
        await this.workbooks.updateMetadata(doc.workbookId, user, (state) => {
          for (const chart of doc.charts) {
            const sheet = state.findSheet(chart.sheet)
            if (!sheet) continue
            const area = tryParseRange(chart.range)
            const seriesInColumns = area ? seriesInColumnsFor({ width: area.right - area.left + 1, height: area.bottom - area.top + 1 }) : true
            state.charts.push({ id: newChartId(), type: chart.type, title: chart.title, sheetId: sheet.id, dataRange: chart.range, seriesInColumns, createdAt: new Date().toISOString() })
          }
        })
      } catch (error) {
        // The cells are applied; a chart that could not be added is reported in the log, not as a failed apply.
        this.logger?.error({ err: error, changesetId: id }, 'adding the charts of an applied changeset failed')
      }
    }
    const now = new Date().toISOString()
    const applied: ChangesetDoc = { ...doc, status: 'applied', updatedAt: now, changeId: change?.changeId ?? null, appliedRevision: change?.revision ?? null, appliedAt: now }
    await this.repo.changesets().update({ id }, { status: 'applied', updatedAt: now, changeId: applied.changeId, appliedRevision: applied.appliedRevision, appliedAt: now })
    return { changeset: toChangeset(applied), change }
  }

  /** Drops a changeset that was not applied; nothing in the workbook changes. */
  async discard(id: string, user: AuthUser): Promise<Changeset> {
    const doc = await this.owned(id, user)
    if (doc.status === 'applying') throw spreadsheetErrors.changesetBusy()
    if (doc.status !== 'draft') throw spreadsheetErrors.changesetClosed(doc.status)
    const now = new Date().toISOString()
    if ((await this.repo.changesets().update({ id, version: doc.version, status: 'draft' }, { status: 'discarded', updatedAt: now })) !== 1) throw spreadsheetErrors.changesetBusy()
    return toChangeset({ ...doc, status: 'discarded', updatedAt: now })
  }
}
