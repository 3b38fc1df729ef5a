import { spawn } from 'node:child_process'
import { connect } from 'node:net'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import type { ServiceArea } from '@finsheet/contracts'

const testsDir = fileURLToPath(new URL('../..', import.meta.url))

export interface Stack {
  /** The gateway, such as http://127.0.0.1:40123 */
  url: string
  port: number
  dataDir: string
  services: Record<ServiceArea, string>
  stop(): Promise<void>
}

/** Starts the whole stack in a child process on loopback, with `env` added to its environment. */
export async function startStack(env: Record<string, string> = {}): Promise<Stack> {
  const child = spawn(process.execPath, ['--conditions=development', '--import', './bench/register.mjs', 'security/support/stack-process.ts'], {
    cwd: testsDir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const ready = await new Promise<Omit<Stack, 'stop'>>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('READY ')) resolve(JSON.parse(line.slice('READY '.length)) as Omit<Stack, 'stop'>)
    })
    child.once('exit', (code) => reject(new Error(`the stack exited with ${code} before it was ready`)))
  })
  return {
    ...ready,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

export interface JsonAnswer {
  status: number
  headers: Headers
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any
  ms: number
}

/** A JSON call to the gateway; `address` is the client address the proxy in front would state. */
export async function call(stack: Stack, method: string, path: string, options: { body?: unknown; token?: string; address?: string } = {}): Promise<JsonAnswer> {
  const started = performance.now()
  const response = await fetch(stack.url + path, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.address ? { 'x-forwarded-for': options.address } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  })
  const text = await response.text()
  let json: unknown = null
  try {
    json = text ? JSON.parse(text) : null
  } catch {
    json = text
  }
  return { status: response.status, headers: response.headers, json, ms: performance.now() - started }
}

export interface RawExchange {
  /** Status lines in the order they arrived, such as ['HTTP/1.1 100 Continue', 'HTTP/1.1 413 Payload Too Large']. */
  statuses: string[]
  text: string
  /** Whether the server ended the connection (its FIN arrived), and when, in ms after the request began. */
  closedAfterMs: number | null
  /** Request bytes the client had written when the exchange ended. */
  bytesWritten: number
}

/**
 * One HTTP/1.1 exchange over a raw socket, for what fetch hides: Expect: 100-continue, chunked
 * bodies, the connection being closed, a second request on the same connection. `head` is sent
 * first; `body` parts are written after the server's 100 Continue when `waitForContinue`, else at
 * once. Gives up after `timeoutMs`, reporting the connection as left open.
 */
export function rawExchange(port: number, head: string, body: Buffer[] = [], options: { waitForContinue?: boolean; timeoutMs?: number } = {}): Promise<RawExchange> {
  return new Promise((resolve) => {
    const started = performance.now()
    const socket = connect(port, '127.0.0.1')
    let text = ''
    let sentBody = false
    let settled = false
    let endedAt: number | null = null
    const finish = () => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      resolve({ statuses: text.match(/HTTP\/1\.1 \d{3}[^\r\n]*/g) ?? [], text, closedAfterMs: endedAt, bytesWritten: socket.bytesWritten })
    }
    const sendBody = () => {
      if (sentBody) return
      sentBody = true
      for (const part of body) if (!socket.destroyed) socket.write(part)
    }
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1')
      if (options.waitForContinue && text.includes(' 100 Continue')) sendBody()
    })
    // The server's end of the connection: it has answered and will read nothing more that matters.
    socket.on('end', () => {
      endedAt = Math.round(performance.now() - started)
      // What the client was still sending is dropped; it need not finish sending it.
      setTimeout(finish, 50)
    })
    socket.on('close', () => {
      endedAt ??= Math.round(performance.now() - started)
      finish()
    })
    socket.on('error', () => undefined)
    socket.on('connect', () => {
      socket.write(head)
      if (!options.waitForContinue) sendBody()
    })
    const timer = setTimeout(finish, options.timeoutMs ?? 5000)
  })
}

/** A chunked body of `total` bytes of spaces in chunks of `chunkSize`, with its last chunk. */
export function chunkedBody(total: number, chunkSize = 256 * 1024): Buffer[] {
  const parts: Buffer[] = []
  for (let sent = 0; sent < total; sent += chunkSize) {
    const size = Math.min(chunkSize, total - sent)
    parts.push(Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), Buffer.alloc(size, 32), Buffer.from('\r\n')]))
  }
  parts.push(Buffer.from('0\r\n\r\n'))
  return parts
}

/** Prints a table of figures under a title, as the suites report what they measured. */
export function printTable(title: string, header: string[], rows: Array<Array<string | number>>): void {
  const cells = [header, ...rows.map((row) => row.map(String))]
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column]?.length ?? 0)))
  const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ')
  console.log([`\n${title}`, line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map((row) => line(row.map(String)))].join('\n'))
}

/** Percentile of a list of numbers (nearest rank). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}
