// Storage benchmarks for the embedded adapters: bulk cell writes, sheet reads, a revision
// compare-and-set, vector search and job throughput. Prints a table; asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSqliteDocumentStore } from '../src/documents/sqlite-document-store.js'
import { SqliteJobQueues } from '../src/jobs/sqlite-job-queue.js'
import { SqliteVectorStore } from '../src/vectors/sqlite-vector-store.js'

interface Cell {
  id: string
  workbookId: string
  sheet: string
  address: string
  row: number
  col: number
  input: string | number
  value: string | number
  format: string | null
}

const rows: Array<Record<string, string | number>> = []
const time = async <T>(label: string, count: number, work: () => Promise<T> | T): Promise<T> => {
  const started = performance.now()
  const result = await work()
  const ms = performance.now() - started
  rows.push({ operation: label, items: count, 'total ms': Math.round(ms), 'per second': Math.round((count / ms) * 1000) })
  return result
}

const dir = mkdtempSync(join(tmpdir(), 'finsheet-bench-'))
try {
  const store = createSqliteDocumentStore({ path: join(dir, 'spreadsheet.sqlite') })
  const cells = store.collection<Cell>('cells', { indexes: [{ fields: ['workbookId', 'sheet', 'row'] }] })
  const workbooks = store.collection<{ id: string; revision: number }>('workbooks')
  await workbooks.put({ id: 'wb', revision: 0 })

  const columns = 20
  const total = 200_000
  const batch: Cell[] = []
  for (let i = 0; i < total; i++) {
    const row = Math.floor(i / columns) + 1
    const col = i % columns
    const sheet = `Sheet${(row % 4) + 1}`
    const address = `${String.fromCharCode(65 + col)}${row}`
    batch.push({ id: `wb!${sheet}!${address}`, workbookId: 'wb', sheet, address, row, col, input: col === 0 ? `=B${row}*2` : row * col, value: row * col, format: col === 3 ? '0.00%' : null })
  }
  await time('putMany 200,000 cells (one transaction)', total, () => cells.putMany(batch))
  await time('putMany 200,000 cells again (replace)', total, () => cells.putMany(batch))
  await time('transaction: 5,000 cells + revision compare-and-set', 5000, () =>
    store.transaction(async (tx) => {
      await tx.collection<Cell>('cells').putMany(batch.slice(0, 5000))
      const changed = await tx.collection<{ id: string; revision: number }>('workbooks').update({ id: 'wb', revision: 0 }, { revision: 1 })
      if (changed !== 1) throw new Error('compare-and-set lost')
    }),
  )
  const sheet = await time('find one sheet (50,000 cells)', 50_000, () => cells.find({ workbookId: 'wb', sheet: 'Sheet1' }))
  if (sheet.length !== 50_000) throw new Error(`expected 50,000 cells, read ${sheet.length}`)
  await time('find 100 rows of a sheet, sorted', 2000, () => cells.find({ workbookId: 'wb', sheet: 'Sheet2', row: { $gte: 1000, $lt: 1400 } }, { sort: [['row', 1], ['col', 1]] }))
  await time('count a workbook', total, () => cells.count({ workbookId: 'wb' }))
  const singles = 1000
  await time('1,000 single-cell puts (each its own commit)', singles, async () => {
    for (let i = 0; i < singles; i++) await cells.put({ ...batch[i], value: i })
  })
  await time('deleteMany a sheet', 50_000, () => cells.deleteMany({ workbookId: 'wb', sheet: 'Sheet3' }))
  await store.close()

  const vectors = new SqliteVectorStore(join(dir, 'vectors.sqlite'))
  await vectors.ensureCollection('formulas', 384)
  const points = Array.from({ length: 10_000 }, (_, i) => ({
    id: `p${i}`,
    vector: Array.from({ length: 384 }, (_, d) => Math.sin(i * 0.37 + d * 0.11)),
    payload: { workbookId: `wb${i % 10}` },
  }))
  await time('upsert 10,000 vectors of 384 dimensions', points.length, () => vectors.upsert('formulas', points))
  await time('search top 20 of 10,000 (first, loads cache)', 1, () => vectors.search('formulas', points[5].vector, { limit: 20 }))
  const queries = 100
  await time('search top 20 of 10,000 (100 queries)', queries, async () => {
    for (let q = 0; q < queries; q++) await vectors.search('formulas', points[q].vector, { limit: 20, filter: q % 2 ? { workbookId: 'wb3' } : undefined })
  })
  await vectors.close()

  const queues = new SqliteJobQueues({ path: join(dir, 'jobs.sqlite'), pollIntervalMs: 20 })
  const queue = queues.queue('bench.echo')
  const jobs = 500
  await time('add and run 500 jobs (concurrency 4)', jobs, async () => {
    const worker = queue.process(async (job) => job.data, { concurrency: 4 })
    const ids = await Promise.all(Array.from({ length: jobs }, (_, i) => queue.add('echo', { i })))
    for (const { id } of ids) await queue.waitUntilFinished(id, 60_000)
    await worker.close()
  })
  await queues.close()

  console.log('Embedded storage adapters (SQLite, WAL, synchronous=FULL)')
  console.table(rows)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
