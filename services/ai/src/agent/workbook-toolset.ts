/**
 * The workbook tools as a model runs them: each turn's calls go together to the spreadsheet service's
 * agent-tools route with the user's token (the service checks ownership and runs them in order on the
 * workbook, reads seeing earlier writes), and the first write's changeset id goes with every later
 * turn, so that all of a request's writes land in one changeset. Chat offers the read-only tools the
 * same way; a call to a tool not offered never leaves the AI service.
 */
import { READ_ONLY_AGENT_TOOLS, type AgentToolDefinition, type AgentToolResult, type ChangesetBrief } from '@finsheet/contracts'
import { AppError, type Logger } from '@finsheet/platform'
import type { SpreadsheetClient } from '../clients/spreadsheet-client.js'
import type { RunnableToolCall, ToolOutcome, Toolset } from '../conversation/tool-loop.js'

export interface WorkbookToolsetOptions {
  spreadsheet: SpreadsheetClient
  /** The user's token: the spreadsheet service answers 404 for a workbook that is not theirs. */
  token: string
  workbookId: string
  /** The tools offered: every agent tool, or chat's read-only ones. */
  tools: readonly AgentToolDefinition[]
  logger?: Pick<Logger, 'info'>
  /** After each turn: its results as the spreadsheet service answered them, the changeset as it stands, and whether a call wrote. */
  onTurn?(turn: { results: readonly AgentToolResult[]; changeset: ChangesetBrief | null; wrote: boolean }): void
}

export class WorkbookToolset implements Toolset {
  readonly specs: readonly AgentToolDefinition[]
  /** The request's changeset, once a call has written. */
  changesetId: string | null = null
  changeset: ChangesetBrief | null = null
  private readonly answers = new Map<string, AgentToolResult>()
  private inFlight: Promise<unknown> | null = null
  private closed = false
  private turns = 0

  constructor(private readonly options: WorkbookToolsetOptions) {
    this.specs = options.tools
  }

  async run(call: RunnableToolCall): Promise<ToolOutcome> {
    return (await this.runTurn([call]))[0]
  }

  /**
   * The turn is not cancelled by the request's signal: a turn that reached the service always
   * finishes, so the changeset it wrote to is known here and can be discarded when the request stops.
   * The service's own time bound still holds.
   */
  async runTurn(calls: readonly RunnableToolCall[]): Promise<ToolOutcome[]> {
    if (this.closed) throw new AppError('AGENT_STOPPED', 409, 'The request has stopped; no more tools run')
    const turn = ++this.turns
    const started = performance.now()
    const request = this.options.spreadsheet.runAgentTools(this.options.token, this.options.workbookId, {
      ...(this.changesetId === null ? {} : { changesetId: this.changesetId }),
      calls: calls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments })),
    })
    this.inFlight = request
    let answer: Awaited<typeof request>
    try {
      answer = await request
    } finally {
      this.inFlight = null
    }
    const turnMs = Math.round(performance.now() - started)
    const wrote = answer.results.some((result) => result.ok && !(READ_ONLY_AGENT_TOOLS as readonly string[]).includes(result.name))
    if (answer.changesetId !== null) this.changesetId = answer.changesetId
    if (answer.changeset !== null) this.changeset = answer.changeset
    for (const result of answer.results) {
      this.answers.set(result.id, result)
      this.options.logger?.info(
        { workbookId: this.options.workbookId, changesetId: this.changesetId, turn, tool: result.name, ok: result.ok, toolMs: result.ms, turnMs, serviceMs: answer.serviceMs, ...(result.ok ? {} : { toolError: result.error }) },
        'agent tool call',
      )
    }
    this.options.onTurn?.({ results: answer.results, changeset: this.changeset, wrote })
    // The service answers every call, in order.
    return calls.map((call, index) => outcomeOf(answer.results[index] ?? { id: call.id, name: call.name, ok: false, summary: '', content: null, error: 'No answer for this call', ms: 0 }))
  }

  /** The spreadsheet service's answer to a call, when the call reached it. */
  answerTo(callId: string): AgentToolResult | undefined {
    return this.answers.get(callId)
  }

  /** Stops sending calls; resolves once a turn in flight has answered, so the changeset is settled. */
  async close(): Promise<void> {
    this.closed = true
    await this.inFlight?.catch(() => undefined)
  }
}

function outcomeOf(result: AgentToolResult): ToolOutcome {
  if (!result.ok) return { content: result.error ?? `${result.name} failed`, isError: true }
  return { content: typeof result.content === 'string' ? result.content : JSON.stringify(result.content), isError: false }
}
