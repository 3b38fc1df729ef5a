/**
 * An xlsx file with charts and a picture, as Excel saves them, for the tests of kept drawings: exceljs
 * cannot write charts, so the drawing and chart parts are written here by hand. Sheets: Data (years and
 * revenue, with a picture), 'Q1 Costs' (costs) and Summary, which holds two column charts, one reading
 * Data and one reading 'Q1 Costs'.
 */
import ExcelJS from 'exceljs'
import JSZip from 'jszip'

const CHART_NS = 'http://schemas.openxmlformats.org/drawingml/2006/chart'
const MAIN_NS = 'http://schemas.openxmlformats.org/drawingml/2006/main'
const DRAWING_NS = 'http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing'
const RELATIONSHIPS_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'

/** A red pixel, as a PNG. */
export const PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64')

function columnChart(title: string, sheetPrefix: string, categories: string[], values: number[]): string {
  const points = (list: readonly (string | number)[]) => list.map((value, index) => `<c:pt idx="${index}"><c:v>${value}</c:v></c:pt>`).join('')
  const last = categories.length + 1
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    `<c:chartSpace xmlns:c="${CHART_NS}" xmlns:a="${MAIN_NS}" xmlns:r="${RELATIONSHIPS_NS}"><c:chart>` +
    `<c:title><c:tx><c:strRef><c:f>${sheetPrefix}!$B$1</c:f><c:strCache><c:ptCount val="1"/>${points([title])}</c:strCache></c:strRef></c:tx><c:overlay val="0"/></c:title>` +
    '<c:autoTitleDeleted val="0"/><c:plotArea><c:layout/><c:barChart><c:barDir val="col"/><c:grouping val="clustered"/><c:varyColors val="0"/>' +
    `<c:ser><c:idx val="0"/><c:order val="0"/><c:tx><c:strRef><c:f>${sheetPrefix}!$B$1</c:f><c:strCache><c:ptCount val="1"/>${points([title])}</c:strCache></c:strRef></c:tx>` +
    `<c:cat><c:strRef><c:f>${sheetPrefix}!$A$2:$A$${last}</c:f><c:strCache><c:ptCount val="${categories.length}"/>${points(categories)}</c:strCache></c:strRef></c:cat>` +
    `<c:val><c:numRef><c:f>${sheetPrefix}!$B$2:$B$${last}</c:f><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="${values.length}"/>${points(values)}</c:numCache></c:numRef></c:val></c:ser>` +
    '<c:axId val="111"/><c:axId val="222"/></c:barChart>' +
    '<c:catAx><c:axId val="111"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="b"/><c:crossAx val="222"/></c:catAx>' +
    '<c:valAx><c:axId val="222"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="l"/><c:crossAx val="111"/></c:valAx>' +
    '</c:plotArea><c:plotVisOnly val="1"/></c:chart></c:chartSpace>'
  )
}

function anchor(from: [number, number], to: [number, number], content: string): string {
  const corner = (tag: string, [col, row]: [number, number]) => `<xdr:${tag}><xdr:col>${col}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${row}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:${tag}>`
  return `<xdr:twoCellAnchor>${corner('from', from)}${corner('to', to)}${content}<xdr:clientData/></xdr:twoCellAnchor>`
}

function chartFrame(id: number, relationship: string): string {
  return (
    `<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="${id}" name="Chart ${id}"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr>` +
    '<xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm>' +
    `<a:graphic><a:graphicData uri="${CHART_NS}"><c:chart xmlns:c="${CHART_NS}" xmlns:r="${RELATIONSHIPS_NS}" r:id="${relationship}"/></a:graphicData></a:graphic></xdr:graphicFrame>`
  )
}

function picture(id: number, relationship: string): string {
  return (
    `<xdr:pic><xdr:nvPicPr><xdr:cNvPr id="${id}" name="Picture ${id}"/><xdr:cNvPicPr><a:picLocks noChangeAspect="1"/></xdr:cNvPicPr></xdr:nvPicPr>` +
    `<xdr:blipFill><a:blip xmlns:r="${RELATIONSHIPS_NS}" r:embed="${relationship}"/><a:stretch><a:fillRect/></a:stretch></xdr:blipFill>` +
    '<xdr:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></xdr:spPr></xdr:pic>'
  )
}

