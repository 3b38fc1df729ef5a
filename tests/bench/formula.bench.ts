/**
 * The formula benchmark: Finsheet's engine against HyperFormula on the same workloads, in one process.
 * For each workload and engine: build plus first evaluation, recalculation after editing one input
 * (the median of 5 successive edits of that input, each to a new value), and heap (peak during the
 * build, and retained after it), as medians of 10 runs on fresh engines. Beyond the five
 * workloads, two are shaped like a model's reports and lookups (SUMIFS and INDEX/MATCH into a data
 * table); they have no target and run 3 times, since HyperFormula takes seconds a run on them.
 *
 * Each engine keeps one resident instance of the workload open during the runs, as the spreadsheet
 * service keeps other workbooks open: a process whose only workbook is thrown away after every run
 * loses its optimised code with it (V8 collects the hidden classes that code was specialised for),
 * which no server or browser tab does.
 *
 * Times are measured twice: wall-clock, and CPU time of the process (process.cpuUsage). On an idle
 * machine they agree; on a shared one, wall-clock also counts the time the process waited for a CPU,
 * which says nothing about either engine, so the targets are judged on CPU time. Both are printed,
 * with the load average at the start.
 *
 * Last, a what-if data table (5 × 5 over 2,000 formulas), which HyperFormula does not have.
 *
 *   npm run bench:formula            (options: --runs N, --only <workload>)
 */
import { spawnSync } from 'node:child_process'
import { cpus, loadavg } from 'node:os'
import { HyperFormula } from 'hyperformula'
import type { RawCellContent } from 'hyperformula'
import { Engine, CellError, columnToLetters } from '@finsheet/formula'
import type { CellUpdate } from '@finsheet/formula'

type Input = string | number

interface Workload {
  name: string
  /** Row-major inputs starting at A1. */
  rows: Input[][]
  /** The input edited after the build, 0-based. */
  edit: { row: number; col: number; value: number }
  /** A cell whose value both engines must agree on after the edit, 0-based. */
  probe: { row: number; col: number }
  /** Shaped like a model's reports and lookups, beyond the five workloads: measured, no target. */
  extra?: boolean
}

function chains(): Workload {
  const rows: Input[][] = []
  for (let i = 1; i <= 10_000; i++) {
    rows.push([i, `=A${i}*2`, i === 1 ? '=B1+1' : `=B${i}+C${i - 1}`, `=C${i}/2+A${i}`])
  }
  return { name: 'arithmetic chains (10,000 rows × 3 formulas)', rows, edit: { row: 0, col: 0, value: 7 }, probe: { row: 9_999, col: 3 } }
}

function prefixSums(): Workload {
  const rows: Input[][] = []
  for (let i = 1; i <= 5_000; i++) rows.push([i, `=SUM($A$1:A${i})`])
  return { name: 'running totals =SUM($A$1:An) (5,000 rows)', rows, edit: { row: 0, col: 0, value: 7 }, probe: { row: 4_999, col: 1 } }
}

function concatenations(): Workload {
  const rows: Input[][] = []
  for (let i = 1; i <= 10_000; i++) rows.push([`item ${i}`, i, `=CONCATENATE(A${i},"-",B${i})`])
  return { name: 'CONCATENATE (10,000 rows)', rows, edit: { row: 4_999, col: 1, value: 7 }, probe: { row: 4_999, col: 2 } }
}

function bigSum(): Workload {
  const rows: Input[][] = []
  for (let i = 1; i <= 100_000; i++) rows.push([i])
  rows[0].push('=SUM(A1:A100000)')
  return { name: 'one =SUM(A1:A100000) over 100,000 numbers', rows, edit: { row: 49_999, col: 0, value: 7 }, probe: { row: 0, col: 1 } }
}

