/**
 * The relevance set: formula queries and cell queries written as analysts ask them, each with the
 * function or row it must find in the top three, run with the default (offline) embedder on the
 * embedded vector store. The suite prints the pass rates and every miss.
 */
import { functionCatalogue } from '@finsheet/formula'
import { createSqliteDocumentStore, SqliteVectorStore } from '@finsheet/platform'
import { beforeAll, describe, expect, it } from 'vitest'
import { LexicalEmbedder } from '../embeddings/lexical-embedder.js'
import { CellSearch } from '../search/cell-search.js'
import { FormulaSearch } from '../search/formula-search.js'
import { SheetModel } from '../workbooks/sheet-model.js'
import { CELL_QUERIES } from './cell-queries.js'
import { FORMULA_QUERIES } from './formula-queries.js'
import { MODEL_WORKBOOKS } from './model-workbooks.js'

const TOP = 3
const REQUIRED_PASS_RATE = 0.9

describe('relevance with the default embedder', () => {
  const embedder = new LexicalEmbedder()
  let formulas: FormulaSearch
  let cells: CellSearch

  beforeAll(async () => {
    formulas = new FormulaSearch(new SqliteVectorStore(':memory:'), embedder, functionCatalogue())
    await formulas.index()
    cells = new CellSearch(new SqliteVectorStore(':memory:'), embedder, await createSqliteDocumentStore({ path: ':memory:' }))
    await cells.start()
    for (const workbook of MODEL_WORKBOOKS) await cells.index(workbook, 'analyst')
  })

  it(`finds the function in the top ${TOP} for at least 90% of ${FORMULA_QUERIES.length} formula queries`, async () => {
    expect(FORMULA_QUERIES.length).toBeGreaterThanOrEqual(60)
    const misses: string[] = []
    for (const { query, expect: wanted } of FORMULA_QUERIES) {
      const top = (await formulas.search(query, TOP)).map((match) => match.name)
      if (!top.some((name) => wanted.includes(name))) misses.push(`"${query}": wanted ${wanted.join(' or ')}, got ${top.join(', ')}`)
    }
    const rate = 1 - misses.length / FORMULA_QUERIES.length
    console.log(`formula queries: ${FORMULA_QUERIES.length - misses.length}/${FORMULA_QUERIES.length} in the top ${TOP} (${(rate * 100).toFixed(1)}%)${misses.map((miss) => `\n  miss ${miss}`).join('')}`)
    expect(rate).toBeGreaterThanOrEqual(REQUIRED_PASS_RATE)
  })

  it(`finds the row in the top ${TOP} for at least 90% of ${CELL_QUERIES.length} cell queries`, async () => {
    expect(CELL_QUERIES.length).toBeGreaterThanOrEqual(30)
    const misses: string[] = []
    for (const wanted of CELL_QUERIES) {
      const workbook = MODEL_WORKBOOKS.find((candidate) => candidate.workbookId === wanted.workbookId)!
      const sheet = new SheetModel(workbook.sheets.find((candidate) => candidate.name === wanted.sheet)!)
      const row = sheet.cells.find((cell) => cell.value === wanted.row)!.row
      const top = await cells.search(wanted.query, 'analyst', { limit: TOP, workbookId: wanted.withinWorkbook ? wanted.workbookId : undefined })
      const found = top.some(
        (match) =>
          match.workbookId === wanted.workbookId &&
          match.sheet === wanted.sheet &&
          Number(match.address.replace(/^[A-Z]+/, '')) - 1 === row &&
          (wanted.column === undefined || match.header === wanted.column),
      )
      if (!found) misses.push(`"${wanted.query}": wanted ${wanted.sheet}!${wanted.row}${wanted.column ? ` ${wanted.column}` : ''}, got ${top.map((match) => `${match.sheet}!${match.address} ${match.label}`).join('; ')}`)
    }
    const rate = 1 - misses.length / CELL_QUERIES.length
    console.log(`cell queries: ${CELL_QUERIES.length - misses.length}/${CELL_QUERIES.length} in the top ${TOP} (${(rate * 100).toFixed(1)}%)${misses.map((miss) => `\n  miss ${miss}`).join('')}`)
    expect(rate).toBeGreaterThanOrEqual(REQUIRED_PASS_RATE)
  })

  it("ranks a function name typed exactly first, whatever its case, and answers nothing of another owner's cells", async () => {
    for (const name of ['PMT', 'xlookup', 'Sumifs', '=npv', 'IF']) expect((await formulas.search(name, 1))[0].name).toBe(name.replace('=', '').toUpperCase())
    expect(await cells.search('free cash flow', 'someone-else', { limit: 5 })).toEqual([])
  })
})
