/**
 * Charts and pictures of an imported workbook, kept as the file held them and written back on export.
 *
 * The workbook model does not hold Excel's charts (nor can exceljs write them), so a sheet's drawing
 * part and every part it leads to (charts, their styles and colours, pictures, embedded data) are kept
 * at import as opaque parts and written back unchanged into the exported file, with the content types,
 * the sheet's relationship and its `<drawing>` element they need. A chart reads its data from other
 * sheets by name (`Data!$B$2:$B$9`): a renamed sheet is renamed in its formulas too, and a chart whose
 * sheet was deleted is left out (and named in the export's notes) rather than written broken.
 */
import JSZip from 'jszip'
import { formatSheetPrefix } from '@finsheet/formula'
import { MAX_KEPT_DRAWING_BYTES } from '@finsheet/contracts'
import { attribute, decodeXml, encodeXml } from './xml-text.js'

/** One part of a kept drawing: its path in the original file, content type and bytes (base64). */
export interface KeptPart {
  path: string
  contentType: string
  data: string
  /** The part's relationships: to other kept parts by path, or external addresses as written. */
  relationships?: KeptRelationship[]
}

export interface KeptRelationship {
  id: string
  type: string
  target: string
  external?: boolean
}

/** A sheet's drawing as the file held it: its root part, every part it leads to, and its charts. */
export interface KeptDrawing {
  /** The drawing part (`xl/drawings/drawing1.xml`). */
  root: string
  parts: KeptPart[]
  /** Each chart part with the sheets its formulas read, by the names the file gave them. */
  charts: { part: string; sheets: string[] }[]
  pictures: number
}

/** A kept drawing as a workbook stores it: the sheet it sits on and the sheets its charts name, by id. */
export interface KeptDrawingPlacement {
  sheetId: string
  /** The file's sheet names the charts read, with the id of the sheet each became. */
  sheetIds: Record<string, string>
  drawing: KeptDrawing
}

export { MAX_KEPT_DRAWING_BYTES }

const DRAWING_RELATIONSHIP = /\/relationships\/drawing$/i
const CHART_RELATIONSHIP = /\/relationships\/chart$/i
const IMAGE_RELATIONSHIP = /\/relationships\/image$/i
const DRAWING_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing'
const RELATIONSHIPS_NAMESPACE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'

