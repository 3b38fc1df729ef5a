/**
 * The oracle workbooks of our own (tests/oracle/workbooks, built by build.ts from definitions.ts and
 * calculated by LibreOffice, with Excel's values where its documented rules differ): every formula
 * cell must match the saved value, as the shared oracle's Excel workbooks must.
 */
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { compareWithCachedValues, describeMismatch, loadWorkbookIntoEngine, readXlsx, valuesMatch } from '@finsheet/workbook'
import type { XlsxWorkbook } from '@finsheet/workbook'
import { ORACLE_WORKBOOKS } from './workbooks/definitions.js'

const folder = fileURLToPath(new URL('./workbooks/', import.meta.url))
const files = readdirSync(folder).filter((name) => name.endsWith('.xlsx')).sort()

/** The workbook as if never calculated: formulas without saved values. */
function withoutSavedValues(workbook: XlsxWorkbook): XlsxWorkbook {
  return {
    ...workbook,
    sheets: workbook.sheets.map((sheet) => ({
      ...sheet,
      cells: sheet.cells.map((cell) => (cell.formula !== undefined || cell.sharedFrom !== undefined ? { ...cell, value: null } : cell)),
    })),
  }
}

describe('oracle workbooks of our own', () => {
  it('has one file per definition', () => {
    expect(files).toEqual(ORACLE_WORKBOOKS.map((definition) => `${definition.name}.xlsx`).sort())
  })

  for (const file of files) {
    it(`${file} matches every saved value`, async () => {
      const loaded = loadWorkbookIntoEngine(await readXlsx(`${folder}${file}`))
      const report = compareWithCachedValues(loaded)
      expect(report.mismatches.map(describeMismatch)).toEqual([])
      expect(report.passed).toBeGreaterThan(0)
    })
  }
})

describe('circular models saved with iterative calculation on', () => {
  const circular = files.filter((file) => file.startsWith('circular-'))

  for (const file of circular) {
    it(`${file}: states Excel's iteration settings, and its saved values are kept as settled`, async () => {
      const workbook = await readXlsx(`${folder}${file}`)
      expect(workbook.calculation).toMatchObject({ iterate: true, maxIterations: 100, maxChange: 0.001 })
      const loaded = loadWorkbookIntoEngine(workbook)
      expect(loaded.engine.getCircularReferences()).toEqual([])
    })

    it(`${file}: calculated from nothing to the last digit, reaches LibreOffice's values`, async () => {
      const workbook = await readXlsx(`${folder}${file}`)
      const saved = loadWorkbookIntoEngine(workbook)
      const cold = loadWorkbookIntoEngine(withoutSavedValues(workbook), { calculation: { maxChange: 1e-13, maxIterations: 10_000 } })
      const differing = saved.formulaCells.filter((cell) => !valuesMatch(cold.engine.getValue(cell.sheet, cell.address), cell.cached))
      expect(differing.map((cell) => `${cell.sheet}!${cell.address}`)).toEqual([])
    })

    it(`${file}: from nothing with Excel's 0.001, stops close to the saved values but not on them`, async () => {
      // Why saved values are kept when settled: Excel's stopping rule leaves each value up to about
      // the maximum change away from where further passes would take it.
      const workbook = await readXlsx(`${folder}${file}`)
      const saved = loadWorkbookIntoEngine(workbook)
      const cold = loadWorkbookIntoEngine(withoutSavedValues(workbook))
      let differing = 0
      for (const cell of saved.formulaCells) {
        const ours = cold.engine.getValue(cell.sheet, cell.address)
        if (typeof ours !== 'number' || typeof cell.cached !== 'number') continue
        expect(Math.abs(ours - cell.cached)).toBeLessThan(0.01)
        if (!valuesMatch(ours, cell.cached)) differing++
      }
      expect(differing).toBeGreaterThan(0)
    })

    it(`${file}: with iteration turned off, keeps the saved values and reports the circular references`, async () => {
      const loaded = loadWorkbookIntoEngine(await readXlsx(`${folder}${file}`), { calculation: { iterate: false } })
      expect(compareWithCachedValues(loaded).failed).toBe(0)
      expect(loaded.engine.getCircularReferences().length).toBeGreaterThan(0)
    })
  }
})
