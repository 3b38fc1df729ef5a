/**
 * A small xlsx file for the tests of the reader, the loader and the command line, written with exceljs
 * as Excel would save it: cached results, a shared formula, a legacy and a dynamic array formula,
 * defined names of workbook and sheet scope, dates and errors under a date format.
 */
import ExcelJS from 'exceljs'
import JSZip from 'jszip'

export const DATE_TIME_SERIAL = 45301.60416667824 // 2024-01-10 14:30:00.001, finer than a millisecond of exceljs

export async function makeTestWorkbook(options: { wrongCache?: boolean } = {}): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  const data = workbook.addWorksheet('Data')
  data.getCell('A1').value = 1
  data.getCell('A2').value = 2
  data.getCell('A3').value = 3
  data.getCell('A4').value = 'text'
  data.getCell('A5').value = true
  data.getCell('A6').value = '12'
  data.getCell('B1').value = { formula: 'A1*2', shareType: 'shared', ref: 'B1:B3', result: 2 } as ExcelJS.CellValue
  data.getCell('B2').value = { sharedFormula: 'B1', result: 4 } as ExcelJS.CellValue
  data.getCell('B3').value = { sharedFormula: 'B1', result: options.wrongCache ? 7 : 6 } as ExcelJS.CellValue
  data.getCell('C1').value = { formula: '_xlfn.DAYS(A3,A1)', result: 2 } as ExcelJS.CellValue
  data.getCell('C2').value = { formula: 'Rate*10', result: 0.5 } as ExcelJS.CellValue
  data.getCell('C3').value = { formula: 'Local', result: 100 } as ExcelJS.CellValue
  data.getCell('C4').value = { formula: '1/0', result: { error: '#DIV/0!' } } as ExcelJS.CellValue
  data.getCell('C4').numFmt = 'yyyy-mm-dd'
  data.getCell('H2').value = { formula: 'A1:A3*10', result: 20 } as ExcelJS.CellValue
  data.getCell('D1').value = DATE_TIME_SERIAL
  data.getCell('D1').numFmt = 'yyyy-mm-dd h:mm'
  data.getCell('D2').value = { formula: 'D1+1', result: DATE_TIME_SERIAL + 1 } as ExcelJS.CellValue
  data.getCell('D2').numFmt = 'yyyy-mm-dd h:mm'
  data.getCell('E1').value = { formula: 'TRANSPOSE(A1:A3)', shareType: 'array', ref: 'E1:G1', result: 1 } as ExcelJS.CellValue
  data.getCell('F1').value = 2
  data.getCell('G1').value = 3
  data.mergeCells('H1:I1')

  const other = workbook.addWorksheet('Other Sheet')
  other.getCell('A1').value = 7
  other.getCell('B1').value = { formula: 'Local', result: 7 } as ExcelJS.CellValue
  other.getCell('B2').value = { formula: "SUM(Data!A1:A3)+'Other Sheet'!A1", result: 13 } as ExcelJS.CellValue

  const bytes = Buffer.from(await workbook.xlsx.writeBuffer())
  return addXmlDetails(bytes)
}

/** Adds what exceljs cannot write: names of sheet scope and formulas, and the dynamic-array mark. */
async function addXmlDetails(bytes: Buffer): Promise<Buffer> {
  const zip = await JSZip.loadAsync(bytes)
  const names =
    '<definedNames>' +
    '<definedName name="Rate">0.05</definedName>' +
    '<definedName name="Local" localSheetId="0">Data!$A$3*100/3</definedName>' +
    '<definedName name="Local" localSheetId="1">&apos;Other Sheet&apos;!$A$1</definedName>' +
    '<definedName name="_xlnm.Print_Area" localSheetId="0">Data!$A$1:$B$3</definedName>' +
    '</definedNames>'
  const workbookXml = (await zip.file('xl/workbook.xml')!.async('string'))
    .replace(/<definedNames>[\s\S]*?<\/definedNames>|<definedNames\/>/, '')
    .replace('</sheets>', '</sheets>' + names)
  zip.file('xl/workbook.xml', workbookXml)
  const sheetXml = await zip.file('xl/worksheets/sheet1.xml')!.async('string')
  zip.file('xl/worksheets/sheet1.xml', sheetXml.replace(/<c r="E1"/, '<c r="E1" cm="1"'))
  return Buffer.from(await zip.generateAsync({ type: 'uint8array' }))
}
