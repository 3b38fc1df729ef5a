import { describe, expect, it } from 'vitest'
import JSZip from 'jszip'
import type { CellRecord } from '../model/cell-record.js'
import type { ChartRecord, WorkbookSnapshot } from '../model/snapshot.js'
import { chartBoxSize, chartPictures, chartsExportNote } from './chart-pictures.js'
import { chartSvg } from './chart-svg.js'
import { writeXlsxOffThread } from './xlsx-off-thread.js'
import { writeXlsx } from './xlsx.js'

const text = (address: string, row: number, col: number, value: string): CellRecord => ({ address, row, col, input: value, value, type: 'text' })
const number = (address: string, row: number, col: number, value: number): CellRecord => ({ address, row, col, input: String(value), value, type: 'number' })

const bridge: ChartRecord = {
  id: 'c1',
  type: 'waterfall',
  title: 'EV bridge',
  sheetId: 's1',
  dataRange: 'A1:B3',
  seriesInColumns: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  anchor: { from: { row: 1, col: 3, dx: 10, dy: 4 }, to: { row: 13, col: 8, dx: 20, dy: 0 } },
}

const snapshot = (charts: ChartRecord[]): WorkbookSnapshot => ({
  format: 'finsheet-workbook',
  formatVersion: 1,
  name: 'Valuation',
  revision: 1,
  sheets: [
    {
      id: 's1',
      name: 'Bridge',
      columnWidths: { '4': 150 },
      merges: [],
      cells: [text('A1', 0, 0, 'Enterprise value'), number('B1', 0, 1, 1200), text('A2', 1, 0, 'Less: debt'), number('B2', 1, 1, -350), text('A3', 2, 0, 'Equity value'), number('B3', 2, 1, 850)],
    },
  ],
  definedNames: [],
  charts,
})

describe('chart pictures', () => {
  it('sizes a chart from the column widths and row heights it spans', () => {
    // 90 px of D (100 - 10), E at 150, F, G and H at 100, then 20 px into I; 20 px of row 2, rows 3 to 13
    expect(chartBoxSize(snapshot([]).sheets[0], bridge.anchor!)).toEqual({ width: 90 + 150 + 3 * 100 + 20, height: 20 + 11 * 24 })
  })

  it('draws a waterfall: totals blue, decreases red, with its title', () => {
    const svg = chartSvg(bridge, { labels: ['EV', 'Debt', 'Equity'], series: [{ name: 'x', values: [1200, -350, 850] }] }, 400, 240)
    expect(svg).toContain('>EV bridge</text>')
    expect(svg.match(/fill="#2f6fd6" rx="2"/g)).toHaveLength(3) // two totals and the legend's swatch
    expect(svg.match(/fill="#d64545" rx="2"/g)).toHaveLength(2)
  })

  it('exports a placed chart as a PNG anchored over the same cells, and says so', async () => {
    const result = await chartPictures(snapshot([bridge, { ...bridge, id: 'listed', anchor: undefined }]))
    expect(result.pictures).toHaveLength(1)
    expect([...result.pictures[0].png.slice(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG')
    expect(chartsExportNote(result)).toBe('charts exported as pictures: 1')
    for (const bytes of [await writeXlsx(snapshot([bridge]), { pictures: result }), await writeXlsxOffThread(snapshot([bridge]), { pictures: result })]) {
      const zip = await JSZip.loadAsync(bytes)
      expect(Object.keys(zip.files).filter((name) => name.startsWith('xl/media/') && !zip.files[name].dir)).toHaveLength(1)
      const drawing = await zip.file('xl/drawings/drawing1.xml')!.async('string')
      expect(drawing).toContain('<xdr:twoCellAnchor editAs="twoCell">')
      expect(drawing).toMatch(/<xdr:from><xdr:col>3<\/xdr:col><xdr:colOff>95250<\/xdr:colOff><xdr:row>1<\/xdr:row><xdr:rowOff>38100<\/xdr:rowOff><\/xdr:from>/)
      expect(drawing).toMatch(/<xdr:to><xdr:col>8<\/xdr:col><xdr:colOff>190500<\/xdr:colOff><xdr:row>13<\/xdr:row>/)
    }
  })

  it('a workbook without placed charts has nothing to say', async () => {
    expect(chartsExportNote(await chartPictures(snapshot([])))).toBeNull()
  })
})