function financialGrid(): Workload {
  const height = 200
  const width = 120
  const rows: Input[][] = []
  for (let r = 0; r < height; r++) {
    const row: Input[] = []
    for (let c = 0; c < width; c++) {
      const left = c > 0 ? `${columnToLetters(c - 1)}${r + 1}` : undefined
      const above = r > 0 ? `${columnToLetters(c)}${r}` : undefined
      if (!left && !above) row.push(100)
      else if (!above) row.push(`=${left}*1.01`)
      else if (!left) row.push(`=${above}*1.02`)
      else row.push(`=(${left}+${above})/2+1`)
    }
    rows.push(row)
  }
  return { name: 'financial grid 200×120 (left + above)', rows, edit: { row: 0, col: 0, value: 150 }, probe: { row: height - 1, col: width - 1 } }
}

/** A data table of 10,000 rows (region, product, amount) and a report beside it: 100 SUMIFS and 25 COUNTIFS. */
function criteriaReport(): Workload {
  const regions = ['North', 'South', 'East', 'West']
  const rows: Input[][] = []
  for (let i = 1; i <= 10_000; i++) rows.push([regions[i % 4], `P${i % 25}`, i % 97])
  rows[0].push('', 'product', ...regions, 'count')
  for (let p = 0; p < 25; p++) {
    const row = rows[p + 1]
    row.push('', `P${p}`)
    for (let g = 0; g < 4; g++) {
      const column = columnToLetters(5 + g)
      row.push(`=SUMIFS($C$1:$C$10000,$A$1:$A$10000,${column}$1,$B$1:$B$10000,$E${p + 2})`)
    }
    row.push(`=COUNTIFS($B$1:$B$10000,$E${p + 2},$C$1:$C$10000,">50")`)
  }
  return { name: 'report: 100 SUMIFS + 25 COUNTIFS over 10,000 rows', rows, edit: { row: 99, col: 2, value: 7 }, probe: { row: 1, col: 5 }, extra: true }
}

/** 500 INDEX/MATCH and 500 VLOOKUP formulas looking up keys in a 10,000-row table. */
function lookups(): Workload {
  const rows: Input[][] = []
  for (let i = 1; i <= 10_000; i++) rows.push([`ID${i}`, i * 1.5])
  for (let i = 1; i <= 500; i++) {
    const key = `ID${((i * 37) % 10_000) + 1}`
    rows[i - 1].push('', key, `=INDEX($B$1:$B$10000,MATCH(D${i},$A$1:$A$10000,0))`, `=VLOOKUP(D${i},$A$1:$B$10000,2,FALSE)`)
  }
  // The first lookup's key is ID38, so the edited amount in B38 is what it returns.
  return { name: 'lookups: 500 INDEX/MATCH + 500 VLOOKUP into 10,000 rows', rows, edit: { row: 37, col: 1, value: 7 }, probe: { row: 0, col: 4 }, extra: true }
}

interface Measurement {
  buildMs: number
  buildCpuMs: number
  editMs: number
  editCpuMs: number
  peakHeapMb: number
  retainedHeapMb: number
  probe: unknown
}

const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('Run with node --expose-gc (npm run bench:formula does)')

function cpuMs(): number {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1000
}

function heapMb(): number {
  return process.memoryUsage().heapUsed / 1_048_576
}

const EDITS_PER_RUN = 5
/** Runs before the measured ones, so that both engines are measured with their code optimised. */
const WARM_UP_RUNS = 2

interface EngineAdapter {
  name: string
  build(rows: Input[][]): unknown
  edit(instance: unknown, workload: Workload, value: number): void
  read(instance: unknown, row: number, col: number): unknown
  dispose(instance: unknown): void
}

const finsheet: EngineAdapter = {
  name: 'Finsheet',
  build(rows) {
    const engine = new Engine()
    engine.addSheet('Sheet1')
    engine.loadSheet('Sheet1', rows)
    return engine
  },
  edit(instance, { edit }, value) {
    ;(instance as Engine).setCell('Sheet1', `${columnToLetters(edit.col)}${edit.row + 1}`, value)
  },
  read(instance, row, col) {
    const value = (instance as Engine).getValue('Sheet1', `${columnToLetters(col)}${row + 1}`)
    return value instanceof CellError ? value.code : value
  },
  dispose() {},
}

