/**
 * A small xlsx file for the tests of the reader, the loader and the command line, written with exceljs
 * as Excel would save it: cached results, a shared formula, a legacy and a dynamic array formula,
 * defined names of workbook and sheet scope, dates and errors under a date format.
 */
import ExcelJS from 'exceljs'
import JSZip from 'jszip'

export const DATE_TIME_SERIAL = 45301.60416667824 // 2024-01-10 14:30:00.001, finer than a millisecond of exceljs

export interface TestWorkbookOptions {
  /** Cache a wrong value for Data!B3. */
  wrongCache?: boolean
  /** Save as Google Sheets does: no docProps/app.xml, error results cached as text. */
  googleSheets?: boolean
}

export async function makeTestWorkbook(options: TestWorkbookOptions = {}): Promise<Buffer> {
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
  data.getCell('J1').value = 'ESCAPED-TEXT'
  data.getCell('J2').value = { formula: 'SEQUENCE(0)', result: { error: '#VALUE!' } } as ExcelJS.CellValue
  data.getCell('J3').value = { formula: options.googleSheets ? 'NA()' : '"#N/A"', result: '#N/A' } as ExcelJS.CellValue
  data.getCell('J4').value = { formula: 'CHAR(1)&"x"', result: 'CONTROL-CHARACTER' } as ExcelJS.CellValue

  const other = workbook.addWorksheet('Other Sheet')
  other.getCell('A1').value = 7
  other.getCell('B1').value = { formula: 'Local', result: 7 } as ExcelJS.CellValue
  other.getCell('B2').value = { formula: "SUM(Data!A1:A3)+'Other Sheet'!A1", result: 13 } as ExcelJS.CellValue

  const bytes = Buffer.from(await workbook.xlsx.writeBuffer())
  return addXmlDetails(bytes, options)
}

/** Adds what exceljs cannot write: names of sheet scope and formulas, and the dynamic-array mark. */
async function addXmlDetails(bytes: Buffer, options: TestWorkbookOptions): Promise<Buffer> {
  const zip = await JSZip.loadAsync(bytes)
  if (options.googleSheets) zip.remove('docProps/app.xml')
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
  zip.file('xl/worksheets/sheet1.xml', sheetXml.replace(/<c r="E1"/, '<c r="E1" cm="1"').replace(/<c r="J2"/, '<c r="J2" vm="1"').replace('CONTROL-CHARACTER', '_x0001_x'))
  // A control character is stored as _xHHHH_ in the file's text.
  const strings = await zip.file('xl/sharedStrings.xml')!.async('string')
  zip.file('xl/sharedStrings.xml', strings.replace('ESCAPED-TEXT', 'tab_x0009_here _x005F_x0041_'))
  // #CALC! is stored as #VALUE! pointing at a rich value whose error type is 13.
  zip.file(
    'xl/metadata.xml',
    '<metadata xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:xlrd="http://schemas.microsoft.com/office/spreadsheetml/2017/richdata">' +
      '<metadataTypes count="1"><metadataType name="XLRICHVALUE"/></metadataTypes>' +
      '<futureMetadata name="XLRICHVALUE" count="1"><bk><extLst><ext uri="{3e2802c4-a4d2-4d8b-9148-e3be6c30e623}"><xlrd:rvb i="0"/></ext></extLst></bk></futureMetadata>' +
      '<valueMetadata count="1"><bk><rc t="1" v="0"/></bk></valueMetadata></metadata>',
  )
  zip.file(
    'xl/richData/rdrichvalue.xml',
    '<rvData xmlns="http://schemas.microsoft.com/office/spreadsheetml/2017/richdata" count="1"><rv s="0"><v>13</v><v>0</v></rv></rvData>',
  )
  zip.file(
    'xl/richData/rdrichvaluestructure.xml',
    '<rvStructures xmlns="http://schemas.microsoft.com/office/spreadsheetml/2017/richdata" count="1"><s t="_error"><k n="errorType" t="i"/><k n="subType" t="i"/></s></rvStructures>',
  )
  return Buffer.from(await zip.generateAsync({ type: 'uint8array' }))
}

/**
 * A circular workbook: Model!A1 = A1/2+1 (settling at 2) read by B1 = A1*3, saved with `calcPr` as the
 * workbook's calculation settings and `cached` as A1's saved value.
 */
export async function makeCircularWorkbook(options: { calcPr?: string; cached?: number } = {}): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  const model = workbook.addWorksheet('Model')
  const cached = options.cached
  model.getCell('A1').value = { formula: 'A1/2+1', ...(cached !== undefined ? { result: cached } : {}) } as ExcelJS.CellValue
  model.getCell('B1').value = { formula: 'A1*3', ...(cached !== undefined ? { result: cached * 3 } : {}) } as ExcelJS.CellValue
  const zip = await JSZip.loadAsync(Buffer.from(await workbook.xlsx.writeBuffer()))
  const workbookXml = await zip.file('xl/workbook.xml')!.async('string')
  zip.file('xl/workbook.xml', workbookXml.replace(/<calcPr\b[^>]*\/>/, options.calcPr ?? ''))
  return Buffer.from(await zip.generateAsync({ type: 'uint8array' }))
}

