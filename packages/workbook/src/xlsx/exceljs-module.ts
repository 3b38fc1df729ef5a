import type ExcelJS from 'exceljs'

let loaded: Promise<typeof ExcelJS> | undefined

/**
 * exceljs, loaded on first use. It costs a process ~30 MB and ~0.4 s to load, and most that import
 * this package never read or write an xlsx file in their own thread (a spreadsheet thread hands
 * exports to a worker of their own and receives imports already parsed).
 */
export function loadExcelJs(): Promise<typeof ExcelJS> {
  loaded ??= import('exceljs').then((module) => module.default)
  return loaded
}
