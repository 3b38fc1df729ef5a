/**
 * A client for the hostile-input suites: the stack in a child process (see stack-process.ts), free
 * anonymous accounts as anyone can make them, and the measures the suites print: how long a request
 * took, the process's peak memory while it ran, and whether the process is still up.
 */
import type { ChildProcess } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { readLines, spawnTypeScript } from '@finsheet/platform/testing'

export interface Answer {
  status: number
  headers: Headers
  bytes: Buffer
  text: string
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any
  /** Milliseconds from sending the request to the last byte of the answer. */
  ms: number
  /** When the answer was complete (performance.now()). */
  at: number
}

export type Api = (method: string, path: string, body?: unknown) => Promise<Answer>

/** An Api for one account, with its bearer token for what it does not send (multipart uploads). */
export type AccountApi = Api & { token: string }

export interface IsolatedStack {
  url: string
  /** Whether the stack's process is still running. */
  alive(): boolean
  /** The process's peak resident memory in MB since the last reset (Linux), or undefined elsewhere. */
  peakMemoryMb(): number | undefined
  /** Starts a new peak-memory window (Linux). */
  resetPeakMemory(): void
  /** A new anonymous account, as the web app makes one for a visitor. */
  anonymousUser(): Promise<AccountApi>
  /** Stops the process and starts a new one on the same data and port: accounts and tokens stay good. */
  restart(): Promise<void>
  stop(): Promise<void>
}

interface Running {
  child: ChildProcess
  url: string
  exited: boolean
}

async function launch(dataDir: string | undefined, port: number, env: Record<string, string>): Promise<Running> {
  // Budgets are what these suites measure, not the rate limits: those have a suite of their own.
  const child = spawnTypeScript(new URL('./stack-process.ts', import.meta.url), [dataDir ?? '', String(port)], { RATE_LIMIT_MAX: '1000000', AUTOSAVE_QUIET_MS: '0', ...env })
  const running: Running = { child, url: '', exited: false }
  running.url = await new Promise<string>((resolve, reject) => {
    void readLines(child, (line) => {
      if (line.startsWith('READY ')) resolve((JSON.parse(line.slice('READY '.length)) as { url: string }).url)
    }).then(({ code, signal, stderr }) => {
      running.exited = true
      reject(new Error(`the stack exited (${code ?? signal}) before it was ready: ${stderr.slice(-2000)}`))
    })
  })
  return running
}

async function halt(running: Running): Promise<void> {
  if (running.exited || running.child.exitCode !== null) return
  const done = new Promise((resolve) => running.child.once('exit', resolve))
  running.child.kill('SIGTERM')
  await done
}

/** Starts the stack; with `dataDir` its data is kept there (for `restart`); `env` adds to its environment. */
export async function startIsolatedStack(dataDir?: string, env: Record<string, string> = {}): Promise<IsolatedStack> {
  let running = await launch(dataDir, 0, env)
  const port = Number(new URL(running.url).port)
  const request =
    (token: string | null): Api =>
    async (method, path, body) => {
      const started = performance.now()
      const response = await fetch(`${running.url}${path}`, {
        method,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const bytes = Buffer.from(await response.arrayBuffer())
      const at = performance.now()
      const text = bytes.toString('utf8')
      let json: unknown
      if ((response.headers.get('content-type') ?? '').includes('json')) json = JSON.parse(text)
      return { status: response.status, headers: response.headers, bytes, text, json, ms: at - started, at }
    }
  return {
    get url() {
      return running.url
    },
    alive: () => !running.exited && running.child.exitCode === null && running.child.signalCode === null,
    peakMemoryMb() {
      try {
        const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${running.child.pid}/status`, 'utf8'))
        return match ? Math.round(Number(match[1]) / 1024) : undefined
      } catch {
        return undefined
      }
    },
    resetPeakMemory() {
      try {
        // Writing 5 to clear_refs resets the peak resident set size (Linux 4.0 and later).
        writeFileSync(`/proc/${running.child.pid}/clear_refs`, '5')
      } catch {
        // Not Linux, or not allowed: the peak then covers the process's whole life.
      }
    },
    async anonymousUser() {
      const anonymous = request(null)
      const created = await anonymous('POST', '/api/users/create-anonymous-user', {})
      if (created.status !== 201) throw new Error(`anonymous sign-up answered ${created.status}: ${created.text}`)
      const session = await anonymous('POST', '/api/users/token', { customToken: created.json.customToken })
      if (session.status !== 200) throw new Error(`token exchange answered ${session.status}: ${session.text}`)
      const token = session.json.token as string
      return Object.assign(request(token), { token })
    },
    async restart() {
      if (dataDir === undefined) throw new Error('restart needs a stack started with a data folder')
      await halt(running)
      running = await launch(dataDir, port, env)
    },
    stop: () => halt(running),
  }
}