const hyperformula: EngineAdapter = {
  name: 'HyperFormula',
  build(rows) {
    return HyperFormula.buildFromArray(rows as RawCellContent[][], { licenseKey: 'gpl-v3', maxRows: 1_048_576 })
  },
  edit(instance, { edit }, value) {
    ;(instance as HyperFormula).setCellContents({ sheet: 0, row: edit.row, col: edit.col }, value)
  },
  read(instance, row, col) {
    const value = (instance as HyperFormula).getCellValue({ sheet: 0, row, col })
    return typeof value === 'object' && value !== null && 'type' in value ? `#${String(value.type)}` : value
  },
  dispose(instance) {
    ;(instance as HyperFormula).destroy()
  },
}

/** Lets the collector's background threads (sweeping after a full collection) finish, so that their work is not counted as the next engine's. */
function settle(): Promise<void> {
  gc!()
  gc!()
  return new Promise((resolve) => setTimeout(resolve, 100))
}

async function measure(adapter: EngineAdapter, workload: Workload): Promise<Measurement> {
  await settle()
  const before = heapMb()
  const buildCpuStart = cpuMs()
  const buildStart = performance.now()
  const instance = adapter.build(workload.rows)
  const buildMs = performance.now() - buildStart
  const buildCpuMs = cpuMs() - buildCpuStart
  const peak = heapMb() - before
  gc!()
  const retained = heapMb() - before
  const editTimes: number[] = []
  const editCpuTimes: number[] = []
  for (let i = 0; i < EDITS_PER_RUN; i++) {
    const editCpuStart = cpuMs()
    const editStart = performance.now()
    adapter.edit(instance, workload, workload.edit.value + i)
    editTimes.push(performance.now() - editStart)
    editCpuTimes.push(cpuMs() - editCpuStart)
  }
  const probe = adapter.read(instance, workload.probe.row, workload.probe.col)
  adapter.dispose(instance)
  return {
    buildMs,
    buildCpuMs,
    editMs: median(editTimes),
    editCpuMs: median(editCpuTimes),
    peakHeapMb: Math.max(peak, retained),
    retainedHeapMb: retained,
    probe,
  }
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

const runs = Number(argument('runs') ?? 10)
const loadAtStart = loadavg().map((value) => value.toFixed(1)).join(', ')
const only = argument('only')
const workloads = [chains, prefixSums, concatenations, bigSum, financialGrid, criteriaReport, lookups]
  .map((make) => make())
  .filter((workload) => only === undefined || workload.name.toLowerCase().includes(only.toLowerCase()))

interface Row {
  workload: string
  metric: string
  finsheet: number
  hyperformula: number
  target: string
  pass: boolean
}

const table: Row[] = []
let allAgree = true
for (const workload of workloads) {
  const results = new Map<string, Measurement[]>()
  // Alternate the engines run by run so that neither always runs on a warmer or fuller heap.
  const residents = [finsheet, hyperformula].map((adapter) => ({ adapter, instance: adapter.build(workload.rows) }))
  // HyperFormula scans a table once per SUMIFS or lookup, seconds a run: the extra workloads run 3 times.
  const workloadRuns = workload.extra ? Math.min(runs, 3) : runs
  for (let run = 0; run < workloadRuns + WARM_UP_RUNS; run++) {
    for (const adapter of run % 2 === 0 ? [finsheet, hyperformula] : [hyperformula, finsheet]) {
      const measurement = await measure(adapter, workload)
      if (run < WARM_UP_RUNS) continue // warm-up: JIT compilation of both engines
      const list = results.get(adapter.name) ?? []
      list.push(measurement)
      results.set(adapter.name, list)
    }
  }
  for (const { adapter, instance } of residents) adapter.dispose(instance)
  const ours = results.get(finsheet.name) as Measurement[]
  const theirs = results.get(hyperformula.name) as Measurement[]
  const probeOurs = ours[0].probe
  const probeTheirs = theirs[0].probe
  const agree =
    typeof probeOurs === 'number' && typeof probeTheirs === 'number'
      ? Math.abs(probeOurs - probeTheirs) <= 1e-9 * Math.max(1, Math.abs(probeTheirs))
      : probeOurs === probeTheirs
  if (!agree) {
    allAgree = false
    console.error(`${workload.name}: the engines disagree after the edit: Finsheet ${String(probeOurs)}, HyperFormula ${String(probeTheirs)}`)
  }
  const both = (pick: (m: Measurement) => number) => [median(ours.map(pick)), median(theirs.map(pick))]
  const build = both((m) => m.buildMs)
  const buildCpu = both((m) => m.buildCpuMs)
  const edit = both((m) => m.editMs)
  const editCpu = both((m) => m.editCpuMs)
  const peak = both((m) => m.peakHeapMb)
  const retained = both((m) => m.retainedHeapMb)
  table.push({
    workload: workload.name,
    metric: 'build + first evaluation (ms, CPU)',
    finsheet: buildCpu[0],
    hyperformula: buildCpu[1],
    target: workload.extra ? '—' : '≥ 4× faster',
    pass: workload.extra === true || buildCpu[1] / buildCpu[0] >= 4,
  })
  table.push({ workload: workload.name, metric: 'build + first evaluation (ms, wall)', finsheet: build[0], hyperformula: build[1], target: '—', pass: true })
  const editTarget = workload.name.startsWith('financial grid') ? '< 10 ms' : workload.name.startsWith('one =SUM') ? '< 1 ms' : '—'
  const limit = editTarget === '< 10 ms' ? 10 : editTarget === '< 1 ms' ? 1 : Infinity
  table.push({ workload: workload.name, metric: 'recalculation after editing one input (ms, CPU)', finsheet: editCpu[0], hyperformula: editCpu[1], target: editTarget, pass: editCpu[0] < limit })
  table.push({ workload: workload.name, metric: 'recalculation after editing one input (ms, wall)', finsheet: edit[0], hyperformula: edit[1], target: '—', pass: true })
  table.push({
    workload: workload.name,
    metric: 'peak heap (MB)',
    finsheet: peak[0],
    hyperformula: peak[1],
    target: workload.extra ? '—' : '≤ HyperFormula',
    pass: workload.extra === true || peak[0] <= peak[1],
  })
  table.push({ workload: workload.name, metric: 'retained heap (MB)', finsheet: retained[0], hyperformula: retained[1], target: '—', pass: true })
}

const format = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2))
const header = ['workload', 'metric', 'Finsheet', 'HyperFormula', 'HF / Finsheet', 'target', 'pass']
const lines = table.map((row) => [
  row.workload,
  row.metric,
  format(row.finsheet),
  format(row.hyperformula),
  `${(row.hyperformula / row.finsheet).toFixed(1)}×`,
  row.target,
  row.pass ? 'yes' : 'NO',
])
const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i].length)))
const printLine = (cells: string[]) => '| ' + cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ') + ' |'
const load = loadavg().map((value) => value.toFixed(1)).join(', ')
console.log(`\nFormula engine benchmark — medians of ${runs} runs, Node ${process.version}, ${cpus().length} CPUs, load average at start ${loadAtStart} (now ${load})\n`)
console.log(printLine(header))
console.log('|' + widths.map((width) => '-'.repeat(width + 2)).join('|') + '|')
for (const line of lines) console.log(printLine(line))
const failed = table.filter((row) => !row.pass).length
console.log(`\n${table.length - failed} of ${table.length} rows meet their target${allAgree ? '; the engines agree on every probe cell.' : '; THE ENGINES DISAGREE (see above).'}`)

