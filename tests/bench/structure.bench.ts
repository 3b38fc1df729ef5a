/**
 * The structural-edit benchmark: inserting and deleting a row (a line item) and a column (a period) in
 * the middle of a 200,000-cell workbook (a 2,000 × 100 financial grid: line items grown by a rate per
 * period, a total per row and a SUM of every column in the last row), Finsheet's engine beside
 * HyperFormula's addRows / removeRows / addColumns / removeColumns on the same workbook, in one process.
 *
 * Two figures per edit and engine:
 * - fresh: the first edit in a new process (what an analyst's first insertion costs: no optimised code
 *   for the edit yet), wall-clock, the median of --runs processes, each building both engines and
 *   timing one edit on each (the engines alternate which goes first);
 * - warm: the median of 10 (--warm) edits in one process after two unmeasured ones, each undone (untimed)
 *   before the next (a deleted row or column is inserted and filled again).
 * Both engines must agree on the column totals after every edit.
 *
 * `npm run bench:structure` then runs structure-server.bench.ts: the same edits on the same workbook
 * through the spreadsheet service's HTTP API.
 *
 * Times are wall-clock, with the process's CPU time beside them (on a shared machine wall-clock also
 * counts the time spent waiting for a CPU).
 *
 *   npm run bench:structure            (options: --runs N, --warm N)
 */
