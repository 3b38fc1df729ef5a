/**
 * The vector search benchmark on the embedded index (SQLite-persisted, searched in process): 100,000
 * indexed cells from generated models (20 workbooks of labelled rows across years, as models are laid
 * out) indexed with the default embedder, then searched by the relevance set's queries: index build
 * throughput, search latency p50 and p99 (all of a user's workbooks, and one workbook), the time to
 * reload the index from disk at start, and memory. Target: p99 under 20 ms at 100,000 cells.
 *
 *   npm run bench:vectors
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Cell, CellsResponse } from '@finsheet/contracts'
import { columnToLetters } from '@finsheet/formula'
import { createSqliteDocumentStore, SqliteVectorStore } from '@finsheet/platform'
import { CellSearch, LexicalEmbedder } from '@finsheet/vectordb-service'
import { CELL_QUERIES } from '../../services/vectordb/src/relevance/cell-queries.js'
import { FORMULA_QUERIES } from '../../services/vectordb/src/relevance/formula-queries.js'

const TARGET_CELLS = 100_000
const TARGET_P99_MS = 20
const WORKBOOKS = 20
const YEARS = 12

const LINE_ITEMS = [
  'Revenue', 'Net sales', 'Cost of goods sold', 'Gross profit', 'SG&A', 'Research and development', 'Marketing spend', 'EBITDA', 'EBITDA margin',
  'Depreciation & amortisation', 'EBIT', 'Interest expense', 'Pre-tax income', 'Income tax', 'Net income', 'Capital expenditures', 'Change in NWC',
  'Unlevered free cash flow', 'Discount factor', 'PV of free cash flow', 'Cash and equivalents', 'Accounts receivable', 'Inventory', 'Accounts payable',
  'Total assets', 'Long-term debt', 'Retained earnings', 'Headcount', 'Salaries and benefits', 'Customers', 'Monthly churn rate', 'ARR', 'MRR', 'ARPU',
  'Customer acquisition cost', 'Dividends paid', 'Shares outstanding', 'Earnings per share', 'Days sales outstanding', 'Days payable outstanding',
]
const SEGMENTS = ['North America', 'Europe', 'Asia Pacific', 'Latin America', 'Enterprise', 'SMB', 'Consumer', 'Wholesale', 'Retail', 'Online', 'Services', 'Hardware']

/** A model of `rows` labelled rows across YEARS years, sheets of 60 rows. */
function generatedWorkbook(index: number, rows: number): CellsResponse['workbook'] {
  const sheets: CellsResponse['workbook']['sheets'] = []
  for (let start = 0; start < rows; start += 60) {
    const cells: Record<string, Cell> = {}
    const put = (row: number, col: number, value: string | number, formula: string | null = null) => {
      cells[`${columnToLetters(col)}${row + 1}`] = { value, formula, input: formula ?? String(value), type: typeof value === 'number' ? 'number' : 'text', format: null, style: null, display: String(value) }
    }
    for (let year = 0; year < YEARS; year++) put(0, year + 1, 2020 + year)
    for (let r = 0; r < Math.min(60, rows - start); r++) {
      const n = start + r
      put(r + 1, 0, `${LINE_ITEMS[n % LINE_ITEMS.length]} - ${SEGMENTS[Math.floor(n / LINE_ITEMS.length) % SEGMENTS.length]}`)
      for (let year = 0; year < YEARS; year++) put(r + 1, year + 1, 1000 + n * 7 + year * 13, year === 0 ? null : `=${columnToLetters(year)}${r + 2}*1.05`)
    }
    sheets.push({ name: `Sheet${sheets.length + 1}`, cells, rowCount: 61, columnCount: YEARS + 1, columnWidths: {}, merges: [] })
  }
  return { workbookId: `bench-${index}`, name: `Generated model ${index}`, revision: 1, sheets, sheetOrder: sheets.map((s) => s.name), totalCells: rows * (YEARS + 1), totalSheets: sheets.length }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`

const dir = mkdtempSync(join(tmpdir(), 'finsheet-vectors-bench-'))
try {
  const path = join(dir, 'vectors.sqlite')
  const embedder = new LexicalEmbedder()
  const documents = await createSqliteDocumentStore({ path: join(dir, 'vectordb.sqlite') })
  let vectors = new SqliteVectorStore(path)
  let search = new CellSearch(vectors, embedder, documents)
  await search.start()
  // As the service does at start: the index lives in memory from then on, and grows as it is written.
  await vectors.preload(search.collection)

  // Rows per workbook so that the points (a label, and one per figure) make TARGET_CELLS in all.
  const rowsPerWorkbook = Math.ceil(TARGET_CELLS / WORKBOOKS / (YEARS + 1))
  const workbooks = Array.from({ length: WORKBOOKS }, (_, i) => generatedWorkbook(i, rowsPerWorkbook))
  global.gc?.()
  const before = process.memoryUsage()
  const started = performance.now()
  let points = 0
  for (const workbook of workbooks) points += await search.index(workbook, 'analyst')
  const indexMs = performance.now() - started
  global.gc?.()
  const memory = process.memoryUsage()

  const queries = [...CELL_QUERIES.map((q) => q.query), ...FORMULA_QUERIES.map((q) => q.query)]
  // Wall time, and the CPU time the search itself used: on a machine shared with other work the
  // wall time's tail is mostly waiting for a core.
  const time = async (options: { workbookId?: string }) => {
    const wall: number[] = []
    const cpu: number[] = []
    for (let round = 0; round < 4; round++) {
      for (const query of queries) {
        const cpuAt = process.cpuUsage()
        const t = performance.now()
        await search.search(query, 'analyst', { limit: 20, ...options })
        wall.push(performance.now() - t)
        const used = process.cpuUsage(cpuAt)
        cpu.push((used.user + used.system) / 1000)
      }
    }
    return { wall: wall.sort((a, b) => a - b), cpu: cpu.sort((a, b) => a - b) }
  }
  // Warm both paths (all workbooks, one workbook) before timing either.
  await time({})
  await time({ workbookId: 'bench-7' })
  const all = await time({})
  const one = await time({ workbookId: 'bench-7' })

  await vectors.close()
  const reloadStarted = performance.now()
  vectors = new SqliteVectorStore(path)
  search = new CellSearch(vectors, embedder, documents)
  await search.start()
  await vectors.preload(search.collection)
  const reloadMs = performance.now() - reloadStarted
  const reloaded = await vectors.count(search.collection)

  const worstP99 = (clock: 'wall' | 'cpu') => Math.max(percentile(all[clock], 99), percentile(one[clock], 99))
  const rows: Array<[string, string]> = [
    ['indexed points (labels and cells)', points.toLocaleString('en-US')],
    ['index build', `${(indexMs / 1000).toFixed(1)} s, ${Math.round(points / (indexMs / 1000)).toLocaleString('en-US')} points/s`],
    [`search, all ${WORKBOOKS} workbooks: p50 / p99 (wall)`, `${percentile(all.wall, 50).toFixed(2)} ms / ${percentile(all.wall, 99).toFixed(2)} ms`],
    [`search, all ${WORKBOOKS} workbooks: p50 / p99 (CPU)`, `${percentile(all.cpu, 50).toFixed(2)} ms / ${percentile(all.cpu, 99).toFixed(2)} ms`],
    ['search, one workbook: p50 / p99 (wall)', `${percentile(one.wall, 50).toFixed(2)} ms / ${percentile(one.wall, 99).toFixed(2)} ms`],
    ['search, one workbook: p50 / p99 (CPU)', `${percentile(one.cpu, 50).toFixed(2)} ms / ${percentile(one.cpu, 99).toFixed(2)} ms`],
    ['searches timed', `${all.wall.length} + ${one.wall.length} (${queries.length} queries, 4 rounds each)`],
    ['reload from disk at start', `${(reloadMs / 1000).toFixed(2)} s (${reloaded.toLocaleString('en-US')} points)`],
    // Posting lists and vectors are typed arrays, held outside the JavaScript heap.
    ['memory held by the index (heap + typed arrays)', mb(memory.heapUsed + memory.arrayBuffers - before.heapUsed - before.arrayBuffers)],
    ['process: heap / typed arrays / resident', `${mb(memory.heapUsed)} / ${mb(memory.arrayBuffers)} / ${mb(memory.rss)}`],
    ['on disk (SQLite)', mb(statSync(path).size)],
    // The verdict takes the slower of the two searches.
    [`p99 under ${TARGET_P99_MS} ms, both searches (wall / CPU)`, `${worstP99('wall') < TARGET_P99_MS ? 'yes' : 'NO'} / ${worstP99('cpu') < TARGET_P99_MS ? 'yes' : 'NO'}`],
  ]
  const width = Math.max(...rows.map(([name]) => name.length))
  console.log(`\nVector search on the embedded index, default embedder (${embedder.id}), load average ${loadavg()[0].toFixed(2)}\n`)
  console.log(`| ${'measure'.padEnd(width)} | result |`)
  console.log(`|${'-'.repeat(width + 2)}|--------|`)
  for (const [name, value] of rows) console.log(`| ${name.padEnd(width)} | ${value} |`)
  await vectors.close()
  await documents.close()
} finally {
  rmSync(dir, { recursive: true, force: true })
}