const drawingXml = (anchors: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<xdr:wsDr xmlns:xdr="${DRAWING_NS}" xmlns:a="${MAIN_NS}">${anchors}</xdr:wsDr>`

const relationships = (list: [string, string, string][]) =>
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  list.map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`).join('') +
  '</Relationships>'

export const CHART_WORKBOOK = {
  years: ['2021', '2022', '2023', '2024'],
  revenue: [120, 150, 185, 210],
  quarters: ['Jan', 'Feb', 'Mar'],
  costs: [40, 42, 47],
}

/** The workbook with charts; its sheet parts are sheet1 (Data), sheet2 (Q1 Costs) and sheet3 (Summary). */
export async function makeChartWorkbook(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  const data = workbook.addWorksheet('Data')
  data.addRow(['Year', 'Revenue'])
  CHART_WORKBOOK.years.forEach((year, index) => data.addRow([year, CHART_WORKBOOK.revenue[index]]))
  const costs = workbook.addWorksheet('Q1 Costs')
  costs.addRow(['Month', 'Costs'])
  CHART_WORKBOOK.quarters.forEach((month, index) => costs.addRow([month, CHART_WORKBOOK.costs[index]]))
  const summary = workbook.addWorksheet('Summary')
  summary.getCell('A1').value = { formula: 'SUM(Data!B2:B5)', result: 665 } as ExcelJS.CellValue
  const zip = await JSZip.loadAsync((await workbook.xlsx.writeBuffer()) as ArrayBuffer)

  zip.file('xl/charts/chart1.xml', columnChart('Revenue', 'Data', CHART_WORKBOOK.years, CHART_WORKBOOK.revenue))
  zip.file('xl/charts/chart2.xml', columnChart('Costs', "'Q1 Costs'", CHART_WORKBOOK.quarters, CHART_WORKBOOK.costs))
  zip.file('xl/drawings/drawing1.xml', drawingXml(anchor([0, 3], [1, 6], picture(2, 'rId1'))))
  zip.file('xl/drawings/_rels/drawing1.xml.rels', relationships([['rId1', 'image', '../media/image1.png']]))
  zip.file('xl/drawings/drawing2.xml', drawingXml(anchor([1, 2], [8, 16], chartFrame(2, 'rId1')) + anchor([9, 2], [16, 16], chartFrame(3, 'rId2'))))
  zip.file('xl/drawings/_rels/drawing2.xml.rels', relationships([['rId1', 'chart', '../charts/chart1.xml'], ['rId2', 'chart', '../charts/chart2.xml']]))
  zip.file('xl/media/image1.png', PIXEL_PNG)
  for (const [sheet, drawing] of [['sheet1', 'drawing1'], ['sheet3', 'drawing2']]) {
    const part = `xl/worksheets/${sheet}.xml`
    const xml = (await zip.file(part)?.async('string')) as string
    zip.file(part, xml.replace('</worksheet>', '<drawing r:id="rIdDrawing"/></worksheet>'))
    zip.file(`xl/worksheets/_rels/${sheet}.xml.rels`, relationships([['rIdDrawing', 'drawing', `../drawings/${drawing}.xml`]]))
  }
  const types = (await zip.file('[Content_Types].xml')?.async('string')) as string
  const overrides = [
    ['/xl/charts/chart1.xml', 'application/vnd.openxmlformats-officedocument.drawingml.chart+xml'],
    ['/xl/charts/chart2.xml', 'application/vnd.openxmlformats-officedocument.drawingml.chart+xml'],
    ['/xl/drawings/drawing1.xml', 'application/vnd.openxmlformats-officedocument.drawing+xml'],
    ['/xl/drawings/drawing2.xml', 'application/vnd.openxmlformats-officedocument.drawing+xml'],
  ]
  const png = types.includes('Extension="png"') ? '' : '<Default Extension="png" ContentType="image/png"/>'
  zip.file('[Content_Types].xml', types.replace('</Types>', png + overrides.map(([name, type]) => `<Override PartName="${name}" ContentType="${type}"/>`).join('') + '</Types>'))
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' })
}
