import { describe, expect, it } from 'vitest'
import { AGENT_TOOL_NAMES } from '@finsheet/contracts'
import { describeToolCall } from './tool-descriptions.js'

describe('describeToolCall', () => {
  it('says what each tool sets out to do, from its arguments', () => {
    expect(describeToolCall('get_workbook_overview', {})).toBe('Looking over the workbook')
    expect(describeToolCall('read_range', { sheet: 'Revenue', range: 'A1:H40' })).toBe('Reading Revenue!A1:H40')
    expect(describeToolCall('read_range', { sheet: 'Revenue', range: 'FCF!B2:H40' })).toBe('Reading FCF!B2:H40')
    expect(describeToolCall('read_range', { sheet: 'Model', range: { row: 'EBITDA' } })).toBe('Reading row “EBITDA” on Model')
    expect(describeToolCall('write_cells', { sheet: 'FCF', cells: Array.from({ length: 12 }, (_, i) => ({ address: `B${i + 1}`, input: i })) })).toBe('Writing 12 cells on FCF')
    expect(describeToolCall('write_cells', { sheet: 'Model', cells: [{ address: { row: 'EBITDA', column: 'FY2027' }, input: '=1' }] })).toBe('Writing EBITDA × FY2027 on Model')
    expect(describeToolCall('fill_formula', { sheet: 'Model', source: 'E3', target: 'F3:H3' })).toBe('Filling Model!E3 into F3:H3')
    expect(describeToolCall('validate_formula', { sheet: 'Model', address: 'B7', formula: '=SUM(B2:B6)' })).toBe('Checking =SUM(B2:B6) at Model!B7')
    expect(describeToolCall('modify_structure', { action: 'insert_rows', sheet: 'Model', at: 5, count: 2 })).toBe('Inserting 2 rows on Model before row 5')
    expect(describeToolCall('modify_structure', { action: 'delete_columns', sheet: 'Model', at: 'D' })).toBe('Deleting 1 column on Model from D')
    expect(describeToolCall('modify_structure', { action: 'add_sheet', name: 'Summary' })).toBe('Adding sheet Summary')
    expect(describeToolCall('modify_structure', { action: 'rename_sheet', sheet: 'Sheet1', name: 'Inputs' })).toBe('Renaming sheet Sheet1 to Inputs')
    expect(describeToolCall('format_range', { sheet: 'Model', range: 'B2:H2', numberFormat: '0.0%' })).toBe('Formatting Model!B2:H2')
    expect(describeToolCall('search_workbook', { query: 'net debt' })).toBe('Searching for “net debt”')
    expect(describeToolCall('trace_dependencies', { sheet: 'Valuation', address: 'C12', direction: 'both' })).toBe('Tracing the precedents and dependents of Valuation!C12')
    expect(describeToolCall('explain_formula', { sheet: 'Valuation', address: 'C12' })).toBe('Explaining Valuation!C12')
    expect(describeToolCall('create_chart', { sheet: 'Model', range: 'A1:E3', type: 'area' })).toBe('Adding an area chart of Model!A1:E3')
  })

  it('has a sentence for every tool, and falls back to the tool’s name for arguments it cannot read', () => {
    for (const name of AGENT_TOOL_NAMES) expect(describeToolCall(name, null)).not.toMatch(/undefined|null|\[object/)
    expect(describeToolCall('read_range', 'not an object')).toBe('Reading the workbook')
    expect(describeToolCall('write_cells', { sheet: 42, cells: 'all' })).toBe('Writing 0 cells on 42')
    expect(describeToolCall('delete_everything', {})).toBe('Calling delete_everything')
    expect(describeToolCall('toString', {})).toBe('Calling toString')
    expect(describeToolCall('read_range', { sheet: 'Model', range: 'A'.repeat(300) })).toHaveLength('Reading Model!'.length + 61)
  })
})
