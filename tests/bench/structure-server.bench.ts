/**
 * The structural-edit benchmark on the server: the spreadsheet service started in this process on a
 * free loopback port with its embedded storage (SQLite documents, file blobs), a 200,000-cell workbook
 * imported through the API (the engine benchmark's 2,000 × 100 grid: line items grown by a rate per
 * period, a total per row and a SUM of every column in the last row), then a row inserted and deleted at
 * row 1001 and a column at AY through the route the web app sends its edits to
 * (POST /api/spreadsheet/workbook/:id/changes). Each insertion is followed by the deletion of what it
 * inserted, so every request meets the same workbook; both are timed, wall-clock per request as the
 * client sees it, median of --runs (default 7) after one unmeasured pair. After the runs the column
 * totals are read back through GET …/window and checked against the workbook's own figures. The
 * workbook's background search indexing is off (it would take a CPU from the edits measured).
 *
 *   npm run bench:structure:server     (options: --runs N, --threads N: the service's worker threads, default the service's own)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { startAllInOne } from '@finsheet/standalone'
import { columnToLetters } from '@finsheet/formula'

const HEIGHT = 2_000
const WIDTH = 100
/** Where the edits happen (0-based): row 1001, column AY. */
const ROW = 1_000
const COLUMN = 50
const TARGET_MS = 100

const option = (name: string): string | undefined => {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? process.argv[index + 1] : undefined
}
const RUNS = Number(option('runs') ?? 7)
const THREADS = option('threads')

/** The grid as the streamed import takes it: a header line, lines of [address, input] pairs, an end line. */
function workbookLines(): { body: string; cells: number } {
  const lines: string[] = [JSON.stringify({ name: 'Structure bench', sheets: [{ name: 'Sheet1' }] })]
  let batch: [string, string | number][] = []
  let cells = 0
  const add = (row: number, col: number, input: string | number) => {
    batch.push([`${columnToLetters(col)}${row + 1}`, input])
    cells++
    if (batch.length >= 20_000) {
      lines.push(JSON.stringify({ sheet: 0, cells: batch }))
      batch = []
    }
  }
  add(0, 0, 1)
  for (let c = 1; c < WIDTH - 1; c++) add(0, c, c / 100)
  for (let r = 1; r < HEIGHT - 1; r++) {
    add(r, 0, r)
    for (let c = 1; c < WIDTH - 1; c++) add(r, c, `=$A${r + 1}*(1+${columnToLetters(c)}$1)`)
    add(r, WIDTH - 1, `=SUM(B${r + 1}:${columnToLetters(WIDTH - 2)}${r + 1})`)
  }
  for (let c = 0; c < WIDTH; c++) add(HEIGHT - 1, c, `=SUM(${columnToLetters(c)}2:${columnToLetters(c)}${HEIGHT - 1})`)
  if (batch.length > 0) lines.push(JSON.stringify({ sheet: 0, cells: batch }))
  lines.push(JSON.stringify({ end: { cells } }))
  return { body: lines.join('\n'), cells }
}

/** What the workbook's totals row must read: each column's sum over the line items. */
function expectedTotals(): number[] {
  const totals: number[] = []
  const items = HEIGHT - 2
  // Σ r for r = 1 … 1,998: the inputs of column A.
  const inputs = (items * (items + 1)) / 2
  totals.push(inputs)
  for (let c = 1; c < WIDTH - 1; c++) totals.push(inputs * (1 + c / 100))
  let rowTotals = 0
  for (let c = 1; c < WIDTH - 1; c++) rowTotals += 1 + c / 100
  totals.push(inputs * rowTotals)
  return totals
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
const format = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2))

type Edit = 'insert row' | 'delete row' | 'insert column' | 'delete column'
const command = (edit: Edit) =>
  edit === 'insert row'
    ? { type: 'insert-rows', sheet: 'Sheet1', at: ROW, count: 1 }
    : edit === 'delete row'
      ? { type: 'delete-rows', sheet: 'Sheet1', at: ROW, count: 1 }
      : edit === 'insert column'
        ? { type: 'insert-columns', sheet: 'Sheet1', at: COLUMN, count: 1 }
        : { type: 'delete-columns', sheet: 'Sheet1', at: COLUMN, count: 1 }