/**
 * A what-if data table (HyperFormula has none, so Finsheet alone): a 5 × 5 two-variable table over a
 * model of 2,000 formulas that all depend on its two inputs, so that each of the 25 values tried
 * recalculates the whole model. Measured: the load with the table's first calculation, and an edit of
 * a model input (the model, then the table), each beside the same model without the table.
 */
function dataTableModel(withTable: boolean): CellUpdate[] {
  const cells: CellUpdate[] = [
    { sheet: 'Sheet1', address: 'Y1', input: 0.03 },
    { sheet: 'Sheet1', address: 'Y2', input: 0.08 },
    { sheet: 'Sheet1', address: 'Y3', input: 1 },
  ]
  for (let i = 1; i <= 400; i++) {
    cells.push(
      { sheet: 'Sheet1', address: `A${i}`, input: `=${i}*$Y$3` },
      { sheet: 'Sheet1', address: `B${i}`, input: `=A${i}*(1+$Y$1)^A${i}` },
      { sheet: 'Sheet1', address: `C${i}`, input: `=B${i}/(1+$Y$2)^A${i}` },
      { sheet: 'Sheet1', address: `D${i}`, input: i === 1 ? '=C1' : `=D${i - 1}+C${i}` },
      { sheet: 'Sheet1', address: `E${i}`, input: `=D${i}*0.5+B${i}*0.01` },
    )
  }
  if (withTable) {
    cells.push({ sheet: 'Sheet1', address: 'X4', input: '=E400' })
    for (let k = 0; k < 5; k++) {
      cells.push({ sheet: 'Sheet1', address: `${columnToLetters(24 + k)}4`, input: 0.01 + k * 0.01 })
      cells.push({ sheet: 'Sheet1', address: `X${5 + k}`, input: 0.06 + k * 0.01 })
    }
    cells.push({ sheet: 'Sheet1', address: 'Y5', input: '=TABLE(Y1,Y2)', arrayRange: 'Y5:AC9' })
  }
  return cells
}