/** The values of the `Sales` table of {@link makeTableWorkbook}: region, units, unit price. */
export const SALES_ROWS: [string, number, number][] = [
  ['North', 10, 2.5],
  ['South', 20, 3],
  ['East', 30, 4],
  ['West', 40, 1.5],
]

/**
 * Structured references on the `Report` sheet of {@link makeTableWorkbook}, as Excel stores them in the
 * file, with the values Excel shows for them.
 */
export const TABLE_FORMULAS: [address: string, formula: string, value: string | number][] = [
  ['A1', 'SUM(Sales[Units])', 100],
  ['A2', 'Sales[[#Headers],[Unit Price]]', 'Unit Price'],
  ['A3', 'Sales[[#Totals],[Amount]]', 265],
  ['A4', 'ROWS(Sales[#All])', 6],
  ['A5', 'ROWS(Sales[#Data])', 4],
  ['A6', 'SUM(Sales[[Units]:[Unit Price]])', 111],
  ['A7', 'SUMPRODUCT(Sales[Units],Sales[Unit Price])', 265],
  ['A8', 'INDEX(Sales[Region],MATCH(MAX(Sales[Amount]),Sales[Amount],0))', 'East'],
  ['A9', 'COUNTA(Sales)', 16],
  ['A10', 'SUM(Sales[[#Data],[#Totals],[Units]])', 200],
  ['A11', 'SUM(Rates[Rate])', 1.5],
  ['A12', 'ROWS(Rates[#All])', 3],
]

/**
 * A workbook with two Excel tables, saved as Excel saves them (a part per table, listed in its sheet's
 * relationships): `Sales` on Data!A1:D6 with a header row, a calculated column and a totals row, and
 * `Rates` on Report!C1:C3 without a header row. Every formula caches the value Excel shows.
 */
export async function makeTableWorkbook(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  const data = workbook.addWorksheet('Data')
  ;['Region', 'Units', 'Unit Price', 'Amount'].forEach((header, i) => (data.getRow(1).getCell(i + 1).value = header))
  SALES_ROWS.forEach(([region, units, price], i) => {
    const row = data.getRow(i + 2)
    row.getCell(1).value = region
    row.getCell(2).value = units
    row.getCell(3).value = price
    row.getCell(4).value = { formula: 'Sales[[#This Row],[Units]]*Sales[[#This Row],[Unit Price]]', result: units * price } as ExcelJS.CellValue
  })
  data.getCell('A6').value = 'Total'
  data.getCell('B6').value = { formula: 'SUBTOTAL(109,Sales[Units])', result: 100 } as ExcelJS.CellValue
  data.getCell('D6').value = { formula: 'SUBTOTAL(109,Sales[Amount])', result: 265 } as ExcelJS.CellValue
  const report = workbook.addWorksheet('Report')
  for (const [address, formula, result] of TABLE_FORMULAS) report.getCell(address).value = { formula, result } as ExcelJS.CellValue
  report.getCell('C1').value = 0.25
  report.getCell('C2').value = 0.5
  report.getCell('C3').value = 0.75

  const zip = await JSZip.loadAsync(Buffer.from(await workbook.xlsx.writeBuffer()))
  const ns = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
  const tableType = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/table'
  zip.file(
    'xl/tables/table1.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<table xmlns="${ns}" id="1" name="Sales" displayName="Sales" ref="A1:D6" totalsRowCount="1">` +
      '<autoFilter ref="A1:D5"/><tableColumns count="4">' +
      '<tableColumn id="1" name="Region" totalsRowLabel="Total"/><tableColumn id="2" name="Units" totalsRowFunction="sum"/>' +
      '<tableColumn id="3" name="Unit Price"/><tableColumn id="4" name="Amount" totalsRowFunction="sum">' +
      '<calculatedColumnFormula>Sales[[#This Row],[Units]]*Sales[[#This Row],[Unit Price]]</calculatedColumnFormula></tableColumn>' +
      '</tableColumns><tableStyleInfo name="TableStyleMedium2" showFirstColumn="0" showLastColumn="0" showRowStripes="1" showColumnStripes="0"/></table>',
  )
  zip.file(
    'xl/tables/table2.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<table xmlns="${ns}" id="2" name="Table2" displayName="Rates" ref="C1:C3" headerRowCount="0">` +
      '<tableColumns count="1"><tableColumn id="1" name="Rate"/></tableColumns>' +
      '<tableStyleInfo name="TableStyleLight9" showFirstColumn="0" showLastColumn="0" showRowStripes="1" showColumnStripes="0"/></table>',
  )
  for (const [sheet, table] of [[1, 1], [2, 2]]) {
    const relsPath = `xl/worksheets/_rels/sheet${sheet}.xml.rels`
    const rels = (await zip.file(relsPath)?.async('string')) ?? `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>`
    zip.file(relsPath, rels.replace('</Relationships>', `<Relationship Id="rIdTable${table}" Type="${tableType}" Target="../tables/table${table}.xml"/></Relationships>`))
    const sheetPath = `xl/worksheets/sheet${sheet}.xml`
    const xml = await zip.file(sheetPath)!.async('string')
    zip.file(sheetPath, xml.replace('</worksheet>', `<tableParts count="1"><tablePart r:id="rIdTable${table}"/></tableParts></worksheet>`))
  }
  const types = await zip.file('[Content_Types].xml')!.async('string')
  const overrides = [1, 2].map((n) => `<Override PartName="/xl/tables/table${n}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.table+xml"/>`).join('')
  zip.file('[Content_Types].xml', types.replace('</Types>', overrides + '</Types>'))
  return Buffer.from(await zip.generateAsync({ type: 'uint8array' }))
}

