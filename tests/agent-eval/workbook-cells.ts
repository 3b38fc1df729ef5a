/** A workbook read back through the API after a command: its cells by `Sheet!A1`, sheets, charts, and what changed. */
import { readFileSync } from 'node:fs'
import type { Cell } from '@finsheet/contracts'
import type { SpreadsheetApi } from './spreadsheet-api.js'

export interface WorkbookCells {
  sheets: string[]
  /** Every non-empty cell by `Sheet!A1`. */
  cells: Map<string, Cell>
  charts: { type: string; sheet: string; dataRange: string; title: string }[]
  /** Each sheet's layout (frozen panes, hidden and resized rows and columns) and column widths, by name. */
  layouts: Map<string, { view?: Record<string, unknown>; columnWidths?: Record<string, number> }>
}

/** The body of POST /workbooks/import for a fixture workbook of the task suite. */
export function fixtureBody(path: string): { name: string; sheets: { name: string; cells: { address: string; input: string }[] }[] } {
  return JSON.parse(readFileSync(path, 'utf8'))
}

/** Stores a workbook and answers its id. */
export async function importWorkbook(api: SpreadsheetApi, body: unknown): Promise<string> {
  const answer = await api('POST', '/workbooks/import', body)
  if (answer.status !== 201) throw new Error(`import failed: ${answer.status} ${JSON.stringify(answer.json)}`)
  return answer.json.workbookId
}

export async function readWorkbook(api: SpreadsheetApi, workbookId: string): Promise<WorkbookCells> {
  const answer = await api('GET', `/workbook/${workbookId}/cells`)
  if (answer.status !== 200) throw new Error(`reading cells failed: ${answer.status}`)
  const cells = new Map<string, Cell>()
  const layouts: WorkbookCells['layouts'] = new Map()
  const sheets: string[] = answer.json.workbook.sheetOrder ?? answer.json.workbook.sheets.map((sheet: { name: string }) => sheet.name)
  for (const sheet of answer.json.workbook.sheets as { name: string; cells: Record<string, Cell>; view?: Record<string, unknown>; columnWidths?: Record<string, number> }[]) {
    for (const [address, cell] of Object.entries(sheet.cells)) cells.set(`${sheet.name}!${address}`, cell)
    layouts.set(sheet.name, { view: sheet.view, columnWidths: sheet.columnWidths })
  }
  const charts = await api('GET', `/workbook/${workbookId}/charts`)
  return { sheets, cells, charts: charts.status === 200 ? (charts.json.charts ?? []) : [], layouts }
}

/** Cells whose input (what was typed) differs between two reads: written, cleared or newly filled. */
export function changedInputs(before: WorkbookCells, after: WorkbookCells): string[] {
  const refs = new Set([...before.cells.keys(), ...after.cells.keys()])
  return [...refs].filter((ref) => (before.cells.get(ref)?.input ?? '') !== (after.cells.get(ref)?.input ?? '')).sort()
}