function measureDataTable(withTable: boolean): { load: number; edit: number } {
  const loadStart = cpuMs()
  const engine = new Engine()
  engine.addSheet('Sheet1')
  engine.loadCells(dataTableModel(withTable))
  const load = cpuMs() - loadStart
  const edits: number[] = []
  for (let i = 0; i < EDITS_PER_RUN; i++) {
    const editStart = cpuMs()
    engine.setCell('Sheet1', 'Y3', 1 + (i + 1) / 100)
    edits.push(cpuMs() - editStart)
  }
  return { load, edit: median(edits) }
}

if (only === undefined || 'data table'.includes(only.toLowerCase())) {
  const plain: { load: number; edit: number }[] = []
  const tabled: { load: number; edit: number }[] = []
  for (let run = 0; run < runs + WARM_UP_RUNS; run++) {
    await settle()
    const a = measureDataTable(false)
    const b = measureDataTable(true)
    if (run < WARM_UP_RUNS) continue
    plain.push(a)
    tabled.push(b)
  }
  const rows = [
    ['load and first calculation (ms, CPU)', median(plain.map((m) => m.load)), median(tabled.map((m) => m.load))],
    ['recalculation after editing a model input (ms, CPU)', median(plain.map((m) => m.edit)), median(tabled.map((m) => m.edit))],
  ] as const
  console.log('\nWhat-if data table: a 5 × 5 two-variable table over 2,000 formulas that depend on both its inputs (Finsheet only)\n')
  console.log('| metric | model alone | model + table | table adds |')
  console.log('|---|---|---|---|')
  for (const [metric, alone, withTable] of rows) console.log(`| ${metric} | ${format(alone)} | ${format(withTable)} | ${format(withTable - alone)} |`)
}
/**
 * What a sheet of numbers keeps per cell, measured in fresh processes (bench/sheet-heap.ts): the bytes
 * of every object a process holding KEPT_LARGE numbers keeps, less those of one holding KEPT_SMALL, per
 * number added, as medians of KEPT_PROCESSES processes each; the same for a plain array of the numbers;
 * the resolution (the spread of the processes' totals, per number added); and, beside it, the heapUsed
 * difference of two such sheets built in this process.
 */