const loadAtStart = loadavg().map((value) => value.toFixed(2)).join(', ')
const dataDir = mkdtempSync(join(tmpdir(), 'finsheet-structure-bench-'))
const stack = await startAllInOne({
  port: 0,
  dataDir,
  logger: false,
  webRoot: join(dataDir, 'no-web-build'),
  env: {
    ...process.env,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '1000000',
    BODY_LIMIT_BYTES: String(64 * 1024 * 1024),
    // The search index of the workbook is built in the background after a quiet moment: off, so that it
    // does not take a CPU from the edits measured.
    SEARCH_INDEX_QUIET_MS: '0',
    ...(THREADS !== undefined ? { SPREADSHEET_THREADS: THREADS } : {}),
  },
})
try {
  const post = async (path: string, body: unknown, token?: string): Promise<Record<string, unknown>> => {
    const response = await fetch(stack.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    })
    const answer = (await response.json()) as Record<string, unknown>
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(answer).slice(0, 300)}`)
    return answer
  }
  const { token } = (await post('/api/users/register', { email: `structure-bench.${Date.now()}@example.com`, password: 'amber-otter-42', fullName: 'Bench' })) as { token: string }
  const { body, cells } = workbookLines()
  const imported = await fetch(`${stack.url}/api/spreadsheet/workbooks/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
    body,
  })
  const answer = (await imported.json()) as { workbookId: string; cellCount: number }
  if (!imported.ok) throw new Error(`import: ${imported.status} ${JSON.stringify(answer).slice(0, 300)}`)
  if (answer.cellCount !== cells) throw new Error(`imported ${answer.cellCount} cells, not ${cells}`)
  const id = answer.workbookId
  const window = async (startRow: number, endRow: number) => {
    const response = await fetch(`${stack.url}/api/spreadsheet/workbook/${id}/window?startRow=${startRow}&endRow=${endRow}`, { headers: { authorization: `Bearer ${token}` } })
    if (!response.ok) throw new Error(`window: ${response.status} ${await response.text()}`)
    return ((await response.json()) as { workbook: { sheet: { rowCount: number; columnCount: number; cells: Record<string, { value: unknown }> } } }).workbook.sheet
  }
  // A large import makes its first version after answering, under the workbook's lock: the unmeasured
  // first pair of edits below waits for it.

  const change = async (edit: Edit): Promise<number> => {
    const started = performance.now()
    await post(`/api/spreadsheet/workbook/${id}/changes`, { commands: [command(edit)] }, token)
    return performance.now() - started
  }
  const times = new Map<Edit, number[]>([
    ['insert row', []],
    ['delete row', []],
    ['insert column', []],
    ['delete column', []],
  ])
  for (const [insert, remove] of [
    ['insert row', 'delete row'],
    ['insert column', 'delete column'],
  ] as const) {
    // One unmeasured pair: the first structural edit in a process also compiles its code paths.
    await change(insert)
    await change(remove)
    for (let run = 0; run < RUNS; run++) {
      const inserted = await change(insert)
      const removed = await change(remove)
      times.get(insert)!.push(inserted)
      times.get(remove)!.push(removed)
      console.error(`${insert}: ${format(inserted)} ms, ${remove}: ${format(removed)} ms`)
    }
  }

  // The workbook is as imported again: its totals row must read the column sums.
  const sheet = await window(HEIGHT, HEIGHT)
  const expected = expectedTotals()
  const byAddress = new Map(Object.entries(sheet.cells).map(([address, cell]) => [address, cell.value]))
  const wrong = expected.filter((value, col) => {
    const read = byAddress.get(`${columnToLetters(col)}${HEIGHT}`)
    return typeof read !== 'number' || Math.abs(read - value) > 1e-9 * Math.abs(value)
  }).length
  const shapeRight = sheet.rowCount === HEIGHT && sheet.columnCount === WIDTH

  const load = loadavg().map((value) => value.toFixed(2)).join(', ')
  console.log(
    `\nStructural edits on the server: a ${cells.toLocaleString('en-US')}-cell workbook (2,000 × 100 grid with column SUMs), row ${ROW + 1} / column ${columnToLetters(COLUMN)}, ` +
      `POST /api/spreadsheet/workbook/:id/changes on the in-process stack (embedded SQLite) — Node ${process.version}, ${cpus().length} CPUs, ` +
      `spreadsheet threads ${THREADS ?? 'default'}, load average at start ${loadAtStart} (at the end ${load})\n`,
  )
  console.log('| edit | median ms | min ms | max ms | target | pass |')
  console.log('|---|---:|---:|---:|---|---|')
  let failed = 0
  for (const [edit, list] of times) {
    const middle = median(list)
    const pass = middle < TARGET_MS
    if (!pass) failed++
    console.log(`| ${edit} | ${format(middle)} | ${format(Math.min(...list))} | ${format(Math.max(...list))} | < ${TARGET_MS} ms | ${pass ? 'yes' : 'NO'} |`)
  }
  console.log(`\nWall-clock per request, median of ${RUNS} after one unmeasured insert and delete of each; every insertion is deleted again by the next request.`)
  console.log(`${times.size - failed} of ${times.size} edits meet the target; the totals row after the edits ${wrong === 0 && shapeRight ? 'reads the column sums' : `IS WRONG (${wrong} totals differ, ${sheet.rowCount} × ${sheet.columnCount})`}.`)
  process.exitCode = failed > 0 || wrong > 0 || !shapeRight ? 1 : 0
} finally {
  await stack.close()
  rmSync(dataDir, { recursive: true, force: true })
}
