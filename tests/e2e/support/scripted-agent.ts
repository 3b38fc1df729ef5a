/**
 * TEST ONLY. A stand-in for agent mode's `POST /api/spreadsheet/process-action` that speaks its
 * contract exactly (packages/contracts/src/assistant-actions.ts) for browser tests, in front of the
 * real stack: every other request is passed through to the stack unchanged, streamed.
 *
 * There is no model: each request takes the next script, whose tool calls run for real through the
 * spreadsheet service's agent-tools route with the user's own token, so the changesets the panel
 * previews, applies, discards and undoes are the service's own. The events go out as the agent's
 * would: `tool_call`, `tool_result` per call, `changeset` after a write, `delta`s of the message,
 * then `done` with the action response (or `error`), and without `preview` the changeset is applied
 * before `done`.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type {
  AgentStep,
  AgentToolsResponse,
  ApplyChangesetResponse,
  Changeset,
  ChangesetResponse,
  ImportWorkbookResponse,
  ProcessActionBody,
  ProcessActionResponse,
} from '@finsheet/contracts'
import { DCF_MODEL_SHEETS, PROCESS_ACTION_STREAM_EVENTS } from '@finsheet/contracts'

export const PROCESS_ACTION_PATH = '/api/spreadsheet/process-action'

export interface AgentScript {
  /** tool calls, one list per model turn */
  turns?: { name: string; arguments: Record<string, unknown> }[][]
  /** the answer, streamed word by word */
  message: string
  /** waits before the first event and between events, as a model does */
  holdMs?: number
  paceMs?: number
  /** answers with this JSON error instead of a stream */
  refuse?: { status: number; code: string; message: string }
  /** a new model workbook named after the company, with the DCF tabs */
  createModel?: { company: string }
}

export interface ScriptedAgent {
  url: string
  /** the process-action requests received, in order */
  readonly requests: { body: ProcessActionBody; authorization: string }[]
  enqueue(...scripts: AgentScript[]): void
  close(): Promise<void>
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export async function startScriptedAgent(stackUrl: string): Promise<ScriptedAgent> {
  const requests: ScriptedAgent['requests'] = []
  const scripts: AgentScript[] = []
  const sockets = new Set<Socket>()
  let callCounter = 0

  const stack = async <T>(method: string, path: string, authorization: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${stackUrl}/api/spreadsheet${path}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`)
    return JSON.parse(text) as T
  }

  async function processAction(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const authorization = request.headers.authorization ?? ''
    const body = JSON.parse(await readBody(request)) as ProcessActionBody
    requests.push({ body, authorization })
    const script = scripts.shift() ?? { message: 'No script for this request.', refuse: { status: 500, code: 'NO_SCRIPT', message: 'The scripted agent has no script left' } }
    if (script.refuse) {
      response.writeHead(script.refuse.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: script.refuse.code, message: script.refuse.message } }))
      return
    }
    let gone = false
    response.on('close', () => (gone = true))
    response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' })
    const send = async (event: string, data: unknown) => {
      if (gone) return
      response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
      if (script.paceMs) await sleep(script.paceMs)
    }
    if (script.holdMs) await sleep(script.holdMs)

    const steps: AgentStep[] = []
    let changesetId: string | null = null
    let model: ProcessActionResponse['result']['model']
    try {
      for (const turn of script.turns ?? []) {
        if (gone) return
        const calls = turn.map((call) => ({ id: `call_${++callCounter}`, name: call.name, arguments: call.arguments }))
        for (const call of calls) await send(PROCESS_ACTION_STREAM_EVENTS.toolCall, { id: call.id, name: call.name, description: `Running ${call.name}` })
        const answer = await stack<AgentToolsResponse>('POST', `/workbook/${encodeURIComponent(body.workbookId ?? '')}/agent-tools`, authorization, { ...(changesetId ? { changesetId } : {}), calls })
        for (const result of answer.results) {
          const step: AgentStep = { id: result.id, name: result.name, description: result.summary, ok: result.ok, ...(result.error ? { error: result.error } : {}), ms: result.ms }
          steps.push(step)
          await send(PROCESS_ACTION_STREAM_EVENTS.toolResult, step)
        }
        if (answer.changesetId) {
          changesetId = answer.changesetId
          const full = await stack<ChangesetResponse>('GET', `/changesets/${changesetId}`, authorization)
          await send(PROCESS_ACTION_STREAM_EVENTS.changeset, { changeset: full.changeset })
        }
      }
      if (script.createModel) {
        const name = `${script.createModel.company} DCF Model`
        const created = await stack<ImportWorkbookResponse>('POST', '/workbooks/import', authorization, {
          name,
          isAIGenerated: true,
          sheets: DCF_MODEL_SHEETS.map((sheet) => ({ name: sheet, cells: [{ address: 'A1', input: `${script.createModel!.company} ${sheet}` }] })),
        })
        model = { success: true, workbookId: created.workbookId, cellsCreated: created.cellCount, model: { name, modelType: 'dcf', company: script.createModel.company, sheets: [...DCF_MODEL_SHEETS] } }
      }
      for (const word of script.message.split(/(?<= )/)) await send(PROCESS_ACTION_STREAM_EVENTS.delta, { text: word })
      let changeset: Changeset | null = null
      if (changesetId) {
        changeset = body.preview
          ? (await stack<ChangesetResponse>('GET', `/changesets/${changesetId}`, authorization)).changeset
          : (await stack<ApplyChangesetResponse>('POST', `/changesets/${changesetId}/apply`, authorization, { summary: script.message })).changeset
      }
      const done: ProcessActionResponse = {
        success: true,
        action: { type: model ? 'create_model' : changeset ? 'edit' : 'answer', parameters: {}, description: changeset?.description ?? script.message },
        message: script.message,
        result: { changeset, ...(model ? { model } : {}) },
        visualFeedback: { highlights: changeset?.highlights ?? [] },
        steps,
        model: 'scripted-agent',
        provider: 'local',
        usage: { inputTokens: 0, outputTokens: 0 },
      }
      await send(PROCESS_ACTION_STREAM_EVENTS.done, done)
    } catch (error) {
      await send(PROCESS_ACTION_STREAM_EVENTS.error, { error: { code: 'SCRIPTED_AGENT_FAILED', message: error instanceof Error ? error.message : String(error) } })
    }
    response.end()
  }

  /** Everything else goes to the stack as it came, and its answer comes back as it arrives. */
  function passThrough(request: IncomingMessage, response: ServerResponse): void {
    const target = new URL(request.url ?? '/', stackUrl)
    const upstream = httpRequest(target, { method: request.method, headers: { ...request.headers, host: target.host } }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(response)
    })
    upstream.on('error', () => {
      if (!response.headersSent) response.writeHead(502).end()
      else response.end()
    })
    request.pipe(upstream)
  }

  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0]
    if (request.method === 'POST' && path === PROCESS_ACTION_PATH) {
      processAction(request, response).catch(() => {
        if (!response.headersSent) response.writeHead(500).end()
        else response.end()
      })
      return
    }
    passThrough(request, response)
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...more) => scripts.push(...more),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
