import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import JSZip from 'jszip'
import { afterAll, describe, expect, it } from 'vitest'
import { writeXlsx } from '../export/xlsx.js'
import { writeXlsxOffThread } from '../export/xlsx-off-thread.js'
import { readXlsx } from '../xlsx/read-xlsx.js'
import { readXlsxFile } from '../xlsx/stream-xlsx.js'
import { makeCircularWorkbook } from '../xlsx/test-workbook.js'
import { calculationAttributes, calculationFromAttributes, DEFAULT_CALCULATION, isDefaultCalculation } from './calculation.js'
import type { CalculationSettings } from './calculation.js'
import { WorkbookModel } from './workbook-model.js'

const dir = mkdtempSync(join(tmpdir(), 'finsheet-calculation-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const ITERATING: CalculationSettings = { iterate: true, maxIterations: 250, maxChange: 0.00001, mode: 'manual', fullCalcOnLoad: false }

describe('calculation settings from calcPr', () => {
  it("takes Excel's defaults for absent or unreadable attributes", () => {
    expect(calculationFromAttributes(undefined)).toEqual(DEFAULT_CALCULATION)
    expect(calculationFromAttributes({ iterate: 'banana', iterateCount: 'many', iterateDelta: '-1', calcMode: 'sometimes' })).toEqual(DEFAULT_CALCULATION)
  })

  it('reads both spellings of a flag and brings an iteration count inside 1 to 32,767', () => {
    expect(calculationFromAttributes({ iterate: 'true', fullCalcOnLoad: '1' })).toMatchObject({ iterate: true, fullCalcOnLoad: true })
    expect(calculationFromAttributes({ iterateCount: '0' }).maxIterations).toBe(1)
    expect(calculationFromAttributes({ iterateCount: '99999' }).maxIterations).toBe(32_767)
    expect(calculationFromAttributes({ iterateDelta: '1E-005' }).maxChange).toBe(0.00001)
  })

  it('writes only what differs from the defaults', () => {
    expect(calculationAttributes(DEFAULT_CALCULATION)).toEqual([])
    expect(calculationAttributes(ITERATING)).toEqual([
      ['calcMode', 'manual'],
      ['iterate', '1'],
      ['iterateCount', '250'],
      ['iterateDelta', '0.00001'],
    ])
    expect(isDefaultCalculation({ ...DEFAULT_CALCULATION })).toBe(true)
    expect(isDefaultCalculation(ITERATING)).toBe(false)
  })
})

describe('a workbook model keeps its calculation settings', () => {
  const source = (calculation?: CalculationSettings) => ({
    revision: 1,
    sheets: [{ id: 's1', name: 'Model', columnWidths: {}, merges: [] }],
    definedNames: [],
    charts: [],
    ...(calculation ? { calculation } : {}),
    cells: [
      { sheetId: 's1', address: 'A1', input: '=A1/2+1' },
      { sheetId: 's1', address: 'B1', input: '=A1*3' },
    ],
  })

  it('iterates with them, and its snapshot carries them only when they are not the defaults', () => {
    const model = WorkbookModel.build(source(ITERATING))
    expect(model.engine.getValue('Model', 'A1')).toBeCloseTo(2, 4)
    expect(model.snapshot('Book').calculation).toEqual(ITERATING)
    const plain = WorkbookModel.build(source())
    expect(plain.engine.getValue('Model', 'A1')).toBe(0)
    expect(plain.snapshot('Book')).not.toHaveProperty('calculation')
  })

  it('turns iteration on and off, recalculating the circular references', () => {
    const model = WorkbookModel.build(source())
    expect(model.engine.getCircularReferences()).toHaveLength(1)
    const changes = model.setCalculation({ iterate: true, maxChange: 1e-12 })
    expect(changes.map((change) => change.address)).toEqual(expect.arrayContaining(['A1', 'B1']))
    expect(model.engine.getValue('Model', 'B1')).toBeCloseTo(6, 10)
    expect(model.calculation).toMatchObject({ iterate: true, maxChange: 1e-12 })
    expect(model.setCalculation({ mode: 'manual' })).toEqual([])
    expect(() => model.setCalculation({ maxIterations: 0 })).toThrow(/maxIterations/)
    expect(model.calculation.maxIterations).toBe(100)
  })

  it('changes them by a command that one undo reverts, and refuses limits out of range', () => {
    const model = WorkbookModel.build(source())
    const applied = model.apply([{ type: 'set-calculation', iterate: true, maxIterations: 500, maxChange: 1e-12 }])
    expect(model.engine.getValue('Model', 'B1')).toBeCloseTo(6, 10)
    expect(model.engine.getCircularReferences()).toEqual([])
    expect(applied.engineChanges.map((change) => change.address)).toEqual(expect.arrayContaining(['A1', 'B1']))
    expect(model.calculation).toMatchObject({ iterate: true, maxIterations: 500, maxChange: 1e-12 })
    model.apply(applied.inverse)
    expect(model.calculation).toMatchObject({ iterate: false, maxIterations: 100, maxChange: 0.001 })
    expect(model.engine.getCircularReferences()).toHaveLength(1)
    for (const bad of [{ maxIterations: 0, maxChange: 0.001 }, { maxIterations: 32_768, maxChange: 0.001 }, { maxIterations: 1.5, maxChange: 0.001 }, { maxIterations: 100, maxChange: -1 }]) {
      expect(() => model.apply([{ type: 'set-calculation', iterate: true, ...bad }])).toThrow(/Maximum/)
      expect(model.calculation.iterate).toBe(false)
    }
  })

  it("follows the iteration its caller asks the engine for, over the workbook's own", () => {
    const model = WorkbookModel.build(source(), { engine: { iterative: { enabled: true } } })
    expect(model.calculation.iterate).toBe(true)
    expect(model.engine.getValue('Model', 'A1')).toBeCloseTo(2, 2)
    expect(WorkbookModel.build(source(ITERATING), { engine: { iterative: { enabled: false } } }).calculation).toMatchObject({ iterate: false, maxIterations: 250 })
  })

  it('survives a restored version and a rebuilt engine', () => {
    const model = WorkbookModel.build(source())
    model.replaceContents(WorkbookModel.build(source(ITERATING)).snapshot('Book'))
    expect(model.calculation).toEqual(ITERATING)
    expect(model.engine.getIterativeSettings().enabled).toBe(true)
    model.apply([{ type: 'add-sheet', name: 'Second', index: 0 }])
    model.apply([{ type: 'move-sheet', name: 'Second', index: 1 }])
    expect(model.engine.getIterativeSettings()).toEqual({ enabled: true, maxIterations: 250, maxChange: 0.00001 })
  })
})

describe('calculation settings through a file', () => {
  const snapshot = (calculation?: CalculationSettings) => ({
    ...WorkbookModel.build({
      revision: 1,
      sheets: [{ id: 's1', name: 'Model', columnWidths: {}, merges: [] }],
      definedNames: [],
      charts: [],
      ...(calculation ? { calculation } : {}),
      cells: [{ sheetId: 's1', address: 'A1', input: '=A1/2+1' }],
    }).snapshot('Book'),
  })

  it('are written as the calcPr of the export and read back by both readers', async () => {
    for (const write of [writeXlsx, writeXlsxOffThread]) {
      const bytes = await write(snapshot(ITERATING))
      const workbookXml = await (await JSZip.loadAsync(bytes)).file('xl/workbook.xml')!.async('string')
      expect(workbookXml).toMatch(/<calcPr calcId="\d+" calcMode="manual" iterate="1" iterateCount="250" iterateDelta="0.00001"\/>/)
      expect((await readXlsx(bytes)).calculation).toEqual(ITERATING)
      const path = join(dir, 'settings.xlsx')
      writeFileSync(path, bytes)
      expect((await readXlsxFile(path)).calculation).toEqual(ITERATING)
    }
  })

  it('leave the default calcPr alone when they are the defaults', async () => {
    const workbookXml = await (await JSZip.loadAsync(await writeXlsx(snapshot()))).file('xl/workbook.xml')!.async('string')
    expect(workbookXml).toMatch(/<calcPr calcId="\d+"\/>/)
  })

  it('are read by the streaming import from the file Excel saved', async () => {
    const path = join(dir, 'circular.xlsx')
    writeFileSync(path, await makeCircularWorkbook({ calcPr: '<calcPr calcId="191029" iterate="1" iterateCount="7" fullCalcOnLoad="1"/>' }))
    expect((await readXlsxFile(path)).calculation).toEqual({ iterate: true, maxIterations: 7, maxChange: 0.001, mode: 'auto', fullCalcOnLoad: true })
  })
})
