import { describe, expect, it } from 'vitest'
import type { WorkbookCommand } from '@finsheet/contracts'
import { CommandError } from './command-checks.js'
import { WorkbookModel } from './workbook-model.js'

const model = () =>
  new WorkbookModel({
    sheets: [
      { id: 's1', name: 'Sheet1', columnWidths: {}, merges: [] },
      { id: 's2', name: 'Sheet2', columnWidths: {}, merges: [] },
    ],
  })

const note = (text: string, author?: string) => ({ text, ...(author ? { author } : {}) })

describe('notes and links', () => {
  it('adds a note with its author and undo removes it exactly', () => {
    const workbook = model()
    const { inverse } = workbook.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', notes: [{ address: 'b2', note: note('Check the tax rate', 'Ann') }] }])
    expect(workbook.sheets[0].view).toEqual({ notes: { B2: { text: 'Check the tax rate', author: 'Ann' } } })
    workbook.apply(inverse)
    expect(workbook.sheets[0].view).toBeUndefined()
  })

  it('edits a note and undo restores the old text', () => {
    const workbook = model()
    workbook.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', notes: [{ address: 'A1', note: note('old') }] }])
    const { inverse } = workbook.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', notes: [{ address: 'A1', note: note('new') }, { address: 'A2', note: note('more') }] }])
    expect(workbook.sheets[0].view?.notes).toEqual({ A1: { text: 'new' }, A2: { text: 'more' } })
    workbook.apply(inverse)
    expect(workbook.sheets[0].view?.notes).toEqual({ A1: { text: 'old' } })
  })

  it('refuses an empty note and a javascript: link, writing nothing', () => {
    const workbook = model()
    expect(() => workbook.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', notes: [{ address: 'A1', note: note('  ') }] }])).toThrow(CommandError)
    expect(() => workbook.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', links: [{ address: 'A1', url: 'javascript:alert(1)' }] }])).toThrow(/web address/)
    expect(() => workbook.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', notes: [{ address: 'ZZZZ1', note: note('x') }] }])).toThrow(CommandError)
    expect(workbook.sheets[0].view).toBeUndefined()
  })

  it('a note follows its cell when rows and columns are inserted, and goes with a deleted row until undo', () => {
    const workbook = model()
    workbook.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', notes: [{ address: 'B2', note: note('n') }], links: [{ address: 'C5', url: 'https://example.com' }] }])
    workbook.apply([{ type: 'insert-rows', sheet: 'Sheet1', at: 0, count: 2 }])
    workbook.apply([{ type: 'insert-columns', sheet: 'Sheet1', at: 0, count: 1 }])
    expect(workbook.sheets[0].view).toEqual({ notes: { C4: { text: 'n' } }, links: { D7: 'https://example.com' } })
    const { inverse } = workbook.apply([{ type: 'delete-rows', sheet: 'Sheet1', at: 3, count: 1 }])
    expect(workbook.sheets[0].view).toEqual({ links: { D6: 'https://example.com' } })
    workbook.apply(inverse)
    expect(workbook.sheets[0].view).toEqual({ notes: { C4: { text: 'n' } }, links: { D7: 'https://example.com' } })
  })

  it('cut and paste carries notes and links to where the block lands, on another sheet too, and undo puts them back', () => {
    const workbook = model()
    workbook.apply([{ type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A1', input: 'x' }] }])
    workbook.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', notes: [{ address: 'A1', note: note('moves') }, { address: 'D4', note: note('stays') }], links: [{ address: 'B1', url: '#Sheet2!A1' }] }])
    workbook.apply([{ type: 'set-sheet-view', sheet: 'Sheet2', notes: [{ address: 'C3', note: note('covered') }] }])
    const before = structuredClone(workbook.sheets.map((sheet) => sheet.view))
    const { inverse } = workbook.apply([{ type: 'move-cells', sheet: 'Sheet1', range: 'A1:B2', targetSheet: 'Sheet2', target: 'C3' }])
    expect(workbook.sheets[0].view).toEqual({ notes: { D4: { text: 'stays' } } })
    expect(workbook.sheets[1].view).toEqual({ notes: { C3: { text: 'moves' } }, links: { D3: '#Sheet2!A1' } })
    workbook.apply(inverse)
    expect(workbook.sheets.map((sheet) => sheet.view)).toEqual(before)
  })

  it('a deleted sheet comes back with its notes, links, tab colour, zoom and gridlines off', () => {
    const workbook = model()
    workbook.apply([{ type: 'set-sheet-view', sheet: 'Sheet2', tabColor: '#ff0000', showGridLines: false, zoom: 85, notes: [{ address: 'A1', note: note('n', 'Bo') }], links: [{ address: 'A2', url: 'mailto:a@b.c' }] }])
    const before = structuredClone(workbook.sheets[1].view)
    const { inverse } = workbook.apply([{ type: 'delete-sheet', name: 'Sheet2' }])
    workbook.apply(inverse)
    expect(workbook.sheets[1].view).toEqual(before)
  })

  it('sets the tab colour and turns gridlines off; undo gives back each', () => {
    const workbook = model()
    const steps: WorkbookCommand[][] = []
    steps.push(workbook.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', tabColor: '#00b050' }]).inverse)
    steps.push(workbook.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', showGridLines: false }]).inverse)
    expect(workbook.sheets[0].view).toEqual({ tabColor: '#00b050', showGridLines: false })
    steps.push(workbook.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', tabColor: null, showGridLines: true }]).inverse)
    expect(workbook.sheets[0].view).toBeUndefined()
    for (const inverse of steps.reverse()) workbook.apply(inverse)
    expect(workbook.sheets[0].view).toBeUndefined()
  })

  it('keeps a zoom other than 100%; 100 or null removes it, and undo gives it back', () => {
    const workbook = model()
    const first = workbook.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', zoom: 75 }]).inverse
    expect(workbook.sheets[0].view).toEqual({ zoom: 75 })
    const second = workbook.apply([{ type: 'set-sheet-view', sheet: 'Sheet1', zoom: 100 }]).inverse
    expect(workbook.sheets[0].view).toBeUndefined()
    workbook.apply(second)
    expect(workbook.sheets[0].view).toEqual({ zoom: 75 })
    workbook.apply(first)
    expect(workbook.sheets[0].view).toBeUndefined()
  })
})
