/** Snapshots for new workbooks: blank, from a built-in template, or from a parsed file. */
import type { ImportDefinedName, ImportSheet } from '@finsheet/contracts'
import { parseAddress, templateSheets, type CellRecord, type TemplateDefinition, type WorkbookSnapshot } from '@finsheet/workbook'
import { spreadsheetErrors } from '../errors.js'
import { checkAddress, checkFormat, checkInput, checkSheetNames, formatRange, newSheetId, tryParseRange } from '@finsheet/workbook'
import { copyView } from '@finsheet/workbook/model'
import { validRules } from './valid-rules.js'


/** A snapshot of sheets in the bulk-import shape, every cell checked as an edit would be. */
export function snapshotFromSheets(name: string, sheets: ImportSheet[], definedNames: ImportDefinedName[] = []): WorkbookSnapshot {
  checkSheetNames(sheets.map((sheet) => sheet.name))
  return {
    format: 'finsheet-workbook',
    formatVersion: 1,
    name,
    revision: 0,
    sheets: sheets.map((sheet) => {
      const cells: CellRecord[] = []
      for (const cell of sheet.cells) {
        const address = checkAddress(cell.address)
        const input = checkInput(address, cell.input)
        const format = cell.format === undefined ? null : checkFormat(cell.format)
        if (input === '' && !cell.style && format === null) continue
        const { row, col } = parseAddress(address)
        cells.push({
          address,
          row,
          col,
          input: typeof input === 'boolean' ? (input ? 'TRUE' : 'FALSE') : String(input),
          value: null,
          type: 'empty',
          ...(format !== null ? { userFormat: format } : {}),
          ...(cell.style ? { style: cell.style } : {}),
        })
      }
      const merges = (sheet.merges ?? []).map((text) => {
        const range = tryParseRange(text)
        if (!range || !text.includes(':')) throw spreadsheetErrors.invalidRange(text)
        return formatRange(range)
      })
      const view = copyView(sheet.view)
      const validations = validRules(sheet.validations)
      return { id: newSheetId(), name: sheet.name, columnWidths: { ...(sheet.columnWidths ?? {}) }, merges, ...(view ? { view } : {}), ...(validations ? { validations } : {}), cells }
    }),
    definedNames: definedNames.map((definition) => ({
      name: definition.name,
      formula: definition.formula.startsWith('=') ? definition.formula : `=${definition.formula}`,
      ...(definition.sheet ? { sheet: definition.sheet } : {}),
    })),
    charts: [],
  }
}

export function blankSnapshot(name: string): WorkbookSnapshot {
  return snapshotFromSheets(name, [{ name: 'Sheet1', cells: [] }])
}

export function templateSnapshot(name: string, template: TemplateDefinition): WorkbookSnapshot {
  return snapshotFromSheets(name, templateSheets(template))
}
