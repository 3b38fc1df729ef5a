/**
 * The agent tools benchmark: scripted tool calls (no model) through the gateway, on a 200,000-cell
 * workbook of four sheets (inputs, and three sheets of formulas filled across 2,000 rows). Each call
 * is one POST /api/spreadsheet/workbook/{id}/agent-tools, as the AI service makes once per model turn.
 * Reported per call: wall-clock over HTTP (what the AI service waits for) and, beside it, the time the
 * spreadsheet service spent on the request (its serviceMs: lock, draft, tools, changeset, store).
 * Targets at p95: get_workbook_overview and a 1,000-cell read_range under 50 ms, write_cells of 100
 * cells under 30 ms. The stack runs in a process of its own; the load average is printed because the
 * machine may be shared.
 *
 *   npm run bench:agent                (option: --runs CALLS_PER_SCENARIO, default 60)
 */
import { spawn } from 'node:child_process'
import { cpus, loadavg } from 'node:os'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

/** A, B, … Z, AA, …: a 0-based column's letters. */
function columnToLetters(col: number): string {
  let letters = ''
  for (let n = col + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters
  return letters
}

const ROWS = 2_000
const COLUMNS = 25
const SHEETS = ['Inputs', 'Revenue', 'Costs', 'Summary'] as const
const option = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? Number(process.argv[index + 1]) : fallback
}
const runs = option('runs', 60)
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

