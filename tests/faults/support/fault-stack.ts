/**
 * The stack under fault: the all-in-one stack in a child process on its own data folder, which a
 * suite can kill with SIGKILL and start again on the same data and port, and a client that records
 * every answer (status, time, when it arrived) so a suite can say what the user saw.
 */
import type { ChildProcess } from 'node:child_process'
import { readLines, spawnTypeScript } from '@finsheet/platform/testing'

export interface Answer {
  status: number
  headers: Headers | null
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any
  text: string
  /** Milliseconds from sending the request to the end of the answer. */
  ms: number
  /** When the request was sent and when its answer was complete (performance.now()). */
  sentAt: number
  at: number
}

/** A failed request: the connection was refused or reset, or the answer did not come in time. */
export const NO_ANSWER = 0

export type Api = (method: string, path: string, body?: unknown, options?: { timeoutMs?: number; form?: FormData }) => Promise<Answer>

export interface FaultStack {
  url: string
  dataDir: string
  /** Whether the stack's process is running. */
  alive(): boolean
  /** The stack's process id while it runs (to read its CPU time and memory from /proc). */
  pid(): number | undefined
  /** Lines the stack logged at level error since it started, or since the last call. */
  takeErrorLogs(): string[]
  /** How long the stack's event loop was held up since the last call (ms), as the process measures it. */
  eventLoopDelay(): Promise<{ p50: number; p99: number; max: number }>
  /** A client for a new account (registered with a password, as an analyst would sign up). */
  newUser(name: string): Promise<Api>
  /** SIGKILL: no graceful close, nothing flushed. */
  kill(): Promise<void>
  /** Starts the stack again on the same data folder and port; tokens stay good. */
  start(): Promise<number>
  stop(): Promise<void>
}

interface Running {
  child: ChildProcess
  url: string
  exited: Promise<unknown>
}

type LoopReport = { p50: number; p99: number; max: number }

async function launch(dataDir: string, port: number, env: Record<string, string>, errors: string[], loopReports: Array<(report: LoopReport) => void>): Promise<Running> {
  const child = spawnTypeScript(new URL('./stack-process.ts', import.meta.url), [dataDir, String(port)], env)
  let ready: (url: string) => void = () => undefined
  const url = new Promise<string>((resolve) => (ready = resolve))
  const exited = readLines(child, (line) => {
    if (line.startsWith('READY ')) ready(line.slice('READY '.length))
    else if (line.startsWith('LOOP ')) loopReports.shift()?.(JSON.parse(line.slice('LOOP '.length)) as LoopReport)
    else if (line.startsWith('{')) errors.push(line)
  })
  const exitedEarly = exited.then(({ code, signal, stderr }) => {
    throw new Error(`the stack exited (${code ?? signal}) before it was ready: ${stderr.slice(-2000)}`)
  })
  // Once the stack is ready, its exit (a kill) is no failure.
  exitedEarly.catch(() => undefined)
  const started = await Promise.race([url, exitedEarly])
  return { child, url: started, exited }
}

/** Starts the stack on `dataDir` with `env` added to its environment. */
export async function startFaultStack(dataDir: string, env: Record<string, string> = {}): Promise<FaultStack> {
  const errors: string[] = []
  const loopReports: Array<(report: LoopReport) => void> = []
  let running: Running | null = await launch(dataDir, 0, env, errors, loopReports)
  const port = Number(new URL(running.url).port)
  const url = running.url
  const request =
    (token: string): Api =>
    async (method, path, body, options = {}) => {
      const sentAt = performance.now()
      try {
        const response = await fetch(`${url}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
          body: options.form ?? (body === undefined ? undefined : JSON.stringify(body)),
          signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
        })
        const text = await response.text()
        const at = performance.now()
        let json: unknown = null
        try {
          json = text ? JSON.parse(text) : null
        } catch {
          json = null
        }
        return { status: response.status, headers: response.headers, json, text, ms: at - sentAt, sentAt, at }
      } catch (error) {
        const at = performance.now()
        return { status: NO_ANSWER, headers: null, json: null, text: (error as Error).message, ms: at - sentAt, sentAt, at }
      }
    }
  let accounts = 0
  return {
    url,
    dataDir,
    alive: () => running !== null && running.child.exitCode === null && running.child.signalCode === null,
    pid: () => running?.child.pid,
    takeErrorLogs: () => errors.splice(0),
    eventLoopDelay() {
      if (!running) throw new Error('the stack is not running')
      const report = new Promise<LoopReport>((resolve) => loopReports.push(resolve))
      running.child.kill('SIGUSR2')
      return report
    },
    async newUser(name) {
      const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${++accounts}-${Date.now()}@example.com`
      const response = await fetch(`${url}/api/users/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'amber-otter-42', fullName: name }),
      })
      if (response.status !== 201) throw new Error(`sign-up answered ${response.status}: ${await response.text()}`)
      const { token } = (await response.json()) as { token: string }
      return request(token)
    },
    async kill() {
      if (!running) return
      running.child.kill('SIGKILL')
      await running.exited
      running = null
    },
    async start() {
      if (running) throw new Error('the stack is running')
      const started = performance.now()
      running = await launch(dataDir, port, env, errors, loopReports)
      return performance.now() - started
    },
    async stop() {
      if (!running) return
      running.child.kill('SIGTERM')
      await running.exited
      running = null
    },
  }
}
