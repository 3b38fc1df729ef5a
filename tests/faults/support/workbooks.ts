/**
 * Workbooks the fault and load suites upload, made on the spot with exceljs: `rows` rows of an input
 * (A), a formula over it (B, its value cached as Excel saves it), and a total of the formulas (D1).
 */
import ExcelJS from 'exceljs'

export interface ModelFile {
  path: string
  rows: number
  /** Cells in the file: two a row and the total. */
  cells: number
  /** What D1 adds up to. */
  total: number
}

/** Input of row `row` of a model file. */
const inputOf = (row: number) => row % 1000

/** Writes the model, streaming its rows, to `path`. */
export async function writeModelXlsx(path: string, rows: number): Promise<ModelFile> {
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: false, useStyles: false })
  const sheet = writer.addWorksheet('Model')
  let total = 0
  for (let row = 1; row <= rows; row++) total += inputOf(row) * 2
  for (let row = 1; row <= rows; row++) {
    const cells: ExcelJS.CellValue[] = [inputOf(row), { formula: `A${row}*2`, result: inputOf(row) * 2 }]
    if (row === 1) cells.push(null, { formula: `SUM(B1:B${rows})`, result: total })
    sheet.addRow(cells).commit()
  }
  await sheet.commit()
  await writer.commit()
  return { path, rows, cells: rows * 2 + 1, total }
}

/** A FormData carrying `bytes` as an upload named `name`, as the browser sends it. */
export function uploadForm(name: string, bytes: Uint8Array): FormData {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes)]), name)
  return form
}