/** The external-link part Excel writes for a workbook linked to Budget.xlsx (sheets Sheet1 and Q1 Plan). */
export const BUDGET_LINK_XML =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<externalLink xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
  '<externalBook r:id="rId1"><sheetNames><sheetName val="Sheet1"/><sheetName val="Q1 Plan"/></sheetNames>' +
  '<sheetDataSet>' +
  '<sheetData sheetId="0"><row r="1"><cell r="A1"><v>1</v></cell><cell r="B1" t="str"><v>North &amp; South</v></cell></row>' +
  '<row r="2"><cell r="A2"><v>2</v></cell><cell r="B2" t="b"><v>1</v></cell></row><row r="3"><cell r="A3"><v>3</v></cell><cell r="B3" t="e"><v>#DIV/0!</v></cell></row>' +
  '<row r="8"><cell r="C8"><v>1250.5</v></cell></row></sheetData>' +
  '<sheetData sheetId="1"><row r="2"><cell r="B2"><v>10</v></cell></row><row r="3"><cell r="B3"><v>20</v></cell></row><row r="9"><cell r="B9"><v>90</v></cell></row></sheetData>' +
  '</sheetDataSet></externalBook></externalLink>'

/**
 * A workbook whose formulas read another workbook, as Excel saves it: formulas name the link by number
 * (`[1]Sheet1!$C$8`), xl/externalLinks/externalLink1.xml caches the values read, and its relationship
 * names the file (`target`). Model!D1 reads a cell the cache does not hold.
 */
export async function makeExternalLinkWorkbook(target = 'file:///C:/Models/Budget.xlsx'): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  const model = workbook.addWorksheet('Model')
  model.getCell('A1').value = { formula: '[1]Sheet1!$C$8', result: 1250.5 } as ExcelJS.CellValue
  model.getCell('A2').value = { formula: 'SUM([1]Sheet1!A1:A3)', result: 6 } as ExcelJS.CellValue
  model.getCell('A3').value = { formula: "SUM('[1]Q1 Plan'!B2:B9)*2", result: 240 } as ExcelJS.CellValue
  model.getCell('A4').value = { formula: '[1]Sheet1!B1', result: 'North & South' } as ExcelJS.CellValue
  model.getCell('A5').value = { formula: 'A1+1', result: 1251.5 } as ExcelJS.CellValue
  model.getCell('B1').value = { formula: '[1]Sheet1!B2', result: true } as ExcelJS.CellValue
  model.getCell('B2').value = { formula: '[1]Sheet1!B3', result: { error: '#DIV/0!' } } as ExcelJS.CellValue
  model.getCell('C1').value = 5
  model.getCell('D1').value = { formula: '[1]Sheet1!Z99', result: { error: '#REF!' } } as ExcelJS.CellValue
  const zip = await JSZip.loadAsync(Buffer.from(await workbook.xlsx.writeBuffer()))
  const workbookXml = await zip.file('xl/workbook.xml')!.async('string')
  zip.file('xl/workbook.xml', workbookXml.replace('</sheets>', '</sheets><externalReferences><externalReference r:id="rIdLink1"/></externalReferences>'))
  const rels = await zip.file('xl/_rels/workbook.xml.rels')!.async('string')
  zip.file(
    'xl/_rels/workbook.xml.rels',
    rels.replace(
      '</Relationships>',
      '<Relationship Id="rIdLink1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/externalLink" Target="externalLinks/externalLink1.xml"/></Relationships>',
    ),
  )
  zip.file('xl/externalLinks/externalLink1.xml', BUDGET_LINK_XML)
  zip.file(
    'xl/externalLinks/_rels/externalLink1.xml.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/externalLinkPath" Target="${target}" TargetMode="External"/></Relationships>`,
  )
  const types = await zip.file('[Content_Types].xml')!.async('string')
  zip.file(
    '[Content_Types].xml',
    types.replace(
      '</Types>',
      '<Override PartName="/xl/externalLinks/externalLink1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.externalLink+xml"/></Types>',
    ),
  )
  return Buffer.from(await zip.generateAsync({ type: 'uint8array' }))
}