import { spawnSync } from 'node:child_process'
import { cpus, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { HyperFormula } from 'hyperformula'
import type { RawCellContent } from 'hyperformula'
import { Engine, CellError, columnToLetters } from '@finsheet/formula'

type Input = string | number

const HEIGHT = 2_000
const WIDTH = 100
/** Where the edits happen: the middle of the grid. */
const ROW = 1_000
const COLUMN = 50
const TARGET_MS = 20

/**
 * The grid, row-major from A1: 2,000 × 100 = 200,000 cells. Row 1 holds a growth rate per period; each
 * line item (rows 2–1,999) has its input in A and per period `=$An*(1+X$1)`, with the row's total in
 * the last column; the last row sums every column.
 */
function grid(): Input[][] {
  const rows: Input[][] = [[1]]
  for (let c = 1; c < WIDTH - 1; c++) rows[0].push(c / 100)
  rows[0].push('')
  for (let r = 1; r < HEIGHT - 1; r++) rows.push(lineItem(r))
  const totals: Input[] = []
  for (let c = 0; c < WIDTH; c++) totals.push(`=SUM(${columnToLetters(c)}2:${columnToLetters(c)}${HEIGHT - 1})`)
  rows.push(totals)
  return rows
}

/** Row `r` (0-based) of the line items. */
function lineItem(r: number): Input[] {
  const row: Input[] = [r]
  for (let c = 1; c < WIDTH - 1; c++) row.push(`=$A${r + 1}*(1+${columnToLetters(c)}$1)`)
  row.push(`=SUM(B${r + 1}:${columnToLetters(WIDTH - 2)}${r + 1})`)
  return row
}

/** Column `c` (0-based, a period) of the grid. */
function period(c: number): Input[] {
  const column: Input[] = [c / 100]
  for (let r = 1; r < HEIGHT - 1; r++) column.push(`=$A${r + 1}*(1+${columnToLetters(c)}$1)`)
  column.push(`=SUM(${columnToLetters(c)}2:${columnToLetters(c)}${HEIGHT - 1})`)
  return column
}

type Edit = 'insert row' | 'delete row' | 'insert column' | 'delete column'
const EDITS: Edit[] = ['insert row', 'delete row', 'insert column', 'delete column']

interface Adapter {
  name: string
  build(rows: Input[][]): unknown
  edit(instance: unknown, edit: Edit): void
  /** Puts the grid back as it was before `edit` (untimed): an insertion deleted, a deletion inserted and filled again. */
  undo(instance: unknown, edit: Edit): void
  /** The totals row (wherever the edit moved it): what both engines must agree on. */
  totals(instance: unknown): unknown[]
}

const finsheet: Adapter = {
  name: 'Finsheet',
  build(rows) {
    const engine = new Engine()
    engine.addSheet('Sheet1')
    engine.loadSheet('Sheet1', rows)
    return engine
  },
  edit(instance, edit) {
    const engine = instance as Engine
    if (edit === 'insert row') engine.insertRows('Sheet1', ROW, 1)
    else if (edit === 'delete row') engine.deleteRows('Sheet1', ROW, 1)
    else if (edit === 'insert column') engine.insertColumns('Sheet1', COLUMN, 1)
    else engine.deleteColumns('Sheet1', COLUMN, 1)
  },
  undo(instance, edit) {
    const engine = instance as Engine
    if (edit === 'insert row') engine.deleteRows('Sheet1', ROW, 1)
    else if (edit === 'insert column') engine.deleteColumns('Sheet1', COLUMN, 1)
    else if (edit === 'delete row') {
      engine.insertRows('Sheet1', ROW, 1)
      engine.setCells(lineItem(ROW).map((input, col) => ({ sheet: 'Sheet1', address: `${columnToLetters(col)}${ROW + 1}`, input })))
    } else {
      engine.insertColumns('Sheet1', COLUMN, 1)
      engine.setCells(period(COLUMN).map((input, row) => ({ sheet: 'Sheet1', address: `${columnToLetters(COLUMN)}${row + 1}`, input })))
    }
  },
  totals(instance) {
    const engine = instance as Engine
    const used = engine.getUsedRange('Sheet1')!
    const values: unknown[] = []
    for (let col = 0; col <= used.right; col++) {
      const value = engine.getValueAt('Sheet1', used.bottom, col)
      values.push(value instanceof CellError ? errorName(value.code) : value)
    }
    return values
  },
}

const hyperformula: Adapter = {
  name: 'HyperFormula',
  build(rows) {
    return HyperFormula.buildFromArray(rows as RawCellContent[][], { licenseKey: 'gpl-v3', maxRows: 1_048_576 })
  },
  edit(instance, edit) {
    const hf = instance as HyperFormula
    if (edit === 'insert row') hf.addRows(0, [ROW, 1])
    else if (edit === 'delete row') hf.removeRows(0, [ROW, 1])
    else if (edit === 'insert column') hf.addColumns(0, [COLUMN, 1])
    else hf.removeColumns(0, [COLUMN, 1])
  },
  undo(instance, edit) {
    const hf = instance as HyperFormula
    if (edit === 'insert row') hf.removeRows(0, [ROW, 1])
    else if (edit === 'insert column') hf.removeColumns(0, [COLUMN, 1])
    else if (edit === 'delete row') {
      hf.addRows(0, [ROW, 1])
      hf.setCellContents({ sheet: 0, row: ROW, col: 0 }, [lineItem(ROW) as RawCellContent[]])
    } else {
      hf.addColumns(0, [COLUMN, 1])
      hf.setCellContents({ sheet: 0, row: 0, col: COLUMN }, period(COLUMN).map((input) => [input as RawCellContent]))
    }
  },
  totals(instance) {
    const hf = instance as HyperFormula
    const size = hf.getSheetDimensions(0)
    const values: unknown[] = []
    for (let col = 0; col < size.width; col++) {
      const value = hf.getCellValue({ sheet: 0, row: size.height - 1, col })
      values.push(value === null ? null : typeof value === 'object' && 'type' in value ? errorName(String(value.type)) : value)
    }
    return values
  },
}

/** An error's name as both engines can be compared on: HyperFormula says `REF` where Excel shows `#REF!`. */
function errorName(code: string): string {
  return `#${code.replace(/[^A-Z0-9/]/gi, '')}`
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? process.argv[index + 1] : undefined
}

function cpuMs(): number {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1000
}

/** Wall-clock and CPU time of a call, in ms. */
function timed(run: () => void): { wall: number; cpu: number } {
  const cpuStart = cpuMs()
  const start = performance.now()
  run()
  return { wall: performance.now() - start, cpu: cpuMs() - cpuStart }
}

function agree(a: unknown[], b: unknown[]): boolean {
  // HyperFormula's sheet may end with an empty column after a deletion: compare what both hold.
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const x = a[i]
    const y = b[i]
    if (typeof x === 'number' && typeof y === 'number' ? Math.abs(x - y) > 1e-9 * Math.max(1, Math.abs(y)) : x !== y) return false
  }
  return a.slice(length).every((x) => x === null) && b.slice(length).every((x) => x === null)
}

/** One fresh process: both engines built, one edit timed on each, in the order given. */
function child(edit: Edit, order: string): void {
  const rows = grid()
  const adapters = order === 'hf-first' ? [hyperformula, finsheet] : [finsheet, hyperformula]
  const result: Record<string, { wall: number; cpu: number }> = {}
  const totals: unknown[][] = []
  for (const adapter of adapters) {
    const instance = adapter.build(rows)
    result[adapter.name] = timed(() => adapter.edit(instance, edit))
    totals.push(adapter.totals(instance))
  }
  process.stdout.write(JSON.stringify({ ...result, agree: agree(totals[0], totals[1]) }) + '\n')
}

if (argument('child') !== undefined) {
  child(argument('child') as Edit, argument('order') ?? 'finsheet-first')
  process.exit(0)
}

const runs = Number(argument('runs') ?? 5)
const loadAtStart = loadavg().map((value) => value.toFixed(1)).join(', ')
const script = fileURLToPath(import.meta.url)
let allAgree = true

interface Times {
  wall: number
  cpu: number
}

interface Row {
  edit: Edit
  freshOurs: Times
  freshTheirs: Times
  warmOurs: Times
  warmTheirs: Times
}

