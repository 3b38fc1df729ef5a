import {
  AgentToolsResponse,
  ApplyChangesetResponse,
  ChangeLogResponse,
  ChangesetResponse,
  EvaluateFormulaResponse,
  ImportWorkbookResponse,
  UndoRedoResponse,
  VersionResponse,
  WorkbookMetadataResponse,
  type AgentToolsBody,
  type ApplyChangesetBody,
  type Changeset,
  type EvaluateFormulaBody,
  type ImportWorkbookBody,
  type SaveVersionBody,
  type VersionRecord,
  type WorkbookMetadata,
} from '@finsheet/contracts'
import { aiErrors } from '../errors.js'
import { callService } from './service-client.js'

/** The spreadsheet service as the ai service uses it, on behalf of the user whose token it forwards. */
export function createSpreadsheetClient(baseUrl: string) {
  return {
    /** The user's workbook: its name and sheets; 404 for one that is missing or someone else's. */
    async workbook(token: string, workbookId: string, signal?: AbortSignal): Promise<WorkbookMetadata> {
      const answer = await callService({
        service: 'spreadsheet',
        baseUrl,
        method: 'GET',
        path: `/workbooks/${encodeURIComponent(workbookId)}`,
        token,
        answer: WorkbookMetadataResponse,
        notFound: aiErrors.workbookNotFound,
        signal,
      })
      return answer.workbook
    },
    /** A formula calculated at a cell of the user's workbook, writing nothing; 404 for a workbook not theirs. */
    evaluate(token: string, workbookId: string, body: EvaluateFormulaBody, signal?: AbortSignal): Promise<EvaluateFormulaResponse> {
      return callService({
        service: 'spreadsheet',
        baseUrl,
        method: 'POST',
        path: `/workbook/${encodeURIComponent(workbookId)}/evaluate`,
        token,
        body,
        answer: EvaluateFormulaResponse,
        notFound: aiErrors.workbookNotFound,
        signal,
      })
    },
    /**
     * A new workbook of the user's, stored whole in one write; a repeated importId answers with the
     * workbook the first request stored (a retried job makes no second copy).
     */
    importWorkbook(token: string, body: ImportWorkbookBody, signal?: AbortSignal): Promise<ImportWorkbookResponse> {
      return callService({
        service: 'spreadsheet',
        baseUrl,
        method: 'POST',
        path: '/workbooks/import',
        token,
        body,
        answer: ImportWorkbookResponse,
        notFound: aiErrors.workbookNotFound,
        signal,
      })
    },
    /** One model turn's tool calls, run in order on the workbook; writes go into the request's changeset. */
    runAgentTools(token: string, workbookId: string, body: AgentToolsBody, signal?: AbortSignal): Promise<AgentToolsResponse> {
      return callService({
        service: 'spreadsheet',
        baseUrl,
        method: 'POST',
        path: `/workbook/${encodeURIComponent(workbookId)}/agent-tools`,
        token,
        body,
        answer: AgentToolsResponse,
        notFound: aiErrors.workbookNotFound,
        signal,
      })
    },
    async changeset(token: string, changesetId: string, signal?: AbortSignal): Promise<Changeset> {
      const answer = await callService({
        service: 'spreadsheet',
        baseUrl,
        method: 'GET',
        path: `/changesets/${encodeURIComponent(changesetId)}`,
        token,
        answer: ChangesetResponse,
        notFound: aiErrors.changesetNotFound,
        signal,
      })
      return answer.changeset
    },
    /** Applies a changeset as one change; 409 when it needs approval or its cells changed since (nothing applied then). */
    async applyChangeset(token: string, changesetId: string, body: ApplyChangesetBody, signal?: AbortSignal): Promise<Changeset> {
      const answer = await callService({
        service: 'spreadsheet',
        baseUrl,
        method: 'POST',
        path: `/changesets/${encodeURIComponent(changesetId)}/apply`,
        token,
        body,
        answer: ApplyChangesetResponse,
        notFound: aiErrors.changesetNotFound,
        signal,
      })
      return answer.changeset
    },
    /** Saves a major version of the workbook now. */
    async saveVersion(token: string, workbookId: string, body: SaveVersionBody, signal?: AbortSignal): Promise<VersionRecord> {
      const answer = await callService({
        service: 'spreadsheet',
        baseUrl,
        method: 'POST',
        path: `/workbook/${encodeURIComponent(workbookId)}/save`,
        token,
        body,
        answer: VersionResponse,
        notFound: aiErrors.workbookNotFound,
        signal,
      })
      return answer.version
    },
    /** The workbook's change log after a revision, oldest first. */
    changeLog(token: string, workbookId: string, since: number, signal?: AbortSignal): Promise<ChangeLogResponse> {
      return callService({
        service: 'spreadsheet',
        baseUrl,
        method: 'GET',
        path: `/workbook/${encodeURIComponent(workbookId)}/changes?since=${since}&limit=500`,
        token,
        answer: ChangeLogResponse,
        notFound: aiErrors.workbookNotFound,
        signal,
      })
    },
    /** Undoes the user's latest change of the workbook as a whole. */
    undo(token: string, workbookId: string, signal?: AbortSignal): Promise<UndoRedoResponse> {
      return callService({
        service: 'spreadsheet',
        baseUrl,
        method: 'POST',
        path: `/workbook/${encodeURIComponent(workbookId)}/undo`,
        token,
        body: {},
        answer: UndoRedoResponse,
        notFound: aiErrors.workbookNotFound,
        signal,
      })
    },
    async discardChangeset(token: string, changesetId: string, signal?: AbortSignal): Promise<Changeset> {
      const answer = await callService({
        service: 'spreadsheet',
        baseUrl,
        method: 'POST',
        path: `/changesets/${encodeURIComponent(changesetId)}/discard`,
        token,
        body: {},
        answer: ChangesetResponse,
        notFound: aiErrors.changesetNotFound,
        signal,
      })
      return answer.changeset
    },
  }
}

export type SpreadsheetClient = ReturnType<typeof createSpreadsheetClient>
