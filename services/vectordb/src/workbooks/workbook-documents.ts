import type { CellValue, CellsResponse, IndexedCellKind } from '@finsheet/contracts'
import { SheetModel } from './sheet-model.js'

/** One searchable thing of a workbook: what it is called (`text`) and what a search answers of it. */
export interface CellDocument {
  /** Stable across re-indexing: the workbook, sheet and address. */
  id: string
  text: string
  sheet: string
  address: string
  label: string
  header: string | null
  value: CellValue
  formula: string | null
  kind: IndexedCellKind
}

/** Longest text indexed for one cell. */
const MAX_TEXT = 400
/**
 * Most points one workbook gets: a model's labels, headers and texts all, then its figures in
 * sheet and row order up to this. A million-cell data dump would otherwise hold the index (and the
 * embedded index's memory, about 1.3 KB a point) for its rows of numbers.
 */
export const MAX_POINTS_PER_WORKBOOK = 50_000

/** The functions a formula calls, which say what it computes ('NPV', 'SUM'). */
function functionsOf(formula: string | null): string[] {
  if (!formula) return []
  return [...new Set((formula.toUpperCase().match(/[A-Z][A-Z0-9.]*(?=\()/g) ?? []))]
}

/**
 * What of a workbook becomes searchable: each row label with its row (its values and first
 * formula), each column header, each figure named by its row label and column header ('EBITDA
 * 2026'), and other text (titles, notes). A figure with neither label nor header is left out: it
 * has no words to be found by.
 */
export function workbookDocuments(workbook: CellsResponse['workbook'], maxPoints = MAX_POINTS_PER_WORKBOOK): CellDocument[] {
  const documents: CellDocument[] = []
  const figures: CellDocument[] = []
  const idOf = (sheet: string, address: string) => `${workbook.workbookId}:${sheet}!${address}`
  for (const sheet of workbook.sheets) {
    const model = new SheetModel(sheet)
    const labelCells = new Set<string>()
    for (const [row, label] of model.labelledRows()) {
      labelCells.add(label.address)
      const figures = model.row(row).filter((cell) => cell.col > label.col && model.isFigure(cell))
      const formula = figures.find((cell) => cell.formula !== null)?.formula ?? null
      const last = figures.at(-1)
      const name = String(label.value).trim()
      documents.push({
        id: idOf(sheet.name, label.address),
        text: `${name}. ${functionsOf(formula).join(' ')} ${sheet.name}`.slice(0, MAX_TEXT),
        sheet: sheet.name,
        address: label.address,
        label: name,
        header: null,
        value: last?.value ?? null,
        formula,
        kind: 'label',
      })
    }
    for (const cell of model.cells) {
      if (labelCells.has(cell.address)) continue
      if (model.isHeaderRow(cell.row)) {
        if (!model.isText(cell)) continue
        const header = String(cell.value).trim()
        documents.push({ id: idOf(sheet.name, cell.address), text: `${header} ${sheet.name}`.slice(0, MAX_TEXT), sheet: sheet.name, address: cell.address, label: header, header, value: cell.value, formula: null, kind: 'header' })
        continue
      }
      if (model.isFigure(cell)) {
        const label = model.rowLabel(cell.row)
        const header = model.columnHeader(cell.row, cell.col)
        if (!label && !header) continue
        const name = label ? String(label.value).trim() : ''
        if (figures.length >= maxPoints) continue
        figures.push({
          id: idOf(sheet.name, cell.address),
          text: `${name} ${header ?? ''} ${functionsOf(cell.formula).join(' ')} ${sheet.name}`.slice(0, MAX_TEXT),
          sheet: sheet.name,
          address: cell.address,
          label: name || (header ?? ''),
          header,
          value: cell.value,
          formula: cell.formula,
          kind: 'cell',
        })
        continue
      }
      if (model.isText(cell)) {
        const text = String(cell.value).trim()
        documents.push({ id: idOf(sheet.name, cell.address), text: `${text} ${sheet.name}`.slice(0, MAX_TEXT), sheet: sheet.name, address: cell.address, label: text.slice(0, 200), header: null, value: cell.value, formula: cell.formula, kind: 'text' })
      }
    }
  }
  return [...documents, ...figures].slice(0, maxPoints)
}