function medians(list: Times[]): Times {
  return { wall: median(list.map((times) => times.wall)), cpu: median(list.map((times) => times.cpu)) }
}
const table: Row[] = []

function fresh(edit: Edit): { ours: Times; theirs: Times } {
  const ours: Times[] = []
  const theirs: Times[] = []
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? 'finsheet-first' : 'hf-first'
    const child = spawnSync(process.execPath, [...process.execArgv, script, '--child', edit, '--order', order], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 })
    if (child.status !== 0) throw new Error(`The fresh run of ${edit} failed: ${child.stderr}`)
    const result = JSON.parse(child.stdout.trim().split('\n').pop() as string) as Record<string, Times | boolean>
    if (result.agree !== true) {
      allAgree = false
      console.error(`${edit} (fresh process): the engines disagree on the column totals`)
    }
    ours.push(result.Finsheet as Times)
    theirs.push(result.HyperFormula as Times)
  }
  return { ours: medians(ours), theirs: medians(theirs) }
}

const WARM_EDITS = Number(argument('warm') ?? 10)
const WARM_UP_EDITS = 2

function warm(adapter: Adapter, instance: unknown, edit: Edit): Times {
  const times: Times[] = []
  for (let i = 0; i < WARM_UP_EDITS + WARM_EDITS; i++) {
    const time = timed(() => adapter.edit(instance, edit))
    adapter.undo(instance, edit)
    if (i >= WARM_UP_EDITS) times.push(time)
  }
  return medians(times)
}

const format = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2))
const rows = grid()
const residents = [finsheet, hyperformula].map((adapter) => ({ adapter, instance: adapter.build(rows) }))
for (const edit of EDITS) {
  const { ours, theirs } = fresh(edit)
  const [warmOurs, warmTheirs] = residents.map(({ adapter, instance }) => warm(adapter, instance, edit))
  for (const { adapter, instance } of residents) adapter.edit(instance, edit)
  if (!agree(finsheet.totals(residents[0].instance), hyperformula.totals(residents[1].instance))) {
    allAgree = false
    console.error(`${edit} (warm): the engines disagree on the column totals`)
  }
  for (const { adapter, instance } of residents) adapter.undo(instance, edit)
  table.push({ edit, freshOurs: ours, freshTheirs: theirs, warmOurs, warmTheirs })
  console.error(`${edit}: fresh ${format(ours.wall)} / ${format(theirs.wall)} ms, warm ${format(warmOurs.wall)} / ${format(warmTheirs.wall)} ms (Finsheet / HyperFormula, wall-clock)`)
}

const load = loadavg().map((value) => value.toFixed(1)).join(', ')
console.log(
  `\nStructural edits on a 200,000-cell workbook (2,000 × 100 grid with column SUMs), at row ${ROW + 1} / column ${columnToLetters(COLUMN)} — ` +
    `Node ${process.version}, ${cpus().length} CPUs, load average at start ${loadAtStart} (now ${load})\n`,
)
console.log(
  '| edit | fresh: Finsheet | fresh: HyperFormula | fresh: HF / Finsheet | fresh CPU: Finsheet | fresh CPU: HyperFormula | ' +
    'warm: Finsheet | warm: HyperFormula | warm: HF / Finsheet | warm CPU: Finsheet | warm CPU: HyperFormula | target (fresh, wall) | pass |',
)
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|')
let failed = 0
for (const row of table) {
  const pass = row.freshOurs.wall < TARGET_MS
  if (!pass) failed++
  console.log(
    `| ${row.edit} | ${format(row.freshOurs.wall)} | ${format(row.freshTheirs.wall)} | ${(row.freshTheirs.wall / row.freshOurs.wall).toFixed(1)}× | ` +
      `${format(row.freshOurs.cpu)} | ${format(row.freshTheirs.cpu)} | ` +
      `${format(row.warmOurs.wall)} | ${format(row.warmTheirs.wall)} | ${(row.warmTheirs.wall / row.warmOurs.wall).toFixed(1)}× | ` +
      `${format(row.warmOurs.cpu)} | ${format(row.warmTheirs.cpu)} | < ${TARGET_MS} ms | ${pass ? 'yes' : 'NO'} |`,
  )
}
console.log(
  `\nms; fresh: the first edit in a new process, median of ${runs} processes; warm: median of ${WARM_EDITS} edits in one process after ${WARM_UP_EDITS}, each undone before the next. ` +
    'Wall-clock unless marked CPU (CPU time of the process: on a shared machine wall-clock also counts waiting for a CPU).',
)
console.log(`${table.length - failed} of ${table.length} edits meet the target${allAgree ? '; the engines agree on the column totals after every edit.' : '; THE ENGINES DISAGREE (see above).'}`)

process.exitCode = failed > 0 || !allAgree ? 1 : 0
