import { ApplyChangeBody, type WorkbookCommand } from '@finsheet/contracts'
import { describe, expect, it } from 'vitest'
import { createValidatorCompiler } from './validation.js'

/** One of every command, each field filled, as a client sends them in `POST /workbook/{id}/changes`. */
const EVERY_COMMAND: WorkbookCommand[] = [
  { type: 'set-cells', sheet: 'Sheet1', cells: [{ address: 'A1', input: '=B1*2', style: { bold: true }, format: '0.0%' }] },
  { type: 'format-cells', sheet: 'Sheet1', ranges: ['A1:B2'], style: { italic: true }, format: '#,##0' },
  { type: 'resize-column', sheet: 'Sheet1', column: 2, width: 120 },
  { type: 'insert-rows', sheet: 'Sheet1', at: 3, count: 2 },
  { type: 'delete-rows', sheet: 'Sheet1', at: 3, count: 2 },
  { type: 'insert-columns', sheet: 'Sheet1', at: 1, count: 1 },
  { type: 'delete-columns', sheet: 'Sheet1', at: 1, count: 1 },
  { type: 'add-sheet', name: 'Forecast', index: 1, id: 'sheet-forecast' },
  { type: 'rename-sheet', from: 'Forecast', to: 'Plan' },
  { type: 'delete-sheet', name: 'Plan' },
  { type: 'move-sheet', name: 'Sheet1', index: 0 },
  { type: 'move-cells', sheet: 'Sheet1', range: 'A1:B2', targetSheet: 'Sheet2', target: 'C3' },
  { type: 'merge-cells', sheet: 'Sheet1', range: 'A1:C1' },
  { type: 'unmerge-cells', sheet: 'Sheet1', range: 'A1:C1' },
  { type: 'define-name', name: 'TaxRate', formula: '=Sheet1!$B$2', sheet: 'Sheet1' },
  { type: 'set-calculation', iterate: true, maxIterations: 500, maxChange: 0.0001 },
  {
    type: 'set-conditional-formats',
    sheet: 'Sheet1',
    rules: [
      { type: 'cellIs', ranges: ['A1:A10'], operator: 'between', formulas: ['1', '5'], stopIfTrue: true, style: { fill: '#FFC7CE', color: '#9C0006', bold: true, format: '0.0' } },
      { type: 'colorScale', ranges: ['B1:B10', 'D1:D4'], thresholds: [{ kind: 'min' }, { kind: 'percentile', value: '50' }, { kind: 'max' }], colors: ['#F8696B', '#FFEB84', '#63BE7B'] },
      { type: 'top10', ranges: ['C1:C10'], rank: 10, percent: true, bottom: true, style: { italic: true } },
      { type: 'iconSet', ranges: ['E1:E9'], iconSet: '3TrafficLights1', thresholds: [{ kind: 'percent', value: '0' }, { kind: 'percent', value: '33' }, { kind: 'percent', value: '67' }], reverse: true, hideValue: true },
    ],
  },
  {
    type: 'set-sheet-view',
    sheet: 'Sheet1',
    frozenRows: 1,
    frozenColumns: 2,
    hidden: false,
    rows: [{ from: 2, to: 4, height: 30, hidden: true, level: 1, collapsed: false }],
    columns: [{ from: 1, to: 1, hidden: true, level: 2, collapsed: true }],
  },
  {
    type: 'set-data-validation',
    sheet: 'Sheet1',
    clear: ['B2:B9'],
    rules: [
      {
        ranges: ['B2:B9', 'D4'],
        type: 'whole',
        operator: 'between',
        formula1: '1',
        formula2: '$C$1',
        allowBlank: true,
        showDropdown: false,
        showInputMessage: true,
        inputTitle: 'Units',
        inputMessage: 'Whole units, 1 to C1',
        showErrorMessage: true,
        errorStyle: 'warning',
        errorTitle: 'Units',
        errorMessage: 'Out of range',
      },
    ],
  },
  { type: 'set-filter', sheet: 'Sheet1', filter: { range: 'A1:C9', columns: [{ column: 1, values: ['East', ''] }] }, filteredRows: [{ from: 3, to: 4 }] },
  { type: 'set-filter', sheet: 'Sheet1', filter: null },
  {
    type: 'set-chart',
    sheet: 'Sheet1',
    id: 'chart-1',
    chart: {
      type: 'combo',
      title: 'Revenue and margin',
      dataRange: 'A1:C6',
      seriesInColumns: true,
      createdAt: '2026-01-01T00:00:00.000Z',
      anchor: { from: { row: 1, col: 4, dx: 3, dy: 2 }, to: { row: 15, col: 10, dx: 0, dy: 0 } },
      seriesKinds: ['bar', 'line'],
      totals: [4],
    },
  },
  { type: 'set-chart', sheet: 'Sheet1', id: 'chart-1', chart: null },
]

describe('the body validator', () => {
  // Strict objects lose unknown fields, and a union tries its branches in order: a branch must not
  // strip the fields of a command that comes later before its `type` rules it out.
  it('keeps every field of every command, alone and inside a batch', () => {
    const validate = createValidatorCompiler()({ schema: ApplyChangeBody, method: 'POST', url: '/workbook/:id/changes', httpPart: 'body' }) as (data: unknown) => boolean
    const sent = { commands: [...EVERY_COMMAND, { type: 'batch', label: 'Paste', commands: EVERY_COMMAND }] }
    const body = structuredClone(sent)
    expect(validate(body), JSON.stringify((validate as unknown as { errors: unknown }).errors)).toBe(true)
    expect(body).toEqual(sent)
  })
})
