/**
 * The model generation benchmark: POST /api/spreadsheet/generate-financial-model through the gateway
 * for every model type, end to end (the AI service checks the request, its ai.generate-model job builds
 * the model, asks the users service for the user's token and imports the workbook into the spreadsheet
 * service; the request returns with the new workbook). Target: under 1 s each for 5 projection years.
 * Also shown: 20 projection years, and the cells each model holds. The stack runs in a process of its
 * own; the load average is printed because the machine may be shared.
 *
 *   npm run bench:models              (option: --runs RUNS_PER_ROW, default 20)
 */
import { spawn } from 'node:child_process'
import { cpus, loadavg } from 'node:os'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { FINANCIAL_MODEL_TYPES } from '@finsheet/contracts'

const TARGET_MS = 1000
const option = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? Number(process.argv[index + 1]) : fallback
}
const runs = option('runs', 20)
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

async function call(method: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const response = await fetch(url + path, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
  const answer = (await response.json()) as Record<string, unknown>
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer).slice(0, 300)}`)
  return answer
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

try {
  const { token } = (await call('POST', '/api/users/register', { email: 'models-bench@example.com', password: 'amber-otter-42', fullName: 'Bench' })) as { token: string }
  const auth = { authorization: `Bearer ${token}` }
  const generate = async (modelType: string, projectionYears: number) => {
    const started = performance.now()
    const answer = (await call('POST', '/api/spreadsheet/generate-financial-model', { modelType, companyName: 'Bench Corp', parameters: { projectionYears, terminalGrowthRate: 2.5 } }, auth)) as {
      cellsCreated: number
    }
    return { ms: performance.now() - started, cells: answer.cellsCreated }
  }
  // Warm-up: JIT, SQLite's pages and the worker's user token, not measured.
  for (const modelType of FINANCIAL_MODEL_TYPES) for (let i = 0; i < 2; i++) await generate(modelType, 5)

  const loadBefore = loadavg()
  const rows: string[][] = []
  for (const years of [5, 20]) {
    for (const modelType of FINANCIAL_MODEL_TYPES) {
      const samples: number[] = []
      let cells = 0
      for (let i = 0; i < runs; i++) {
        const sample = await generate(modelType, years)
        samples.push(sample.ms)
        cells = sample.cells
      }
      const p50 = percentile(samples, 50)
      const p95 = percentile(samples, 95)
      const max = Math.max(...samples)
      rows.push([
        modelType,
        String(years),
        cells.toLocaleString('en-US'),
        p50.toFixed(0),
        p95.toFixed(0),
        max.toFixed(0),
        years === 5 ? `< ${TARGET_MS}: ${p95 < TARGET_MS ? 'met' : 'NOT met'}` : '',
      ])
    }
  }
  const loadAfter = loadavg()

  const header = ['model', 'years', 'cells', 'p50 ms', 'p95 ms', 'max ms', 'target p95']
  const widths = header.map((title, col) => Math.max(title.length, ...rows.map((row) => row[col].length)))
  const line = (cells: string[]) => `  ${cells.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]) : cell.padStart(widths[col]))).join('   ')}\n`
  process.stdout.write('\nModel generation benchmark: POST /api/spreadsheet/generate-financial-model through the gateway, end to end\n\n')
  process.stdout.write(`  ${runs} runs per row after 2 warm-up runs per model; each run makes a new workbook (job on the embedded queue, import into the spreadsheet service)\n\n`)
  process.stdout.write(line(header))
  process.stdout.write(line(widths.map((width) => '-'.repeat(width))))
  for (const row of rows) process.stdout.write(line(row))
  process.stdout.write(`\n  load average (1 min) before / after: ${loadBefore[0].toFixed(2)} / ${loadAfter[0].toFixed(2)} on ${cpus().length} cores\n\n`)
} finally {
  stack.kill('SIGTERM')
  await new Promise((resolve) => stack.once('exit', resolve))
}