async function call(method: string, path: string, body: string, headers: Record<string, string>): Promise<Record<string, unknown>> {
  const response = await fetch(url + path, { method, headers, body })
  const answer = (await response.json()) as Record<string, unknown>
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer).slice(0, 300)}`)
  return answer
}

/** The workbook as the streamed import takes it: a header line, lines of [address, input], an end line. */
function workbookLines(): string {
  const lines: string[] = [JSON.stringify({ name: 'Agent bench', sheets: SHEETS.map((name) => ({ name })) })]
  let total = 0
  SHEETS.forEach((sheet, index) => {
    const cells: [string, string | number][] = []
    cells.push(['A1', 'Line item'])
    for (let col = 1; col < COLUMNS; col++) cells.push([`${columnToLetters(col)}1`, 2024 + col])
    for (let row = 2; row <= ROWS; row++) {
      cells.push([`A${row}`, `${sheet} line ${row - 1}`])
      for (let col = 1; col < COLUMNS; col++) {
        const letters = columnToLetters(col)
        const previous = columnToLetters(col - 1)
        let input: string | number
        if (sheet === 'Inputs') input = ((row * 31 + col * 17) % 997) + 1
        else if (sheet === 'Revenue') input = col === 1 ? `=Inputs!B${row}*10` : `=${previous}${row}*(1+Inputs!${letters}${row}/1000)`
        else if (sheet === 'Costs') input = `=Revenue!${letters}${row}*0.6`
        else input = `=Revenue!${letters}${row}-Costs!${letters}${row}`
        cells.push([`${letters}${row}`, input])
      }
    }
    total += cells.length
    for (let i = 0; i < cells.length; i += 50_000) lines.push(JSON.stringify({ sheet: index, cells: cells.slice(i, i + 50_000) }))
  })
  lines.push(JSON.stringify({ end: { cells: total } }))
  return lines.join('\n')
}

interface Sample {
  wall: number
  service: number
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

try {
  const json = { 'content-type': 'application/json' }
  const { token } = (await call('POST', '/api/users/register', JSON.stringify({ email: 'agent-bench@example.com', password: 'amber-otter-42', fullName: 'Bench' }), json)) as { token: string }
  const auth = { authorization: `Bearer ${token}` }
  const importStarted = performance.now()
  const imported = (await call('POST', '/api/spreadsheet/workbooks/import', workbookLines(), { ...auth, 'content-type': 'application/x-ndjson' })) as { workbookId: string; cellCount: number; formulaCount: number }
  const importMs = performance.now() - importStarted
  const workbookId = imported.workbookId

  /** One turn with one call; answers its timings after checking the call succeeded. */
  async function turn(name: string, args: unknown, check?: (content: Record<string, unknown>) => void): Promise<Sample> {
    const body = JSON.stringify({ calls: [{ id: 'bench', name, arguments: args }] })
    const started = performance.now()
    const response = await fetch(`${url}/api/spreadsheet/workbook/${workbookId}/agent-tools`, { method: 'POST', headers: { ...auth, ...json }, body })
    const answer = (await response.json()) as { serviceMs: number; results: { ok: boolean; error?: string; content: Record<string, unknown> }[] }
    const wall = performance.now() - started
    if (!response.ok || !answer.results[0].ok) throw new Error(`${name}: ${response.status} ${answer.results?.[0]?.error ?? JSON.stringify(answer).slice(0, 300)}`)
    check?.(answer.results[0].content)
    return { wall, service: answer.serviceMs }
  }

  // A large import makes its first version after answering, under the workbook's lock: wait for it.
  await turn('read_range', { sheet: 'Inputs', range: 'A1' })
  // The first overview reads every sheet's layout; later ones find it kept with the open workbook.
  const cold = await turn('get_workbook_overview', {})
  let seed = 1
  const random = () => {
    seed = (seed * 48_271) % 2_147_483_647
    return seed / 2_147_483_647
  }
  const scenarios: { label: string; target: number; run: (i: number) => Promise<Sample> }[] = [
    { label: 'get_workbook_overview', target: 50, run: () => turn('get_workbook_overview', {}) },
    {
      label: 'read_range, 1,000 cells (B:U × 50 rows, values)',
      target: 50,
      run: (i) => {
        const top = 2 + ((i * 53) % (ROWS - 60))
        return turn('read_range', { sheet: 'Revenue', range: `B${top}:U${top + 49}`, include: 'values' }, (content) => {
          if (content.returned !== 1000) throw new Error(`read_range returned ${String(content.returned)} cells`)
        })
      },
    },
    {
      label: 'write_cells, 100 new cells',
      target: 30,
      run: (i) => {
        const column = columnToLetters(COLUMNS + 1 + (i % 20))
        const top = 2 + ((i * 101) % (ROWS - 120))
        const cells = Array.from({ length: 100 }, (_, k) => ({ address: `${column}${top + k}`, input: k % 2 === 0 ? String(Math.round(random() * 1e4)) : `=Summary!B${top + k}*2` }))
        return turn('write_cells', { sheet: 'Summary', cells })
      },
    },
    {
      label: 'write_cells, 100 inputs (each feeds ~70 formulas)',
      target: 30,
      run: () => {
        const cells = Array.from({ length: 100 }, () => ({ address: `${columnToLetters(1 + Math.floor(random() * (COLUMNS - 1)))}${2 + Math.floor(random() * (ROWS - 1))}`, input: String(Math.round(random() * 1000)) }))
        return turn('write_cells', { sheet: 'Inputs', cells, overwrite: true })
      },
    },
  ]
  // Warm-up: JIT and SQLite's pages, not measured.
  for (const scenario of scenarios) for (let i = 0; i < 5; i++) await scenario.run(1000 + i)

  const loadBefore = loadavg()
  const rows: string[][] = []
  for (const scenario of scenarios) {
    const samples: Sample[] = []
    for (let i = 0; i < runs; i++) samples.push(await scenario.run(i))
    const wall = samples.map((sample) => sample.wall)
    const service = samples.map((sample) => sample.service)
    const p95 = percentile(wall, 95)
    rows.push([
      scenario.label,
      ...[50, 95, 99].map((p) => percentile(wall, p).toFixed(1)),
      ...[50, 95, 99].map((p) => percentile(service, p).toFixed(1)),
      `< ${scenario.target}: ${p95 < scenario.target ? 'met' : 'NOT met'}`,
    ])
  }
  const loadAfter = loadavg()

  const header = ['call', 'wall p50', 'wall p95', 'wall p99', 'service p50', 'service p95', 'service p99', 'target p95 (wall)']
  const widths = header.map((title, col) => Math.max(title.length, ...rows.map((row) => row[col].length)))
  const line = (cells: string[]) => `  ${cells.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]) : cell.padStart(widths[col]))).join('   ')}\n`
  process.stdout.write(`\nAgent tools benchmark: POST /api/spreadsheet/workbook/{id}/agent-tools through the gateway\n\n`)
  process.stdout.write(`  workbook: ${imported.cellCount.toLocaleString('en-US')} cells (${imported.formulaCount.toLocaleString('en-US')} formulas) on ${SHEETS.length} sheets, imported in ${(importMs / 1000).toFixed(1)} s\n`)
  process.stdout.write(`  ${runs} calls per row after 5 warm-up calls; times in ms. wall = HTTP round trip at the client (gateway + service); service = the spreadsheet service's own time for the request\n`)
  process.stdout.write(`  first get_workbook_overview after loading (reads every sheet's layout): wall ${cold.wall.toFixed(1)} ms, service ${cold.service.toFixed(1)} ms\n\n`)
  process.stdout.write(line(header))
  process.stdout.write(line(widths.map((width) => '-'.repeat(width))))
  for (const row of rows) process.stdout.write(line(row))
  process.stdout.write(`\n  load average (1 min) before / after: ${loadBefore[0].toFixed(2)} / ${loadAfter[0].toFixed(2)} on ${cpus().length} cores\n\n`)
} finally {
  stack.kill('SIGTERM')
  await new Promise((resolve) => stack.once('exit', resolve))
}
