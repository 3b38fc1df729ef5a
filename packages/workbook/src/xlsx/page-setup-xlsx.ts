/**
 * A sheet's page setup as an xlsx file states it: the worksheet's `<pageSetup>` (orientation, paper
 * size, scale or fit to pages), `<printOptions>` (gridlines, headings) and `<sheetPr><pageSetUpPr
 * fitToPage>`, and the workbook's `_xlnm.Print_Area` and `_xlnm.Print_Titles` names for that sheet.
 */
import type ExcelJS from 'exceljs'
import { MAX_PRINT_SCALE, MIN_PRINT_SCALE, type PageSetup, type PaperSize } from '@finsheet/contracts'
import { copyPageSetup } from '../model/page-setup.js'
import { columnToLetters, lettersToColumn } from '../model/a1.js'

/** Excel's paper size codes. */
const PAPER_CODES: Record<PaperSize, number> = { letter: 1, legal: 5, a3: 8, a4: 9 }

/** States a page setup on the worksheet exceljs is about to write (the names included). */
export function writePageSetup(worksheet: ExcelJS.Worksheet, setup: PageSetup | undefined): void {
  if (!setup) return
  const page: Partial<ExcelJS.PageSetup> = {}
  if (setup.orientation) page.orientation = setup.orientation
  if (setup.paperSize) page.paperSize = PAPER_CODES[setup.paperSize] as ExcelJS.PaperSize
  if (setup.fitToWidth) Object.assign(page, { fitToPage: true, fitToWidth: 1, fitToHeight: 0 })
  else if (setup.scale !== undefined) page.scale = setup.scale
  // exceljs puts a '$' before each corner: the row's '$' given here makes the name absolute ($A$1:$F$40).
  if (setup.printArea) page.printArea = setup.printArea.replace(/([A-Z]+)(\d+)/g, '$1$$$2')
  if (setup.titleRows) page.printTitlesRow = `${setup.titleRows.first + 1}:${setup.titleRows.last + 1}`
  if (setup.titleColumns) page.printTitlesColumn = `${columnToLetters(setup.titleColumns.first)}:${columnToLetters(setup.titleColumns.last)}`
  if (setup.gridlines) page.showGridLines = true
  if (setup.headings) page.showRowColHeaders = true
  Object.assign(worksheet.pageSetup, page)
}

const attribute = (attributes: string, name: string) => new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(attributes)?.[1]
const isTrue = (value: string | undefined) => value === '1' || value === 'true'

/**
 * The page setup a worksheet part and its sheet's print names state. `printArea` and `printTitles` are
 * the names' formulas (`'Model'!$A$1:$F$40`, `'Model'!$1:$2`); only the parts this model keeps are read.
 */
export function readPageSetup(xml: string, names: { printArea?: string; printTitles?: string } = {}): PageSetup | undefined {
  const setup: PageSetup = {}
  const page = /<(?:\w+:)?pageSetup\b([^>]*?)\/?>/.exec(xml)?.[1]
  const fitToPage = isTrue(attribute(/<(?:\w+:)?pageSetUpPr\b([^>]*?)\/?>/.exec(xml)?.[1] ?? '', 'fitToPage'))
  if (page) {
    const orientation = attribute(page, 'orientation')
    // Portrait is the default, which files state whether or not it was chosen.
    if (orientation === 'landscape') setup.orientation = orientation
    const paper = Number(attribute(page, 'paperSize'))
    const size = (Object.entries(PAPER_CODES) as [PaperSize, number][]).find(([, code]) => code === paper)?.[0]
    if (size) setup.paperSize = size
    const scale = Number(attribute(page, 'scale'))
    if (fitToPage && attribute(page, 'fitToWidth') !== '0') setup.fitToWidth = true
    else if (Number.isInteger(scale) && scale >= MIN_PRINT_SCALE && scale <= MAX_PRINT_SCALE && scale !== 100) setup.scale = scale
  } else if (fitToPage) setup.fitToWidth = true
  const options = /<(?:\w+:)?printOptions\b([^>]*?)\/?>/.exec(xml)?.[1]
  if (options && isTrue(attribute(options, 'gridLines'))) setup.gridlines = true
  if (options && isTrue(attribute(options, 'headings'))) setup.headings = true
  // The first area of a name holding several ("A1:B2,D1:E2"); the model keeps one.
  const area = names.printArea && /!\$?([A-Z]{1,3})\$?(\d+):\$?([A-Z]{1,3})\$?(\d+)/.exec(names.printArea)
  if (area) setup.printArea = `${area[1]}${area[2]}:${area[3]}${area[4]}`
  const titles = names.printTitles && /!\$?(\d+):\$?(\d+)/.exec(names.printTitles)
  if (titles) setup.titleRows = { first: Number(titles[1]) - 1, last: Number(titles[2]) - 1 }
  const columns = names.printTitles && /!\$?([A-Z]{1,3}):\$?([A-Z]{1,3})(?![A-Z0-9$])/.exec(names.printTitles)
  const [firstColumn, lastColumn] = columns ? [lettersToColumn(columns[1]), lettersToColumn(columns[2])] : [-1, -1]
  if (firstColumn >= 0 && lastColumn >= firstColumn) setup.titleColumns = { first: firstColumn, last: lastColumn }
  return copyPageSetup(setup)
}