const KEPT_SMALL = 100_000
const KEPT_LARGE = 2_100_000
const KEPT_PROCESSES = 3

function keptPerCell(): { sheet: number; array: number; resolution: number; heapUsed: number } {
  const script = new URL('./sheet-heap.ts', import.meta.url).pathname
  const bytesOf = (kind: 'sheet' | 'array', cells: number): number[] =>
    Array.from({ length: KEPT_PROCESSES }, () => {
      const child = spawnSync(process.execPath, [...process.execArgv, script, kind, String(cells)], { encoding: 'utf8', maxBuffer: 1024 * 1024 })
      if (child.status !== 0) throw new Error(`sheet-heap.ts ${kind} ${cells} failed: ${child.stderr}`)
      return (JSON.parse(child.stdout) as { bytes: number }).bytes
    })
  const added = KEPT_LARGE - KEPT_SMALL
  const spread = (values: number[]) => Math.max(...values) - Math.min(...values)
  const perCell = (kind: 'sheet' | 'array') => {
    const small = bytesOf(kind, KEPT_SMALL)
    const large = bytesOf(kind, KEPT_LARGE)
    return { perCell: (median(large) - median(small)) / added, spread: (spread(small) + spread(large)) / added }
  }
  const sheet = perCell('sheet')
  const array = perCell('array')
  const sheetOf = (cells: number): Engine => {
    const engine = new Engine()
    engine.addSheet('Sheet1')
    engine.loadSheet('Sheet1', Array.from({ length: cells }, (_, i) => [i + 0.5]))
    return engine
  }
  gc!()
  const before = process.memoryUsage().heapUsed
  const small = sheetOf(KEPT_SMALL)
  gc!()
  const middle = process.memoryUsage().heapUsed
  const large = sheetOf(KEPT_LARGE)
  gc!()
  const after = process.memoryUsage().heapUsed
  if (small.getValue('Sheet1', 'A1') !== 0.5 || large.getValue('Sheet1', 'A1') !== 0.5) throw new Error('The sheets of numbers read back wrong')
  const heapUsed = (after - middle - (middle - before)) / added
  return { sheet: sheet.perCell, array: array.perCell, resolution: Math.max(sheet.spread, array.spread), heapUsed }
}

/**
 * The engine's two load paths on the four workloads: `loadSheet` (opening a workbook: no change
 * list) and `setCells` (a large paste or an import batch: one batch, one recalculation, the change list
 * returned), build plus first evaluation in CPU time, medians of --runs fresh engines after two
 * unmeasured ones; target: setCells within 1.5× of loadSheet. Then 100,000 plain numbers loaded and
 * summed (target under 20 ms), and the heap a sheet of numbers keeps per cell added (see keptPerCell)
 * beside the 8 bytes of the number it stores.
 */
const LOAD_PATH_RATIO = 1.5
const SUM_TARGET_MS = 20

function updatesOf(rows: Input[][]): CellUpdate[] {
  const updates: CellUpdate[] = []
  for (let r = 0; r < rows.length; r++) {
    for (let c = 0; c < rows[r].length; c++) updates.push({ sheet: 'Sheet1', address: `${columnToLetters(c)}${r + 1}`, input: rows[r][c] })
  }
  return updates
}

function loadPathTime(build: () => void): number {
  const start = cpuMs()
  build()
  return cpuMs() - start
}

