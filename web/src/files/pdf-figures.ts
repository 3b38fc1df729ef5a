/**
 * A PDF's extracted figures as a sheet the user can open: a header row (Label, Value, Notes), then one
 * row per figure. In the open workbook it is a new sheet named after the document, added and filled as
 * one change that one undo removes; without a workbook open it becomes a workbook of its own.
 */
import type { CellEdit, ImportWorkbookBody, PdfEntry, WorkbookCommand } from '@finsheet/contracts'
import { toSheetName } from '@finsheet/workbook/model'

export const FIGURES_HEADER = ['Label', 'Value', 'Notes'] as const

/** The sheet's cells: the header in bold, labels and notes as text, values as numbers. */
export function figureCells(entries: readonly PdfEntry[]): CellEdit[] {
  const cells: CellEdit[] = FIGURES_HEADER.map((text, col) => ({ address: `${'ABC'[col]}1`, input: text, style: { bold: true } }))
  entries.forEach((entry, index) => {
    const row = index + 2
    // A label that reads as a number or a formula stays text.
    const label = /^[=+\-@]|^\d/.test(entry.label) ? `'${entry.label}` : entry.label
    cells.push({ address: `A${row}`, input: label }, { address: `B${row}`, input: entry.value })
    if (entry.notes.trim() !== '') cells.push({ address: `C${row}`, input: `'${entry.notes}` })
  })
  return cells
}

/** A sheet name from the document's, not taken yet by `taken` (compared as Excel does, ignoring case). */
export function figuresSheetName(fileName: string, taken: readonly string[]): string {
  const base = toSheetName(fileName.replace(/\.pdf$/i, ''), 'PDF figures').slice(0, 26).trim() || 'PDF figures'
  const used = new Set(taken.map((name) => name.toUpperCase()))
  if (!used.has(base.toUpperCase())) return base
  for (let n = 2; ; n++) {
    const name = `${base} (${n})`
    if (!used.has(name.toUpperCase())) return name
  }
}

/** The change that adds the figures as a new sheet of the open workbook. */
export function addFiguresCommand(fileName: string, entries: readonly PdfEntry[], sheetNames: readonly string[]): { sheet: string; command: WorkbookCommand } {
  const sheet = figuresSheetName(fileName, sheetNames)
  return {
    sheet,
    command: {
      type: 'batch',
      label: `Add the figures of ${fileName}`,
      commands: [
        { type: 'add-sheet', name: sheet },
        { type: 'set-cells', sheet, cells: figureCells(entries) },
        { type: 'resize-column', sheet, column: 0, width: 260 },
        { type: 'resize-column', sheet, column: 2, width: 320 },
      ],
    },
  }
}

/** The figures as a workbook of their own, for the workbook import route. */
export function figuresWorkbook(fileName: string, entries: readonly PdfEntry[]): ImportWorkbookBody {
  const sheet = figuresSheetName(fileName, [])
  return {
    name: fileName.replace(/\.pdf$/i, '') || 'PDF figures',
    sheets: [{ name: sheet, cells: figureCells(entries).map((cell) => ({ address: cell.address, input: cell.input ?? '', ...(cell.style ? { style: cell.style as NonNullable<ImportWorkbookBody['sheets'][number]['cells'][number]['style']> } : {}) })), columnWidths: { 0: 260, 2: 320 } }],
  }
}