/** The relationships part of a part: `xl/drawings/_rels/drawing1.xml.rels` for `xl/drawings/drawing1.xml`. */
export function relationshipsPartOf(part: string): string {
  const slash = part.lastIndexOf('/')
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`
}

/** A relationship's target resolved against the folder of the part that names it. */
function resolveTarget(part: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1)
  const segments = part.split('/').slice(0, -1)
  for (const segment of target.split('/')) {
    if (segment === '..') segments.pop()
    else if (segment !== '.' && segment !== '') segments.push(segment)
  }
  return segments.join('/')
}

/** The path from the folder of `from` to `to`, as a relationship's target states it. */
function relativeTarget(from: string, to: string): string {
  const base = from.split('/').slice(0, -1)
  const target = to.split('/')
  let common = 0
  while (common < base.length && common < target.length - 1 && base[common] === target[common]) common++
  return [...base.slice(common).map(() => '..'), ...target.slice(common)].join('/')
}

function parseRelationships(part: string, xml: string): KeptRelationship[] {
  const relationships: KeptRelationship[] = []
  for (const match of xml.matchAll(/<(?:\w+:)?Relationship\b([^>]*?)\/?>/g)) {
    const id = attribute(match[1], 'Id')
    const target = attribute(match[1], 'Target')
    if (!id || target === undefined) continue
    const external = attribute(match[1], 'TargetMode') === 'External'
    relationships.push({ id, type: attribute(match[1], 'Type') ?? '', target: external ? target : resolveTarget(part, target), ...(external ? { external } : {}) })
  }
  return relationships
}

/** The content types a package states: by part name (overrides) and by extension (defaults). */
export interface ContentTypes {
  overrides: Map<string, string>
  defaults: Map<string, string>
}

export function parseContentTypes(xml: string | undefined): ContentTypes {
  const types: ContentTypes = { overrides: new Map(), defaults: new Map() }
  for (const match of (xml ?? '').matchAll(/<(?:\w+:)?(Override|Default)\b([^>]*?)\/?>/g)) {
    const contentType = attribute(match[2], 'ContentType')
    if (!contentType) continue
    if (match[1] === 'Override') {
      const name = attribute(match[2], 'PartName')
      if (name) types.overrides.set(name.replace(/^\//, '').toLowerCase(), contentType)
    } else {
      const extension = attribute(match[2], 'Extension')
      if (extension) types.defaults.set(extension.toLowerCase(), contentType)
    }
  }
  return types
}

function contentTypeOf(types: ContentTypes, part: string): string | undefined {
  return types.overrides.get(part.toLowerCase()) ?? types.defaults.get(part.slice(part.lastIndexOf('.') + 1).toLowerCase())
}

/** The texts of a chart's formulas (`<c:f>`): where its series, categories and titles read. */
function chartFormulas(xml: string): string[] {
  return [...xml.matchAll(/<(?:\w+:)?f(?:\s[^>]*)?>([\s\S]*?)<\/(?:\w+:)?f>/g)].map((match) => decodeXml(match[1]))
}

/** A sheet name before `!` in a formula: quoted (`'Q1 Data'!`) or plain (`Data!`). */
const SHEET_PREFIX = /'((?:[^']|'')+)'!|([^\s'!(),:;=+\-*/^&<>{}"[\]]+)!/g

/** The sheet names a chart formula reads, as written (quotes undone). */
export function formulaSheetNames(formula: string): string[] {
  const names: string[] = []
  for (const match of formula.matchAll(SHEET_PREFIX)) names.push(match[1] !== undefined ? match[1].replace(/''/g, "'") : match[2])
  return names
}

/** A chart formula with its sheet names replaced as `rename` says (names it does not know stay). */
export function renameFormulaSheets(formula: string, rename: (name: string) => string | undefined): string {
  return formula.replace(SHEET_PREFIX, (whole, quoted: string | undefined, plain: string | undefined) => {
    const name = quoted !== undefined ? quoted.replace(/''/g, "'") : (plain as string)
    const renamed = rename(name)
    return renamed === undefined || renamed === name ? whole : `${formatSheetPrefix(renamed)}!`
  })
}

/**
 * Reads the drawing of the worksheet at `sheetPart` and every part it leads to; undefined when the
 * sheet has no drawing. `read` gives a part's bytes, or undefined when the file has no such part.
 */
export async function readKeptDrawing(sheetPart: string, types: ContentTypes, read: (part: string) => Promise<Buffer | undefined>): Promise<KeptDrawing | undefined> {
  const sheetRelationships = await read(relationshipsPartOf(sheetPart))
  if (!sheetRelationships) return undefined
  const drawing = parseRelationships(sheetPart, sheetRelationships.toString('utf8')).find((relationship) => !relationship.external && DRAWING_RELATIONSHIP.test(relationship.type))
  if (!drawing) return undefined
  const parts: KeptPart[] = []
  const charts: KeptDrawing['charts'] = []
  const pictureParts: string[] = []
  const seen = new Set<string>()
  const queue = [drawing.target]
  while (queue.length > 0) {
    const path = queue.shift() as string
    if (seen.has(path.toLowerCase())) continue
    seen.add(path.toLowerCase())
    const bytes = await read(path)
    const contentType = contentTypeOf(types, path)
    if (!bytes || !contentType) continue
    const relationshipsXml = await read(relationshipsPartOf(path))
    const relationships = relationshipsXml ? parseRelationships(path, relationshipsXml.toString('utf8')) : []
    for (const relationship of relationships) {
      if (relationship.external) continue
      queue.push(relationship.target)
      if (path === drawing.target && IMAGE_RELATIONSHIP.test(relationship.type)) pictureParts.push(relationship.target)
    }
    if (path === drawing.target) {
      for (const relationship of relationships) if (CHART_RELATIONSHIP.test(relationship.type) && !relationship.external) charts.push({ part: relationship.target, sheets: [] })
    }
    parts.push({ path, contentType, data: bytes.toString('base64'), ...(relationships.length > 0 ? { relationships } : {}) })
  }
  if (!parts.some((part) => part.path === drawing.target)) return undefined
  for (const chart of charts) {
    const part = parts.find((candidate) => candidate.path === chart.part)
    if (!part) continue
    const names = new Set<string>()
    for (const formula of chartFormulas(Buffer.from(part.data, 'base64').toString('utf8'))) for (const name of formulaSheetNames(formula)) names.add(name)
    chart.sheets = [...names]
  }
  // Only what the file really holds counts as kept: a chart or picture whose part is missing is not.
  const pictures = pictureParts.filter((target) => parts.some((part) => part.path === target)).length
  return { root: drawing.target, parts, charts: charts.filter((chart) => parts.some((part) => part.path === chart.part)), pictures }
}

/** The bytes a kept drawing holds. */
export function keptDrawingBytes(drawing: KeptDrawing): number {
  return drawing.parts.reduce((sum, part) => sum + Math.floor((part.data.length * 3) / 4), 0)
}

// ---------------------------------------------------------------------------------------------------------
// Export
// ---------------------------------------------------------------------------------------------------------

/** A kept drawing ready to write: the sheet it goes on (by position), the charts left out, and renames. */
interface PlannedDrawing {
  sheetIndex: number
  drawing: KeptDrawing
  /** Chart parts left out: a sheet they read is gone. */
  dropped: Set<string>
  /** The file's sheet names as the workbook names those sheets now. */
  names: Map<string, string>
}

export interface KeptDrawingsResult {
  bytes: Buffer
  /** What could not be written back, for the export's notes (`charts: 1 not exported, sheet Data was deleted`). */
  notExported: string[]
}

/**
 * Writes the kept drawings of the workbook's sheets into an exported xlsx file. `sheets` are the
 * exported sheets in file order (ids and names); a drawing whose sheet is gone is left out, a chart
 * reading a sheet that is gone is left out of its drawing, and both are counted in `notExported`.
 */
export async function withKeptDrawings(
  xlsx: Buffer,
  sheets: readonly { id: string; name: string }[],
  placements: readonly KeptDrawingPlacement[],
): Promise<KeptDrawingsResult> {
  const notExported: string[] = []
  const planned: PlannedDrawing[] = []
  const byId = new Map(sheets.map((sheet, index) => [sheet.id, { ...sheet, index }]))
  let chartsWithSheet = 0
  const missingSheets = new Set<string>()
  for (const placement of placements) {
    const host = byId.get(placement.sheetId)
    if (!host) {
      chartsWithSheet += placement.drawing.charts.length
      continue
    }
    const names = new Map<string, string>()
    const gone = new Set<string>()
    for (const [name, id] of Object.entries(placement.sheetIds)) {
      const now = byId.get(id)
      if (now) names.set(name.toUpperCase(), now.name)
      else gone.add(name.toUpperCase())
    }
    const dropped = new Set<string>()
    for (const chart of placement.drawing.charts) {
      const lost = chart.sheets.filter((name) => gone.has(name.toUpperCase()) || (!names.has(name.toUpperCase()) && !sheets.some((sheet) => sheet.name.toUpperCase() === name.toUpperCase())))
      if (lost.length === 0) continue
      dropped.add(chart.part)
      for (const name of lost) missingSheets.add(name)
    }
    planned.push({ sheetIndex: host.index, drawing: placement.drawing, dropped, names })
  }
  const droppedCharts = planned.reduce((sum, plan) => sum + plan.dropped.size, 0)
  if (droppedCharts > 0) notExported.push(`charts: ${droppedCharts} not exported, the sheets they read were deleted (${[...missingSheets].join(', ')})`)
  if (chartsWithSheet > 0) notExported.push(`charts: ${chartsWithSheet} not exported, their sheets were deleted`)
  if (planned.length === 0) return { bytes: xlsx, notExported }

  const zip = await JSZip.loadAsync(xlsx)
  const sheetParts = await sheetPartsOf(zip)
  const taken = new Set(Object.keys(zip.files).map((name) => name.toLowerCase()))
  const contentTypes: string[] = []
  for (const plan of planned) {
    const sheetPart = sheetParts[plan.sheetIndex]
    if (!sheetPart) continue
    const written = await writeDrawing(zip, sheetPart, plan, taken, contentTypes)
    if (!written) notExported.push(`charts: ${plan.drawing.charts.length} not exported from sheet ${sheets[plan.sheetIndex].name}`)
  }
  const types = await zip.file('[Content_Types].xml')?.async('string')
  if (types !== undefined && contentTypes.length > 0) zip.file('[Content_Types].xml', types.replace('</Types>', contentTypes.join('') + '</Types>'))
  return { bytes: await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }), notExported }
}

/** Each sheet's part, in workbook order. */
async function sheetPartsOf(zip: JSZip): Promise<string[]> {
  const workbookXml = (await zip.file('xl/workbook.xml')?.async('string')) ?? ''
  const relationships = parseRelationships('xl/workbook.xml', (await zip.file('xl/_rels/workbook.xml.rels')?.async('string')) ?? '')
  const sheets = /<(?:\w+:)?sheets\b[^>]*>([\s\S]*?)<\/(?:\w+:)?sheets>/.exec(workbookXml)?.[1] ?? ''
  return [...sheets.matchAll(/<(?:\w+:)?sheet\b([^>]*?)\/?>/g)].map((match) => {
    const id = attribute(match[1], 'r:id')
    return relationships.find((relationship) => relationship.id === id)?.target ?? ''
  })
}

/** A new part name beside the original, taken by nothing in the file (`xl/charts/chart3.xml`). */
function freeName(path: string, taken: Set<string>): string {
  const slash = path.lastIndexOf('/')
  const folder = path.slice(0, slash + 1)
  const file = path.slice(slash + 1)
  const dot = file.lastIndexOf('.')
  const stem = (dot < 0 ? file : file.slice(0, dot)).replace(/\d+$/, '')
  const extension = dot < 0 ? '' : file.slice(dot)
  for (let n = 1; ; n++) {
    const candidate = `${folder}${stem}${n}${extension}`
    if (!taken.has(candidate.toLowerCase())) {
      taken.add(candidate.toLowerCase())
      return candidate
    }
  }
}

const ANCHOR = /<((?:\w+:)?)(twoCellAnchor|oneCellAnchor|absoluteAnchor)\b[\s\S]*?<\/\1\2>/g
const RELATIONSHIP_ATTRIBUTE = /(\s[\w]+:(?:id|embed|link|pict|dm|lo|qs|cs))="([^"]*)"/g

function relationshipsXml(relationships: readonly { id: string; type: string; target: string; external?: boolean }[]): string {
  const body = relationships
    .map((relationship) => `<Relationship Id="${encodeXml(relationship.id)}" Type="${encodeXml(relationship.type)}" Target="${encodeXml(relationship.target)}"${relationship.external ? ' TargetMode="External"' : ''}/>`)
    .join('')
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${body}</Relationships>`
}

