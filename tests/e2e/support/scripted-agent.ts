/**
 * TEST ONLY. A stand-in for the command of agent mode that creates a new financial model
 * (`POST /api/spreadsheet/process-action` with a model-creation command), speaking its contract
 * exactly (packages/contracts/src/assistant-actions.ts), in front of the real stack: every other
 * request, and every other process-action, is passed through to the stack unchanged, streamed.
 *
 * The AI service hands model creation to a model generator, which the all-in-one stack does not set
 * up yet; this stand-in answers such commands from scripts instead: the new workbook is made for real
 * in the spreadsheet service (its DCF tabs, with the user's own token), and the events go out as the
 * service's would: `progress`, `delta`s of the message, then `done` with the model result.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { FinancialModelResult, ImportWorkbookResponse, ProcessActionBody, ProcessActionResponse } from '@finsheet/contracts'
import { DCF_MODEL_SHEETS, isModelCreationCommand, PROCESS_ACTION_STREAM_EVENTS } from '@finsheet/contracts'

export const PROCESS_ACTION_PATH = '/api/spreadsheet/process-action'

export interface AgentScript {
  /** the answer, streamed word by word */
  message: string
  /** waits before the first event and between events, as a model does */
  holdMs?: number
  paceMs?: number
  /** answers with this JSON error instead of a stream */
  refuse?: { status: number; code: string; message: string }
  /** the new model workbook is named after the company and has the DCF tabs */
  createModel: { company: string }
}

export interface ScriptedAgent {
  url: string
  /** the model-creation requests received, in order */
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
    const text = await readBody(request)
    const body = JSON.parse(text) as ProcessActionBody
    // commands on a workbook are the real agent's
    if (!isModelCreationCommand(body.command)) return passThrough(request, response, text)
    requests.push({ body, authorization })
    const script = scripts.shift()
    if (!script) {
      response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'NO_SCRIPT', message: 'The scripted model creation has no script left' } }))
      return
    }
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

    try {
      const { company } = script.createModel
      await send(PROCESS_ACTION_STREAM_EVENTS.progress, { percent: 40, message: 'Building the Revenue and FCF tabs' })
      const name = `${company} DCF Model`
      const created = await stack<ImportWorkbookResponse>('POST', '/workbooks/import', authorization, {
        name,
        isAIGenerated: true,
        sheets: DCF_MODEL_SHEETS.map((sheet) => ({ name: sheet, cells: [{ address: 'A1', input: `${company} ${sheet}` }] })),
      })
      const model: FinancialModelResult = { success: true, workbookId: created.workbookId, cellsCreated: created.cellCount, model: { name, modelType: 'dcf', company, sheets: [...DCF_MODEL_SHEETS] } }
      await send(PROCESS_ACTION_STREAM_EVENTS.progress, { percent: 100, message: 'Done' })
      for (const word of script.message.split(/(?<= )/)) await send(PROCESS_ACTION_STREAM_EVENTS.delta, { text: word })
      const done: ProcessActionResponse = {
        success: true,
        action: { type: 'create_model', parameters: { company, modelType: 'dcf' }, description: `Creating a DCF model for ${company}` },
        message: script.message,
        result: { changeset: null, model },
        visualFeedback: { highlights: [] },
        steps: [],
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

  /** Everything else goes to the stack as it came (`body`: already read), and its answer comes back as it arrives. */
  function passThrough(request: IncomingMessage, response: ServerResponse, body?: string): void {
    const target = new URL(request.url ?? '/', stackUrl)
    const upstream = httpRequest(target, { method: request.method, headers: { ...request.headers, host: target.host } }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(response)
    })
    upstream.on('error', () => {
      if (!response.headersSent) response.writeHead(502).end()
      else response.end()
    })
    if (body === undefined) request.pipe(upstream)
    else upstream.end(body)
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
