/**
 * Finding cells by value or formula text across the user's workbooks, newest workbook first, in
 * sheet and row order.
 */
import type { SearchCellsBody, SearchResult } from '@finsheet/contracts'
import { columnToLetters, displayOf, sortedCells, type CellRecord } from '@finsheet/workbook'
import type { StoredRecord } from '../storage/cell-blocks.js'
import type { WorkbookDoc } from '../storage/documents.js'
import type { SpreadsheetRepository } from '../storage/spreadsheet-repository.js'

export async function searchCells(
  repo: SpreadsheetRepository,
  workbooks: WorkbookDoc[],
  request: SearchCellsBody,
): Promise<{ results: SearchResult[]; truncated: boolean }> {
  const limit = request.limit ?? 20
  const includeFormulas = request.includeFormulas ?? true
  const fold = (text: string) => (request.matchCase ? text : text.toLowerCase())
  const needle = fold(request.query.trim())
  const results: SearchResult[] = []
  for (const workbook of workbooks) {
    const sheets = workbook.sheets.filter((sheet) => request.sheet === undefined || sheet.name.toUpperCase() === request.sheet.toUpperCase())
    for (const sheet of sheets) {
      const docs: StoredRecord[] = sortedCells(await repo.sheetCells(workbook.id, sheet.id, workbook.layouts?.[sheet.id]))
      for (const doc of docs) {
        const record: CellRecord = doc
        const isFormula = doc.input.startsWith('=')
        const shown = displayOf(record)
        let matchedIn: 'value' | 'formula' | undefined
        if (doc.value !== null && (fold(shown).includes(needle) || fold(String(doc.value)).includes(needle))) matchedIn = 'value'
        else if (includeFormulas && isFormula && fold(doc.input).includes(needle)) matchedIn = 'formula'
        if (!matchedIn) continue
        if (results.length >= limit) return { results, truncated: true }
        results.push({
          workbookId: workbook.id,
          sheet: sheet.name,
          address: doc.address,
          value: doc.value,
          formula: isFormula ? doc.input : null,
          display: shown,
          metadata: {
            workbookName: workbook.name,
            sheetName: sheet.name,
            row: doc.row + 1,
            column: columnToLetters(doc.col),
            type: doc.type,
            matchedIn,
          },
        })
      }
    }
  }
  return { results, truncated: false }
}