/** The root element's start tag and its body, of a drawing part. */
function splitRoot(xml: string): { start: string; body: string; end: string } | undefined {
  const start = /<((?:\w+:)?)wsDr\b[^>]*>/.exec(xml)
  if (!start) return undefined
  const endTag = `</${start[1]}wsDr>`
  const end = xml.lastIndexOf(endTag)
  if (end < 0) return undefined
  return { start: start[0], body: xml.slice(start.index + start[0].length, end), end: xml.slice(end) }
}

function namespaces(startTag: string): Map<string, string> {
  return new Map([...startTag.matchAll(/\sxmlns(?::(\w+))?="([^"]*)"/g)].map((match) => [match[1] ?? '', match[2]]))
}

/** Writes one kept drawing onto its sheet; false when it cannot be joined with the sheet's own drawing. */
async function writeDrawing(zip: JSZip, sheetPart: string, plan: PlannedDrawing, taken: Set<string>, contentTypes: string[]): Promise<boolean> {
  const { drawing } = plan
  const partsByPath = new Map(drawing.parts.map((part) => [part.path, part]))
  const root = partsByPath.get(drawing.root)
  if (!root) return false
  let rootXml = Buffer.from(root.data, 'base64').toString('utf8')
  // Anchors of charts left out go, with their relationships.
  const droppedIds = new Set((root.relationships ?? []).filter((relationship) => plan.dropped.has(relationship.target)).map((relationship) => relationship.id))
  if (droppedIds.size > 0) {
    rootXml = rootXml.replace(ANCHOR, (anchor) => ([...anchor.matchAll(RELATIONSHIP_ATTRIBUTE)].some((match) => droppedIds.has(match[2])) ? '' : anchor))
  }
  const rootRelationships = (root.relationships ?? []).filter((relationship) => !droppedIds.has(relationship.id))

  // The parts still reached from the drawing, each under a name free in the file.
  const reached: KeptPart[] = []
  const queue = rootRelationships.filter((relationship) => !relationship.external).map((relationship) => relationship.target)
  const seen = new Set<string>()
  while (queue.length > 0) {
    const path = queue.shift() as string
    if (seen.has(path)) continue
    seen.add(path)
    const part = partsByPath.get(path)
    if (!part) continue
    reached.push(part)
    for (const relationship of part.relationships ?? []) if (!relationship.external) queue.push(relationship.target)
  }
  const newName = new Map<string, string>()
  for (const part of reached) newName.set(part.path, freeName(part.path, taken))

  const sheetXml = await zip.file(sheetPart)?.async('string')
  if (sheetXml === undefined) return false
  const sheetRelationshipsPath = relationshipsPartOf(sheetPart)
  const sheetRelationships = parseRelationships(sheetPart, (await zip.file(sheetRelationshipsPath)?.async('string')) ?? '')
  const existingId = /<(?:\w+:)?drawing\b[^>]*?\br:id="([^"]*)"/.exec(sheetXml)?.[1]
  const existing = existingId === undefined ? undefined : sheetRelationships.find((relationship) => relationship.id === existingId)

  let drawingPath: string
  let drawingRelationships: KeptRelationship[]
  const targetOf = (relationship: KeptRelationship, from: string): KeptRelationship =>
    relationship.external ? relationship : { ...relationship, target: relativeTarget(from, newName.get(relationship.target) ?? relationship.target) }
  if (existing) {
    // The sheet has a drawing already (charts made in Finsheet, drawn as pictures): the kept anchors join it.
    drawingPath = existing.target
    const own = await zip.file(drawingPath)?.async('string')
    const ownRoot = own === undefined ? undefined : splitRoot(own)
    const keptRoot = splitRoot(rootXml)
    if (!ownRoot || !keptRoot) return false
    const ownNamespaces = namespaces(ownRoot.start)
    const added: string[] = []
    for (const [prefix, uri] of namespaces(keptRoot.start)) {
      const present = ownNamespaces.get(prefix)
      if (present === undefined) added.push(prefix === '' ? ` xmlns="${uri}"` : ` xmlns:${prefix}="${uri}"`)
      else if (present !== uri) return false
    }
    const ownRelationships = parseRelationships(drawingPath, (await zip.file(relationshipsPartOf(drawingPath))?.async('string')) ?? '')
    const renamedIds = new Map(rootRelationships.map((relationship, index) => [relationship.id, `rIdKept${index + 1}`]))
    const body = keptRoot.body.replace(RELATIONSHIP_ATTRIBUTE, (whole, name: string, id: string) => (renamedIds.has(id) ? `${name}="${renamedIds.get(id)}"` : whole))
    const start = ownRoot.start.replace(/\s*(\/?)>$/, `${added.join('')}$1>`)
    zip.file(drawingPath, (own ?? '').slice(0, (own ?? '').indexOf(ownRoot.start)) + start + ownRoot.body + body + ownRoot.end)
    drawingRelationships = [
      ...ownRelationships.map((relationship) => (relationship.external ? relationship : { ...relationship, target: relativeTarget(drawingPath, relationship.target) })),
      ...rootRelationships.map((relationship) => ({ ...targetOf(relationship, drawingPath), id: renamedIds.get(relationship.id) as string })),
    ]
  } else {
    drawingPath = freeName(drawing.root, taken)
    zip.file(drawingPath, rootXml)
    contentTypes.push(`<Override PartName="/${encodeXml(drawingPath)}" ContentType="${encodeXml(root.contentType)}"/>`)
    drawingRelationships = rootRelationships.map((relationship) => targetOf(relationship, drawingPath))
    const id = uniqueId(sheetRelationships.map((relationship) => relationship.id), 'rIdKeptDrawing')
    const withRelationship = [...sheetRelationships.map((relationship) => (relationship.external ? relationship : { ...relationship, target: relativeTarget(sheetPart, relationship.target) })), { id, type: DRAWING_TYPE, target: relativeTarget(sheetPart, drawingPath) }]
    zip.file(sheetRelationshipsPath, relationshipsXml(withRelationship))
    zip.file(sheetPart, withDrawingElement(sheetXml, id))
  }
  if (drawingRelationships.length > 0) zip.file(relationshipsPartOf(drawingPath), relationshipsXml(drawingRelationships))

  for (const part of reached) {
    const path = newName.get(part.path) as string
    let bytes: Buffer | string = Buffer.from(part.data, 'base64')
    if (/drawingml\.chart\+xml$/i.test(part.contentType) && plan.names.size > 0) bytes = renameChartSheets(bytes.toString('utf8'), plan.names)
    zip.file(path, bytes)
    contentTypes.push(`<Override PartName="/${encodeXml(path)}" ContentType="${encodeXml(part.contentType)}"/>`)
    const relationships = (part.relationships ?? []).map((relationship) => targetOf(relationship, path))
    if (relationships.length > 0) zip.file(relationshipsPartOf(path), relationshipsXml(relationships))
  }
  return true
}

