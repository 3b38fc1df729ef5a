/**
 * The API benchmark: POST /api/spreadsheet/update-cell through the gateway, on a 10,000-cell workbook
 * (5,000 inputs, 5,000 formulas reading them, and totals over all of them), at a fixed 200 requests
 * per second from 10 connections. Each request sets a random input to a random value, so every one
 * recalculates its formula and the totals and stores them. The stack runs in a process of its own.
 * Target on a 2-core machine: p99 under 25 ms. The load average is printed because the machine may be
 * shared.
 *
 *   npm run bench:api                (options: --duration SECONDS, --rate REQUESTS_PER_SECOND)
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'

const TARGET_P99_MS = 25
const ROWS = 5_000
const option = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? Number(process.argv[index + 1]) : fallback
}
const duration = option('duration', 30)
const rate = option('rate', 200)
const testsDir = fileURLToPath(new URL('..', import.meta.url))

const stack = spawn(process.execPath, ['--conditions=development', '--import', './bench/register.mjs', 'bench/api-stack.ts'], {
  cwd: testsDir,
  stdio: ['ignore', 'pipe', 'inherit'],
})
const url = await new Promise<string>((resolve, reject) => {
  createInterface({ input: stack.stdout! }).on('line', (line) => {
    if (line.startsWith('READY ')) resolve(line.slice('READY '.length))
  })
  stack.once('exit', (code) => reject(new Error(`the stack exited with ${code} before it was ready`)))
})

/** CPU time (user + system) the stack's process has used, in ms, from /proc. */
function stackCpuMs(): number {
  const fields = readFileSync(`/proc/${stack.pid}/stat`, 'utf8').split(') ')[1].split(' ')
  const ticks = Number(fields[11]) + Number(fields[12])
  return (ticks * 1000) / 100
}

async function call(method: string, path: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
  const response = await fetch(url + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  })
  const answer = (await response.json()) as Record<string, unknown>
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`)
  return answer
}

try {
  const { token } = (await call('POST', '/api/users/register', { email: 'bench@example.com', password: 'amber-otter-42', fullName: 'Bench' })) as { token: string }
  const cells: { address: string; input: string | number }[] = []
  for (let row = 1; row <= ROWS; row++) {
    cells.push({ address: `A${row}`, input: row })
    cells.push({ address: `B${row}`, input: `=A${row}*1.1` })
  }
  cells.push({ address: 'D1', input: `=SUM(B1:B${ROWS})` }, { address: 'D2', input: `=AVERAGE(A1:A${ROWS})` })
  const imported = (await call('POST', '/api/spreadsheet/workbooks/import', { name: 'Bench', sheets: [{ name: 'Sheet1', cells }] }, token)) as {
    workbookId: string
    cellCount: number
  }
  const workbookId = imported.workbookId

  const request = {
    method: 'POST',
    path: '/api/spreadsheet/update-cell',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    setupRequest: (req: { body?: string }) => ({
      ...req,
      body: JSON.stringify({ workbookId, sheetName: 'Sheet1', cellAddress: `A${1 + Math.floor(Math.random() * ROWS)}`, value: Math.round(Math.random() * 1e6) / 100 }),
    }),
  }
  // Warm-up: JIT, the engine cache and SQLite's pages, not measured.
  await autocannon({ url, connections: 10, duration: 5, overallRate: rate, requests: [request] })

  const loadBefore = loadavg()
  const cpuBefore = stackCpuMs()
  const result = await autocannon({ url, connections: 10, duration, overallRate: rate, requests: [request] })
  const cpuPerRequest = (stackCpuMs() - cpuBefore) / Math.max(1, result['2xx'] + result.non2xx)
  const loadAfter = loadavg()
  const metrics = (await fetch(`${url}/api/spreadsheet/metrics/performance`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json())) as {
    requests: { routes: { route: string; latencyMs: { p50: number; p99: number } }[] }
    recalculation: { p50: number; p99: number }
    writes: { p50: number; p99: number }
    engineCache: { hitRate: number }
    storage: { changesPerCommit: number; commits: number }
  }
  const service = metrics.requests.routes.find((route) => route.route === '/update-cell')

  const ms = (value: number) => `${value.toFixed(2)} ms`
  const rows: [string, string][] = [
    ['workbook', `${imported.cellCount.toLocaleString('en-US')} cells (${ROWS.toLocaleString('en-US')} inputs, ${(ROWS + 2).toLocaleString('en-US')} formulas)`],
    ['offered rate', `${rate} requests/s from 10 connections for ${duration} s`],
    ['requests/s', result.requests.average.toFixed(1)],
    ['requests', `${result['2xx']} ok, ${result.non2xx} not 2xx, ${result.errors} errors, ${result.timeouts} timeouts`],
    ['latency p50 (gateway)', ms(result.latency.p50)],
    ['latency p90 (gateway)', ms(result.latency.p90)],
    ['latency p99 (gateway)', `${ms(result.latency.p99)}   target < ${TARGET_P99_MS} ms: ${result.latency.p99 < TARGET_P99_MS ? 'met' : 'NOT met'}`],
    ['latency max (gateway)', ms(result.latency.max)],
    ['service p50 / p99', service ? `${ms(service.latencyMs.p50)} / ${ms(service.latencyMs.p99)}` : 'n/a'],
    ['write p50 / p99 (lock to commit)', `${ms(metrics.writes.p50)} / ${ms(metrics.writes.p99)}`],
    ['recalculation p50 / p99', `${ms(metrics.recalculation.p50)} / ${ms(metrics.recalculation.p99)}`],
    ['changes per disk flush (group commit)', `${metrics.storage.changesPerCommit} (${metrics.storage.commits} flushes)`],
    ['server CPU per request (gateway + services)', ms(cpuPerRequest)],
    ['engine cache hit rate', `${(metrics.engineCache.hitRate * 100).toFixed(1)}%`],
    ['load average (1 min) before / after', `${loadBefore[0].toFixed(2)} / ${loadAfter[0].toFixed(2)} on ${cpus().length} cores`],
  ]
  const width = Math.max(...rows.map(([label]) => label.length))
  process.stdout.write(`\nAPI benchmark: POST /api/spreadsheet/update-cell through the gateway\n\n`)
  for (const [label, value] of rows) process.stdout.write(`  ${label.padEnd(width)}  ${value}\n`)
  process.stdout.write('\n')
  if (result.non2xx > 0 || result.errors > 0) process.exitCode = 1
} finally {
  stack.kill('SIGTERM')
  await new Promise((resolve) => stack.once('exit', resolve))
}