const loadPathWorkloads = [chains, prefixSums, bigSum, financialGrid]
  .map((make) => make())
  .filter((workload) => only === undefined || workload.name.toLowerCase().includes(only.toLowerCase()) || only === 'load paths')
let loadPathFailures = 0
if (loadPathWorkloads.length > 0) {
  console.log(`\nLoad paths: setCells beside loadSheet, build + first evaluation (ms, CPU), medians of ${runs} runs (Finsheet only)\n`)
  console.log('| workload | loadSheet | setCells | setCells / loadSheet | target | pass |')
  console.log('|---|---|---|---|---|---|')
  for (const workload of loadPathWorkloads) {
    const updates = updatesOf(workload.rows)
    const viaLoad: number[] = []
    const viaSet: number[] = []
    for (let run = 0; run < runs + WARM_UP_RUNS; run++) {
      await settle()
      const load = loadPathTime(() => {
        const engine = new Engine()
        engine.addSheet('Sheet1')
        engine.loadSheet('Sheet1', workload.rows)
      })
      await settle()
      const set = loadPathTime(() => {
        const engine = new Engine()
        engine.addSheet('Sheet1')
        engine.setCells(updates)
      })
      if (run < WARM_UP_RUNS) continue
      viaLoad.push(load)
      viaSet.push(set)
    }
    const ratio = median(viaSet) / median(viaLoad)
    const pass = ratio <= LOAD_PATH_RATIO
    if (!pass) loadPathFailures++
    console.log(`| ${workload.name} | ${format(median(viaLoad))} | ${format(median(viaSet))} | ${ratio.toFixed(2)}× | ≤ ${LOAD_PATH_RATIO}× | ${pass ? 'yes' : 'NO'} |`)
  }

  // 100,000 plain numbers under one SUM, loaded and summed.
  const numbers: Input[][] = []
  for (let i = 1; i <= 100_000; i++) numbers.push([i])
  const summed: number[] = []
  for (let run = 0; run < runs + WARM_UP_RUNS; run++) {
    await settle()
    const start = cpuMs()
    const summing = new Engine()
    summing.addSheet('Sheet1')
    summing.loadSheet('Sheet1', numbers)
    summing.setCell('Sheet1', 'B1', '=SUM(A1:A100000)')
    const time = cpuMs() - start
    if (summing.getValue('Sheet1', 'B1') !== 5_000_050_000) throw new Error('The sum of 100,000 numbers is wrong')
    if (run >= WARM_UP_RUNS) summed.push(time)
  }
  const sumPass = median(summed) < SUM_TARGET_MS
  if (!sumPass) loadPathFailures++
  console.log(`| 100,000 numbers loaded, then =SUM over them (ms, CPU) | ${format(median(summed))} | — | — | < ${SUM_TARGET_MS} ms | ${sumPass ? 'yes' : 'NO'} |`)

  const kept = keptPerCell()
  // No more than the number it stores: within what the measure can tell apart from its 8 bytes.
  const heapPass = kept.sheet - 8 <= kept.resolution
  if (!heapPass) loadPathFailures++
  console.log(
    `| heap a sheet of numbers keeps per cell: objects kept by a process with ${KEPT_LARGE.toLocaleString('en-US')} numbers less one with ${KEPT_SMALL.toLocaleString('en-US')}, per cell added, from heap snapshots, medians of ${KEPT_PROCESSES} fresh processes (bytes) | ${kept.sheet.toFixed(3)} ± ${kept.resolution.toFixed(3)} | — | — | ≤ 8, the number (a plain array, measured alike: ${kept.array.toFixed(3)}) | ${heapPass ? 'yes' : 'NO'} |`,
  )
  console.log(
    `| the same by heapUsed in this process (also counts code compiled meanwhile and the engine's fixed part as it varies) | ${format(kept.heapUsed)} | — | — | — | — |`,
  )
}

process.exitCode = failed > 0 || !allAgree || loadPathFailures > 0 ? 1 : 0