function uniqueId(ids: readonly string[], base: string): string {
  if (!ids.includes(base)) return base
  for (let n = 2; ; n++) if (!ids.includes(`${base}${n}`)) return `${base}${n}`
}

/** A chart's formulas reading the sheets by the names the workbook gives them now. */
function renameChartSheets(xml: string, names: ReadonlyMap<string, string>): string {
  return xml.replace(/(<(?:\w+:)?f(?:\s[^>]*)?>)([\s\S]*?)(<\/(?:\w+:)?f>)/g, (_whole, open: string, text: string, close: string) => {
    const renamed = renameFormulaSheets(decodeXml(text), (name) => names.get(name.toUpperCase()))
    return open + encodeXml(renamed) + close
  })
}

/**
 * The worksheet with its `<drawing r:id>`, where the schema places it: after the page setup and
 * breaks, before the legacy drawing (notes), controls, table parts and extensions.
 */
function withDrawingElement(xml: string, id: string): string {
  const rootStart = /<((?:\w+:)?)worksheet\b[^>]*>/.exec(xml)
  const prefix = rootStart?.[1] ?? ''
  let out = xml
  let rPrefix = 'r'
  const declared = rootStart ? [...rootStart[0].matchAll(/\sxmlns:(\w+)="([^"]*)"/g)].find((match) => match[2] === RELATIONSHIPS_NAMESPACE) : undefined
  if (declared) rPrefix = declared[1]
  else if (rootStart) out = out.replace(rootStart[0], rootStart[0].replace(/>$/, ` xmlns:r="${RELATIONSHIPS_NAMESPACE}">`))
  const element = `<${prefix}drawing ${rPrefix}:id="${id}"/>`
  const following = ['legacyDrawing', 'legacyDrawingHF', 'drawingHF', 'picture', 'oleObjects', 'controls', 'webPublishItems', 'tableParts', 'extLst']
  for (const name of following) {
    const at = out.search(new RegExp(`<${prefix}${name}\\b`))
    if (at >= 0) return out.slice(0, at) + element + out.slice(at)
  }
  const end = out.lastIndexOf(`</${prefix}worksheet>`)
  return end < 0 ? out : out.slice(0, end) + element + out.slice(end)
}
