/**
 * One step of the import benchmark, run in its own process so that its peak memory (maxRSS) is its
 * own: generating the workbook, exceljs's streaming read as the reference, Finsheet's streaming read,
 * or the whole import end to end through a running stack. Prints one JSON line.
 *
 * import.bench.ts compiles it to bench/.built/import-steps.mjs and runs that on the packages' dist:
 *
 *   node bench/.built/import-steps.mjs <step> <file>
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, openAsBlob, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { openXlsxImport, readCsvFile } from '@finsheet/workbook'

const [step, file, extra] = process.argv.slice(2)

export const ROWS = 200_000
export const COLUMNS = 5

interface StepResult {
  step: string
  cells: number
  formulas: number
  ms: number
  maxRssMb: number
  detail?: Record<string, unknown>
}

function report(result: Omit<StepResult, 'maxRssMb'>): void {
  const maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024)
  process.stdout.write(JSON.stringify({ ...result, maxRssMb } satisfies StepResult) + '\n')
}

/** 200,000 rows × 5 columns: a number, a number, a text, a number, and a formula over the row. */
async function generate(path: string): Promise<void> {
  const started = performance.now()
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true, useStyles: true })
  const sheet = writer.addWorksheet('Data')
  for (let row = 1; row <= ROWS; row++) {
    const a = row
    const b = (row % 1000) * 1.5
    const d = row % 7
    sheet.addRow([a, b, `Item ${row % 1000}`, d, { formula: `A${row}*B${row}+D${row}`, result: a * b + d }]).commit()
  }
  await sheet.commit()
  await writer.commit()
  report({ step, cells: ROWS * COLUMNS, formulas: ROWS, ms: performance.now() - started })
}

/** exceljs's own streaming reader over every cell: the reference. */
async function readWithExceljs(path: string): Promise<void> {
  const started = performance.now()
  let cells = 0
  let formulas = 0
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, { sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', worksheets: 'emit', entries: 'emit' })
  for await (const worksheet of reader) {
    for await (const row of worksheet as AsyncIterable<ExcelJS.Row>) {
      row.eachCell((cell) => {
        cells++
        if (cell.type === ExcelJS.ValueType.Formula) formulas++
      })
    }
  }
  report({ step, cells, formulas, ms: performance.now() - started })
}

/** The reader an import runs: the file's layout first, then each sheet's cells as they are parsed. */
async function readWithFinsheet(path: string): Promise<void> {
  const started = performance.now()
  const source = await openXlsxImport(path)
  try {
    for (const index of source.workbook.sheets.keys()) for await (const _batch of source.cells(index)) continue
  } finally {
    source.close()
  }
  report({ step, cells: source.workbook.cellCount, formulas: source.workbook.formulaCount, ms: performance.now() - started })
}

async function readCsv(path: string): Promise<void> {
  const started = performance.now()
  const workbook = await readCsvFile(path)
  report({ step, cells: workbook.cellCount, formulas: 0, ms: performance.now() - started })
}

/**
 * The whole path a user's upload takes: every service of the all-in-one stack in this process behind
 * the gateway, a registered user, the upload, the files.process job until it completes (parse, the
 * spreadsheet service's bulk import and recalculation), then the stored workbook read back.
 */
async function endToEnd(path: string, kind: string, separateWorker: boolean): Promise<void> {
  const { startAllInOne } = await import('@finsheet/standalone')
  const dataDir = mkdtempSync(join(tmpdir(), 'finsheet-bench-import-'))
  const env = { ...process.env, LOG_LEVEL: 'silent', IMPORT_WAIT_MS: '0', ...(separateWorker ? { RUN_WORKER: 'false' } : {}) }
  const stack = await startAllInOne({ port: 0, dataDir, logger: false, env })
  // As docker compose runs it: the files worker in a process of its own, on the same queue.
  const worker = separateWorker
    ? spawn(process.execPath, ['../services/files/dist/worker.js'], {
        env: { ...env, DATA_DIR: dataDir, SPREADSHEET_URL: stack.services.spreadsheet, USERS_URL: stack.services.users, RUN_WORKER: 'true' },
        stdio: 'inherit',
      })
    : null
  try {
    const register = await fetch(`${stack.url}/api/users/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password: 'bench-secret', fullName: 'Bench' }),
    })
    if (!register.ok) throw new Error(`register answered ${register.status}: ${await register.text()}`)
    const { token } = (await register.json()) as { token: string }
    const auth = { authorization: `Bearer ${token}` }

    // The stack's own resident memory before the upload: every service and thread of it, idle.
    const idleRssMb = Math.round(process.memoryUsage.rss() / 1024 / 1024)
    const started = performance.now()
    const form = new FormData()
    form.append('file', await openAsBlob(path), kind === 'csv' ? 'bench.csv' : 'bench.xlsx')
    const upload = await fetch(`${stack.url}/api/files/upload`, { method: 'POST', headers: auth, body: form })
    if (upload.status !== 201) throw new Error(`upload answered ${upload.status}: ${await upload.text()}`)
    const { jobId } = (await upload.json()) as { jobId: string }
    const uploadedMs = performance.now() - started
    const progress: number[] = []
    let job: {
      state: string
      progress: number
      error: string | null
      result: { workbookId: string; cellCount: number; formulaCount: number; report?: { mismatchCount: number }; timings?: Record<string, number> } | null
    }
    for (;;) {
      const response = await fetch(`${stack.url}/api/files/jobs/${jobId}`, { headers: auth })
      job = (await response.json()) as typeof job
      if (progress.at(-1) !== job.progress) progress.push(job.progress)
      if (job.state === 'completed' || job.state === 'failed') break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const ms = performance.now() - started
    if (job.state !== 'completed' || !job.result) throw new Error(`the import job failed: ${job.error}`)
    const stored = await fetch(`${stack.url}/api/spreadsheet/workbooks/${job.result.workbookId}`, { headers: auth })
    const workerPeakMb = worker?.pid ? peakRssMbOf(worker.pid) : null
    report({
      step,
      cells: job.result.cellCount,
      formulas: job.result.formulaCount,
      ms,
      detail: { idleRssMb, uploadMs: Math.round(uploadedMs), ...job.result.timings, ...(worker ? { workerPeakMb } : {}), progressSeen: progress, mismatches: job.result.report?.mismatchCount ?? null, storedStatus: stored.status },
    })
  } finally {
    if (worker) {
      const exited = new Promise((resolve) => worker.once('exit', resolve))
      worker.kill('SIGTERM')
      await exited
    }
    await stack.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** The peak resident memory of a running process (Linux), in MB. */
function peakRssMbOf(pid: number): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Math.round(Number(match[1]) / 1024) : null
  } catch {
    return null
  }
}

const steps: Record<string, (path: string) => Promise<void>> = {
  generate,
  exceljs: readWithExceljs,
  finsheet: readWithFinsheet,
  csv: readCsv,
  'end-to-end': (path) => endToEnd(path, extra ?? 'xlsx', false),
  'end-to-end-worker': (path) => endToEnd(path, extra ?? 'xlsx', true),
}

if (step && steps[step] && file) {
  await steps[step](file)
  process.exit(0)
}
