/**
 * Excel as the oracle (issue 3, proof 1): every workbook of shared/oracle/ironcalc is loaded, recalculated
 * by our engine and compared cell by cell with the values Excel cached. Prints a per-workbook table and
 * writes the results to test-output/oracle.json.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { findWorkbooks, formatTable, isFullMatch, runWorkbook } from './run-oracle.js'
import type { WorkbookResult } from './run-oracle.js'

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url))
const oracleRoot = fileURLToPath(new URL('../../../shared/oracle/ironcalc/', import.meta.url))

/** Raised as more workbooks match; the issue's target is 110 of 162. */
const MINIMUM_FULLY_MATCHING = 158

/**
 * Workbooks whose functions are all on the issue's list but that do not match yet, because the
 * functions they need are still being written. The list only shrinks; the issue is done when it is empty.
 */
const LISTED_NOT_YET_MATCHING = new Set<string>([
  'FINANCIAL/IRR.xlsx',
])

describe('Excel oracle workbooks', () => {
  const results: WorkbookResult[] = []

  beforeAll(async () => {
    if (!existsSync(oracleRoot)) throw new Error(`The oracle workbooks are missing: expected them in ${oracleRoot}`)
    for (const path of findWorkbooks(oracleRoot)) results.push(await runWorkbook(oracleRoot, path))
    console.log(formatTable(results))
    const outputDir = `${repositoryRoot}test-output`
    mkdirSync(outputDir, { recursive: true })
    writeFileSync(`${outputDir}/oracle.json`, JSON.stringify(results, null, 2) + '\n')
  }, 600_000)

  it('finds the workbooks', () => {
    expect(results.length).toBe(162)
  })

  it("matches in every cell each workbook whose functions are all on the issue's list", () => {
    const differing = results.filter(
      (result) => result.onIssueList && !isFullMatch(result) && !LISTED_NOT_YET_MATCHING.has(result.file),
    )
    const nowMatching = results.filter((result) => LISTED_NOT_YET_MATCHING.has(result.file) && isFullMatch(result))
    if (nowMatching.length > 0) console.log(`Now matching, remove from LISTED_NOT_YET_MATCHING: ${nowMatching.map((r) => r.file).join(', ')}`)
    expect(differing.map((result) => ({ file: result.file, mismatches: result.mismatches.slice(0, 5), loadError: result.loadError }))).toEqual([])
  })

  it(`matches fully at least ${MINIMUM_FULLY_MATCHING} workbooks`, () => {
    expect(results.filter(isFullMatch).length).toBeGreaterThanOrEqual(MINIMUM_FULLY_MATCHING)
  })
})
