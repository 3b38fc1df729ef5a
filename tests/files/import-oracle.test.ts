/**
 * The import path against Excel's own files: every oracle workbook is read by the streaming importer,
 * turned into the spreadsheet service's import inputs and recalculated for the import report, and
 * must agree with Excel's cached values wherever the engine's file loader (read-xlsx) agrees with them.
 *
 * One difference is known and counted apart: formulas saved before dynamic arrays are calculated with
 * implicit intersection by Excel and by the file loader, but the spreadsheet service's import takes
 * inputs only and calculates them as dynamic-array formulas, which spill. A mismatch counts as that
 * difference when the same inputs calculated as legacy formulas give Excel's value.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { Engine, errorFromText, type CellUpdate } from '@finsheet/formula'
import { compareWithCachedValues, loadXlsxIntoEngine, readXlsxFile, valuesMatch, type ImportedWorkbook } from '@finsheet/workbook'
import { buildImportReport, prepareImport } from '@finsheet/files-service'

const oracleRoot = fileURLToPath(new URL('../../../shared/oracle/ironcalc/', import.meta.url))

function workbooks(): string[] {
  if (!existsSync(oracleRoot)) return []
  const found: string[] = []
  for (const folder of readdirSync(oracleRoot).sort()) {
    const path = join(oracleRoot, folder)
    if (!statSync(path).isDirectory()) continue
    for (const file of readdirSync(path).sort()) if (file.endsWith('.xlsx')) found.push(join(folder, file))
  }
  return found
}

/** The workbook's import inputs calculated with formulas as legacy (implicit intersection) formulas. */
function legacyEngine(workbook: ImportedWorkbook): Engine {
  const prepared = prepareImport(workbook, 'legacy')
  const engine = new Engine()
  for (const sheet of workbook.sheets) engine.addSheet(sheet.name)
  for (const name of workbook.definedNames) {
    try {
      engine.defineName(name.name, '=' + name.formula, name.sheet)
    } catch {
      // as the import report does
    }
  }
  const updates: CellUpdate[] = []
  for (const sheet of workbook.sheets) {
    const arrays = new Set(sheet.cells.filter((cell) => cell.arrayRange).map((cell) => cell.address))
    for (const cell of prepared.cells(sheet)) {
      if (cell.input === null) continue
      const formula = typeof cell.input === 'string' && cell.input.startsWith('=')
      updates.push({ sheet: sheet.name, address: cell.address, input: cell.input, ...(formula && !arrays.has(cell.address) ? { legacy: true } : {}) })
    }
  }
  engine.loadCells(updates)
  return engine
}

describe('oracle workbooks through the import', () => {
  it('agree with Excel wherever the file loader does, legacy implicit intersection apart', { timeout: 600_000 }, async () => {
    const files = workbooks()
    expect(files.length, `the oracle workbooks are missing from ${oracleRoot}`).toBeGreaterThan(100)
    const worse: string[] = []
    let spilled = 0
    for (const file of files) {
      const path = join(oracleRoot, file)
      const workbook = await readXlsxFile(path)
      const report = buildImportReport(workbook, prepareImport(workbook, file))
      expect(report.mismatches.length).toBe(Math.min(report.mismatchCount, 1000))
      if (report.mismatchCount === 0) continue
      const loader = compareWithCachedValues(await loadXlsxIntoEngine(path))
      const loaderFails = new Set(loader.mismatches.map((mismatch) => `${mismatch.sheet}!${mismatch.address}`))
      const unexplained = report.mismatches.filter((mismatch) => !loaderFails.has(`${mismatch.sheet}!${mismatch.address}`))
      if (unexplained.length === 0) continue
      const legacy = legacyEngine(workbook)
      for (const mismatch of unexplained) {
        if (valuesMatch(legacy.getValue(mismatch.sheet, mismatch.address), cachedScalar(mismatch.cached))) {
          spilled++
          continue
        }
        worse.push(`${file} ${mismatch.sheet}!${mismatch.address} ${mismatch.formula}: ours ${String(mismatch.ours)}, Excel ${String(mismatch.cached)}`)
      }
    }
    console.log(`${files.length} oracle workbooks imported; ${spilled} legacy formulas differ under dynamic-array calculation`)
    expect(worse).toEqual([])
  })
})

/** A cached value of the report (errors as their code) as the engine's value. */
function cachedScalar(value: string | number | boolean | null) {
  return typeof value === 'string' && value.startsWith('#') ? (errorFromText(value) ?? value) : value
}
