/**
 * The import benchmark: a generated 1,000,000-cell xlsx (200,000 rows × 5 columns, a fifth of them
 * formulas) imported end to end — upload through the gateway, the files.process job, the spreadsheet
 * service's bulk import and recalculation — beside exceljs's own streaming read of the same file as the
 * reference. Each step runs in a process of its own and reports its peak resident memory; the end to
 * end import runs once with every service and the worker in one process (npm start) and once with the
 * worker in a process of its own (docker compose), whose peak is reported apart. Every step runs the
 * compiled JavaScript, as `npm start` does: a TypeScript loader in the process would add its own
 * thread (and one in each spreadsheet thread) to the memory measured.
 * Targets: end to end at least as fast as exceljs's streaming read of the same file in the same run,
 * peak memory under 600 MB.
 *
 *   npm run bench:import            (--skip-end-to-end to time the readers only)
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

interface StepResult {
  step: string
  cells: number
  formulas: number
  ms: number
  maxRssMb: number
  detail?: Record<string, unknown>
}

const TARGET_PEAK_MB = 600
const testsDir = fileURLToPath(new URL('..', import.meta.url))
const repoRoot = fileURLToPath(new URL('../..', import.meta.url))
const skipEndToEnd = process.argv.includes('--skip-end-to-end')

// The packages' dist (what npm start builds), and the steps' script beside the tests' node_modules.
execFileSync(process.execPath, ['-e', "import('./scripts/build-steps.mjs').then((steps) => steps.transpileWorkspaces())"], { cwd: repoRoot, stdio: 'inherit' })
const stepsScript = join(testsDir, 'bench/.built/import-steps.mjs')
await build({ entryPoints: [join(testsDir, 'bench/import-steps.ts')], outfile: stepsScript, format: 'esm', platform: 'node', target: 'node20', logLevel: 'warning' })

function runStep(step: string, file: string, extra?: string): StepResult {
  const output = execFileSync(process.execPath, ['--max-old-space-size=4096', stepsScript, step, file, ...(extra ? [extra] : [])], {
    cwd: testsDir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 16 * 1024 * 1024,
  })
  const line = output.trim().split('\n').at(-1) as string
  return JSON.parse(line) as StepResult
}

const dir = mkdtempSync(join(tmpdir(), 'finsheet-import-bench-'))
try {
  const load = loadavg().map((value) => value.toFixed(2)).join(' ')
  const xlsx = join(dir, 'bench-1m.xlsx')
  process.stdout.write('Generating the 1,000,000-cell workbook… ')
  const generated = runStep('generate', xlsx)
  process.stdout.write(`${(generated.ms / 1000).toFixed(1)} s, ${(statSync(xlsx).size / 1e6).toFixed(1)} MB\n`)

  const csv = join(dir, 'bench-1m-rows.csv')
  let text = 'id,amount\n'
  for (let row = 1; row <= 1_000_000; row++) text += `${row},${(row % 1000) * 1.25}\n`
  writeFileSync(csv, text)

  const results: Array<[string, StepResult]> = []
  results.push(['exceljs streaming read (reference)', runStep('exceljs', xlsx)])
  results.push(['Finsheet streaming read (layout, then cells)', runStep('finsheet', xlsx)])
  results.push(['Finsheet CSV read, 1,000,000 rows × 2', runStep('csv', csv)])
  if (!skipEndToEnd) {
    results.push(['end to end: upload → job → stored, recalculated', runStep('end-to-end', xlsx)])
    results.push(['the same with the worker in its own process', runStep('end-to-end-worker', xlsx)])
  }

  const rows = results.map(([name, result]) => {
    const cellsPerSecond = Math.round(result.cells / (result.ms / 1000))
    return { name, cells: result.cells, formulas: result.formulas, seconds: (result.ms / 1000).toFixed(2), cellsPerSecond, peakMb: result.maxRssMb, detail: result.detail }
  })
  const header = ['step', 'cells', 'formulas', 'seconds', 'cells/s', 'peak RSS MB']
  const table = [header, ...rows.map((row) => [row.name, row.cells.toLocaleString('en-US'), row.formulas.toLocaleString('en-US'), row.seconds, row.cellsPerSecond.toLocaleString('en-US'), String(row.peakMb)])]
  const widths = header.map((_, column) => Math.max(...table.map((cells) => cells[column].length)))
  console.log()
  for (const [index, cells] of table.entries()) {
    console.log(cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  '))
    if (index === 0) console.log(widths.map((width) => '-'.repeat(width)).join('  '))
  }
  console.log()
  const endToEnd = rows.find((row) => row.name.startsWith('end to end'))
  for (const row of rows.filter((candidate) => candidate.detail)) console.log(`${row.name}: ${JSON.stringify(row.detail)}`)
  const reference = rows[0]
  if (endToEnd) {
    const ratio = endToEnd.cellsPerSecond / reference.cellsPerSecond
    const speed = ratio >= 1 ? 'met' : 'NOT met'
    const memory = endToEnd.peakMb < TARGET_PEAK_MB ? 'met' : 'NOT met'
    console.log(`target end to end ≥ exceljs's streaming read (${reference.cellsPerSecond.toLocaleString('en-US')} cells/s): ${ratio.toFixed(2)}x, ${speed}; peak memory < ${TARGET_PEAK_MB} MB: ${memory}`)
  }
  console.log(`load average at start: ${load}; now: ${loadavg().map((value) => value.toFixed(2)).join(' ')} (2 cores, shared)`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
