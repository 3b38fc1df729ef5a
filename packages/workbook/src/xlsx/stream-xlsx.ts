/**
 * Streaming xlsx reading for imports of any size. Beside read-xlsx.ts, which loads a whole workbook
 * through exceljs for the engine and the CLI, this reader inflates one part at a time from disk and
 * parses it with saxes as it arrives, so memory holds the cells read so far and never the file or its
 * XML. It also keeps what an import must show and read-xlsx does not: fonts, fills, borders,
 * alignment, column widths, row heights, merges and defined names. Sizes are checked against the
 * zip's central directory before anything inflates, and cells are counted against a limit as they come.
 * An import's second pass, over the cells alone, scans each sheet's sheetData by hand
 * (sheet-data-scanner.ts) rather than through saxes.
 */
import { columnToLetters, errorFromText, parseFormulaText, printFormulaTree, type FormulaNode } from '@finsheet/formula'
import {
  DEFAULT_IMPORT_LIMITS,
  formatCount,
  ImportFileError,
  type ImportedCell,
  type ImportedDefinedName,
  type ImportedSheet,
  type ImportedStyle,
  type ImportedValue,
  type ImportedWorkbook,
  type ImportLimits,
  type ProgressListener,
} from '../import/imported-workbook.js'
import { MAX_OUTLINE_LEVEL, type ConditionalStyle, type DataValidationRule, type SheetFilter } from '@finsheet/contracts'
import { ConditionalFormatCollector, readDifferentialFormats } from './conditional-formats.js'
import { normalizeFormula } from './formula-text.js'
import { readPageSetup } from './page-setup-xlsx.js'
import { dataTableFormula } from './data-table-formula.js'
import { readTables } from './table-parts.js'
import { calculationFromAttributes, type CalculationSettings } from '../model/calculation.js'
import { colorAttributes, createXmlParser, localName, readStyles, readThemeColors, resolveColor, type XmlParser } from './xlsx-styles.js'
import { openZipParts, partError, type ZipParts } from './zip-entries.js'
import { readExternalLinks } from './external-links.js'
import { readAutoFilter } from './auto-filter.js'
import { SheetDataScanner, type ScannedCell, type SheetDataHandler } from './sheet-data-scanner.js'
import { parsePersons, readSheetAttachments, type CarriedFeature, type SheetHyperlink } from './sheet-extras.js'
import { ruleFromXml, type DataValidationXml } from './data-validations.js'
import { keptDrawingBytes, MAX_KEPT_DRAWING_BYTES, parseContentTypes, readKeptDrawing } from './kept-drawings.js'

export interface StreamXlsxOptions {
  limits?: Partial<ImportLimits>
  onProgress?: ProgressListener
}

interface SheetEntry {
  name: string
  state: ImportedSheet['state']
  part: string
}

const RELATIONSHIP_OFFICE = 'officeDocument/2006/relationships/'

/** Reads the xlsx file at `path` into an {@link ImportedWorkbook}, refusing files past the limits. */
export async function readXlsxFile(path: string, options: StreamXlsxOptions = {}): Promise<ImportedWorkbook> {
  const limits = { ...DEFAULT_IMPORT_LIMITS, ...options.limits }
  const zip = await openZipParts(path, limits)
  try {
    return (await readParts(zip, limits, options.onProgress, 'all')).workbook
  } finally {
    zip.close()
  }
}

/** An xlsx file read for an import that streams its cells: see {@link openXlsxImport}. */
export interface XlsxImportSource {
  /**
   * The workbook without its cells (each sheet's `cells` is empty): sheets with their layout, names,
   * tables, links, drawings, and every look the file's cells may name in `styles`. Its cell and
   * formula counts grow as the cells are read.
   */
  workbook: ImportedWorkbook
  /**
   * A sheet's cells in batches, read from the file as they are asked for; each sheet once, in order.
   * Throws an {@link ImportFileError} for a damaged part or once the cells pass the limit.
   */
  cells(sheetIndex: number): AsyncGenerator<ImportedCell[]>
  /** Closes the file; call once the cells are read (or the import is given up). */
  close(): void
}

/**
 * Opens the xlsx file at `path` for an import that never holds its cells: everything but the cells is
 * read at once (the sheets' parts are scanned past their cells), then each sheet's cells are parsed
 * again from the file as they are asked for, so that they can be sent on while the rest is still
 * being read. Progress follows the cells.
 */
export async function openXlsxImport(path: string, options: StreamXlsxOptions = {}): Promise<XlsxImportSource> {
  const limits = { ...DEFAULT_IMPORT_LIMITS, ...options.limits }
  const zip = await openZipParts(path, limits)
  try {
    const { workbook, sheetEntries, context } = await readParts(zip, limits, options.onProgress, 'layout')
    const counted = context.counter
    return {
      workbook,
      async *cells(sheetIndex) {
        const entry = sheetEntries[sheetIndex]
        if (!entry) throw new RangeError(`The workbook has no sheet ${sheetIndex + 1}`)
        for await (const batch of sheetCellBatches(zip, entry, context)) {
          workbook.cellCount = counted.cells
          workbook.formulaCount = counted.formulas
          yield batch
        }
        workbook.cellCount = counted.cells
        workbook.formulaCount = counted.formulas
      },
      close: () => zip.close(),
    }
  } catch (error) {
    zip.close()
    throw error
  }
}

async function readParts(
  zip: ZipParts,
  limits: ImportLimits,
  onProgress: ProgressListener | undefined,
  pass: SheetPass,
): Promise<{ workbook: ImportedWorkbook; sheetEntries: SheetEntry[]; context: SheetContext }> {
  if (!zip.parts.has('xl/workbook.xml')) {
    throw new ImportFileError('CORRUPT_FILE', 'The file is a zip archive but not an xlsx workbook: it has no xl/workbook.xml part.')
  }
  const workbookXml = await readText(zip, 'xl/workbook.xml')
  const relations = zip.parts.has('xl/_rels/workbook.xml.rels') ? readRelations(await readText(zip, 'xl/_rels/workbook.xml.rels')) : new Map<string, Relation>()
  const { sheets, chartSheets, definedNames, printNames, date1904, calculation } = readWorkbookXml(workbookXml, relations)
  if (sheets.length === 0) throw new ImportFileError('CORRUPT_FILE', 'The workbook has no sheets.')

  const partOf = (type: string, fallback: string) => {
    for (const relation of relations.values()) if (relation.type.endsWith(type)) return relation.target
    return zip.parts.has(fallback) ? fallback : undefined
  }
  const themePart = partOf('/theme', 'xl/theme/theme1.xml')
  const stylesPart = partOf('/styles', 'xl/styles.xml')
  const sharedStringsPart = partOf('/sharedStrings', 'xl/sharedStrings.xml')

  const themeColors = readThemeColors(themePart && zip.parts.has(themePart) ? await readText(zip, themePart) : undefined)
  const stylesXml = stylesPart && zip.parts.has(stylesPart) ? await readText(zip, stylesPart) : undefined
  const styleTable = readStyles(stylesXml, themeColors)
  const differentialFormats = readDifferentialFormats(stylesXml, themeColors)

  // Progress follows the inflated bytes of the big parts: shared strings, then each sheet.
  const bigParts = [...(sharedStringsPart && zip.parts.has(sharedStringsPart) ? [sharedStringsPart] : []), ...sheets.map((sheet) => sheet.part)]
  const totalBytes = bigParts.reduce((sum, part) => sum + (zip.parts.get(part)?.uncompressedSize ?? 0), 0) || 1
  let doneBytes = 0
  const progress = (bytes: number) => {
    doneBytes += bytes
    onProgress?.(Math.min(1, doneBytes / totalBytes))
  }

  const sharedStrings = sharedStringsPart && zip.parts.has(sharedStringsPart) ? await readSharedStrings(zip, sharedStringsPart, progress) : []
  const richErrors = await readRichErrors(zip)
  const externalLinks = await readExternalLinks(
    workbookXml,
    zip.parts.has('xl/_rels/workbook.xml.rels') ? await readText(zip, 'xl/_rels/workbook.xml.rels') : '',
    async (path) => (zip.parts.has(path) ? readText(zip, path) : undefined),
  )
  const errorsAsText = await cachesErrorsAsText(zip)

  const styles: ImportedStyle[] = []
  const styleIndexByXf = new Map<number, number | undefined>()
  const styleIndex = (xf: number): number | undefined => {
    if (styleIndexByXf.has(xf)) return styleIndexByXf.get(xf)
    const style = styleTable.byXf[xf]
    const index = style ? styles.push(style) - 1 : undefined
    styleIndexByXf.set(xf, index)
    return index
  }

  // Cells read in a later pass may name any of the file's looks: each is listed up front, in the file's order.
  if (pass === 'layout') for (let xf = 0; xf < styleTable.byXf.length; xf++) styleIndex(xf)

  const counter = { cells: 0, formulas: 0 }
  const context: SheetContext = { sharedStrings, richErrors, errorsAsText, styleIndex, counter, limits, progress, differentialFormats, themeColors }
  const importedSheets: ImportedSheet[] = []
  const readPart = async (part: string) => (zip.parts.has(part) ? readText(zip, part) : undefined)
  const personsPart = [...zip.parts.keys()].find((part) => /^xl\/persons\/[^/]+\.xml$/i.test(part))
  const persons = parsePersons(personsPart ? await readText(zip, personsPart) : undefined)
  const contentTypes = parseContentTypes(zip.parts.has('[Content_Types].xml') ? await readText(zip, '[Content_Types].xml') : undefined)
  const readBytes = async (part: string) => {
    if (!zip.parts.has(part)) return undefined
    const chunks: Buffer[] = []
    try {
      for await (const chunk of await zip.open(part)) chunks.push(chunk as Buffer)
    } catch (error) {
      throw partError(part, error)
    }
    return Buffer.concat(chunks)
  }
  let keptDrawingTotal = 0
  for (const sheet of sheets) {
    if (!zip.parts.has(sheet.part)) throw new ImportFileError('CORRUPT_FILE', `The workbook is incomplete: the part of sheet "${sheet.name}" is missing.`)
    const read = await readSheet(zip, sheet, context, pass)
    const { printTags, ...imported } = read as typeof read & { printTags?: string }
    const pageSetup = readPageSetup(printTags ?? '', printNames.get(importedSheets.length))
    if (pageSetup) imported.pageSetup = pageSetup
    const hyperlinks = imported.hyperlinks
    delete (imported as Partial<typeof imported>).hyperlinks
    const attachments = await readSheetAttachments(sheet.part, hyperlinks, persons, readPart)
    if (Object.keys(attachments.notes).length > 0) imported.notes = attachments.notes
    if (Object.keys(attachments.links).length > 0) imported.links = attachments.links
    const carries = { ...imported.carries, ...attachments.counts }
    // Charts and pictures are kept as the file holds them, to be written back on export, up to a bound.
    const drawing = await readKeptDrawing(sheet.part, contentTypes, readBytes)
    if (drawing && keptDrawingTotal + keptDrawingBytes(drawing) <= MAX_KEPT_DRAWING_BYTES) {
      keptDrawingTotal += keptDrawingBytes(drawing)
      imported.drawing = drawing
      // What the drawing holds is kept; anything counted beyond it (parts missing from the file) is not.
      const charts = (carries.charts ?? 0) - drawing.charts.length
      const pictures = (carries.pictures ?? 0) - drawing.pictures
      if (charts > 0) carries.charts = charts
      else delete carries.charts
      if (pictures > 0) carries.pictures = pictures
      else delete carries.pictures
    }
    if (Object.keys(carries).length > 0) imported.carries = carries
    else delete imported.carries
    importedSheets.push(imported)
  }
  const tables = await readTables(sheets, async (part) => (zip.parts.has(part) ? readText(zip, part) : undefined))
  if (pass === 'all') onProgress?.(1)
  const workbook: ImportedWorkbook = {
    sheets: importedSheets,
    definedNames,
    ...(tables.length > 0 ? { tables: tables.map((table) => ({ ...table, columns: [...table.columns] })) } : {}),
    styles,
    ...(styleTable.defaultFont ? { defaultFont: styleTable.defaultFont } : {}),
    date1904,
    calculation,
    ...(externalLinks.length > 0 ? { externalLinks } : {}),
    ...(chartSheets.length > 0 ? { chartSheets } : {}),
    ...([...zip.parts.keys()].some((part) => /^xl\/vbaProject\.bin$/i.test(part)) ? { macros: true } : {}),
    cellCount: counter.cells,
    formulaCount: counter.formulas,
  }
  return { workbook, sheetEntries: sheets, context }
}

async function readText(zip: ZipParts, part: string): Promise<string> {
  try {
    return await zip.text(part)
  } catch (error) {
    throw partError(part, error)
  }
}

// ---------------------------------------------------------------------------------------------------------
// workbook.xml and its relationships
// ---------------------------------------------------------------------------------------------------------

interface Relation {
  type: string
  target: string
}

function readRelations(xml: string): Map<string, Relation> {
  const relations = new Map<string, Relation>()
  parseWhole(xml, 'xl/_rels/workbook.xml.rels', (name, a) => {
    if (name !== 'Relationship' || !a.Id || !a.Target) return
    const target = a.Target.startsWith('/') ? a.Target.slice(1) : `xl/${a.Target}`
    relations.set(a.Id, { type: a.Type ?? '', target: normalizePath(target) })
  })
  return relations
}

function normalizePath(path: string): string {
  const out: string[] = []
  for (const segment of path.split('/')) {
    if (segment === '..') out.pop()
    else if (segment !== '.' && segment !== '') out.push(segment)
  }
  return out.join('/')
}

function readWorkbookXml(xml: string, relations: Map<string, Relation>) {
  const sheets: SheetEntry[] = []
  const chartSheets: string[] = []
  const definedNames: ImportedDefinedName[] = []
  /** Each sheet's print area and print titles, by its index. */
  const printNames = new Map<number, { printArea?: string; printTitles?: string }>()
  let date1904 = false
  let calculation: CalculationSettings = calculationFromAttributes(undefined)
  let pendingName: { name: string; localSheetId?: string; hidden: boolean; text: string } | null = null
  const parser = createXmlParser()
  parser.on('opentag', (tag) => {
    const name = localName(tag.name)
    const a = tag.attributes as Record<string, string>
    if (name === 'workbookPr') date1904 = a.date1904 === '1' || a.date1904 === 'true'
    else if (name === 'calcPr') calculation = calculationFromAttributes(a)
    else if (name === 'sheet') {
      const relationId = a['r:id'] ?? Object.entries(a).find(([key]) => key.endsWith(':id'))?.[1]
      const relation = relationId ? relations.get(relationId) : undefined
      const part = relation?.target ?? `xl/worksheets/sheet${sheets.length + 1}.xml`
      if (relation && !relation.type.endsWith('/worksheet') && relation.type.includes(RELATIONSHIP_OFFICE)) {
        // Chartsheets carry no cells, only a chart.
        if (relation.type.endsWith('/chartsheet') && a.name) chartSheets.push(a.name)
        return
      }
      sheets.push({ name: a.name ?? `Sheet${sheets.length + 1}`, state: a.state === 'hidden' || a.state === 'veryHidden' ? a.state : 'visible', part })
    } else if (name === 'definedName') {
      pendingName = { name: a.name ?? '', localSheetId: a.localSheetId, hidden: a.hidden === '1' || a.hidden === 'true', text: '' }
    }
  })
  parser.on('text', (text) => {
    if (pendingName) pendingName.text += text
  })
  parser.on('closetag', (tag) => {
    if (localName(tag.name) !== 'definedName' || !pendingName) return
    const entry: { name: string; localSheetId?: string; hidden: boolean; text: string } = pendingName
    pendingName = null
    const printName = /^_xlnm\.Print_(Area|Titles)$/i.exec(entry.name)
    if (printName && entry.localSheetId !== undefined) {
      const index = Number(entry.localSheetId)
      const names = printNames.get(index) ?? {}
      names[printName[1].toLowerCase() === 'area' ? 'printArea' : 'printTitles'] = entry.text
      printNames.set(index, names)
      return
    }
    // Excel's own names (print areas, filter databases) are not the user's.
    if (!entry.name || /^_xl(nm|fn|pm|ws)\./i.test(entry.name)) return
    const sheet = entry.localSheetId !== undefined ? sheets[Number(entry.localSheetId)]?.name : undefined
    if (entry.localSheetId !== undefined && sheet === undefined) return
    const formula = normalizeFormula(entry.text)
    definedNames.push({ name: entry.name, ...(sheet ? { sheet } : {}), formula, ...(entry.hidden ? { hidden: true } : {}) })
  })
  try {
    parser.write(xml).close()
  } catch (error) {
    throw partError('xl/workbook.xml', error)
  }
  return { sheets, chartSheets, definedNames, printNames, date1904, calculation }
}

/** Parses a small part in one go, calling `onTag` with each element's local name and attributes. */
function parseWhole(xml: string, part: string, onTag: (name: string, attributes: Record<string, string>) => void): void {
  const parser = createXmlParser()
  parser.on('opentag', (tag) => onTag(localName(tag.name), tag.attributes as Record<string, string>))
  try {
    parser.write(xml).close()
  } catch (error) {
    throw partError(part, error)
  }
}

/**
 * Excel caches a formula's error result as an error; other applications (Google Sheets, and writers
 * that do not say who they are) as text.
 */
async function cachesErrorsAsText(zip: ZipParts): Promise<boolean> {
  if (!zip.parts.has('docProps/app.xml')) return true
  let application = ''
  let inApplication = false
  const parser = createXmlParser()
  parser.on('opentag', (tag) => (inApplication = localName(tag.name) === 'Application'))
  parser.on('text', (text) => {
    if (inApplication) application += text
  })
  parser.on('closetag', () => (inApplication = false))
  try {
    parser.write(await readText(zip, 'docProps/app.xml')).close()
  } catch {
    return false
  }
  return !/Microsoft Excel/i.test(application)
}

// ---------------------------------------------------------------------------------------------------------
// Rich errors: Excel 365 stores #SPILL! and #CALC! as #VALUE! with a value-metadata index (vm) that
// leads, through xl/metadata.xml, to a rich value of structure _error whose errorType names the error.
// ---------------------------------------------------------------------------------------------------------

const RICH_ERROR_TYPES: Record<string, string> = { '8': '#SPILL!', '13': '#CALC!' }

async function readRichErrors(zip: ZipParts): Promise<Map<number, string>> {
  const errors = new Map<number, string>()
  const parts = ['xl/metadata.xml', 'xl/richData/rdrichvalue.xml', 'xl/richData/rdrichvaluestructure.xml']
  if (!parts.every((part) => zip.parts.has(part))) return errors
  const [metadataXml, valuesXml, structuresXml] = await Promise.all(parts.map((part) => readText(zip, part)))

  const structures: { type?: string; keys: string[] }[] = []
  parseWhole(structuresXml, parts[2], (name, a) => {
    if (name === 's') structures.push({ type: a.t, keys: [] })
    else if (name === 'k') structures.at(-1)?.keys.push(a.n ?? '')
  })

  const richValues: (string | undefined)[] = []
  {
    let structure: { type?: string; keys: string[] } | undefined
    let values: string[] = []
    let text: string | null = null
    const parser = createXmlParser()
    parser.on('opentag', (tag) => {
      const name = localName(tag.name)
      if (name === 'rv') {
        structure = structures[Number((tag.attributes as Record<string, string>).s)]
        values = []
      } else if (name === 'v') text = ''
    })
    parser.on('text', (chunk) => {
      if (text !== null) text += chunk
    })
    parser.on('closetag', (tag) => {
      const name = localName(tag.name)
      if (name === 'v' && text !== null) {
        values.push(text)
        text = null
      } else if (name === 'rv') {
        richValues.push(structure?.type === '_error' ? RICH_ERROR_TYPES[values[structure.keys.indexOf('errorType')] ?? ''] : undefined)
      }
    })
    try {
      parser.write(valuesXml).close()
    } catch (error) {
      throw partError(parts[1], error)
    }
  }

  // futureMetadata XLRICHVALUE blocks name rich values; valueMetadata blocks (1-based, as vm counts) name those blocks.
  const richValueOfBlock: number[] = []
  const valueBlocks: number[] = []
  let section: 'rich' | 'values' | null = null
  parseWhole(metadataXml, parts[0], (name, a) => {
    if (name === 'futureMetadata') section = a.name === 'XLRICHVALUE' ? 'rich' : null
    else if (name === 'valueMetadata') section = 'values'
    else if (name === 'cellMetadata') section = null
    else if (name === 'bk') (section === 'rich' ? richValueOfBlock : section === 'values' ? valueBlocks : []).push(-1)
    else if (name === 'rvb' && section === 'rich' && richValueOfBlock.at(-1) === -1) richValueOfBlock[richValueOfBlock.length - 1] = Number(a.i)
    else if (name === 'rc' && section === 'values' && valueBlocks.at(-1) === -1) valueBlocks[valueBlocks.length - 1] = Number(a.v)
  })
  valueBlocks.forEach((block, index) => {
    const error = richValues[richValueOfBlock[block]]
    if (error) errors.set(index + 1, error)
  })
  return errors
}

// ---------------------------------------------------------------------------------------------------------
// Shared strings
// ---------------------------------------------------------------------------------------------------------

async function readSharedStrings(zip: ZipParts, part: string, progress: (bytes: number) => void): Promise<string[]> {
  const strings: string[] = []
  let current: string | null = null
  let inText = false
  let phoneticDepth = 0
  const parser = createXmlParser()
  parser.on('opentag', (tag) => {
    const name = localName(tag.name)
    if (name === 'si') current = ''
    else if (name === 'rPh') phoneticDepth++
    else if (name === 't' && phoneticDepth === 0) inText = true
  })
  parser.on('text', (text) => {
    if (inText && current !== null) current += text
  })
  parser.on('closetag', (tag) => {
    const name = localName(tag.name)
    if (name === 't') inText = false
    else if (name === 'rPh') phoneticDepth--
    else if (name === 'si') {
      strings.push(decodeEscapes(current ?? ''))
      current = null
    }
  })
  await feed(zip, part, parser, progress)
  return strings
}

async function feed(zip: ZipParts, part: string, parser: XmlParser, progress: (bytes: number) => void, stop?: () => ImportFileError | null, skipper?: CellSkipper): Promise<void> {
  let stream
  try {
    stream = await zip.open(part)
  } catch (error) {
    throw partError(part, error)
  }
  try {
    stream.setEncoding('utf8')
    for await (const chunk of stream) {
      parser.write(skipper ? skipper.filter(chunk as string) : (chunk as string))
      progress(Buffer.byteLength(chunk as string))
      const refusal = stop?.()
      if (refusal) throw refusal
    }
    if (skipper) parser.write(skipper.end())
    parser.close()
  } catch (error) {
    stream.destroy()
    throw partError(part, error)
  }
}

/**
 * Passes a sheet part's text on without its cells: inside `sheetData` only the `row` tags that carry
 * layout (custom heights, hidden and outline marks) are kept, made empty. Reading a
 * million cells' layout then costs a scan for tags rather than parsing every cell. Text never holds a
 * raw `<`, so the tags found are tags.
 */
class CellSkipper {
  private state: 'before' | 'inside' | 'after' = 'before'
  private pending = ''
  /** The namespace prefix the sheet's elements carry (`x:` in some writers' files), with its colon. */
  private prefix = ''
  /** The last row tag left out, for a row after it that counts from it. */
  private rowBefore = ''

  filter(chunk: string): string {
    if (this.state === 'after') return chunk
    this.pending += chunk
    return this.state === 'before' ? this.before() : this.inside()
  }

  /** What is left at the end of the part. */
  end(): string {
    const rest = this.state === 'inside' ? '' : this.pending
    this.pending = ''
    return rest
  }

  private before(): string {
    const open = /<([A-Za-z_][\w.-]*:)?sheetData(?=[\s/>])[^>]*>/.exec(this.pending)
    if (!open) {
      // A tag cut by the chunk's end waits for the rest.
      const lastTag = this.pending.lastIndexOf('<')
      const keepFrom = lastTag >= 0 && this.pending.indexOf('>', lastTag) < 0 ? lastTag : this.pending.length
      const out = this.pending.slice(0, keepFrom)
      this.pending = this.pending.slice(keepFrom)
      return out
    }
    const through = open.index + open[0].length
    const out = this.pending.slice(0, through)
    this.pending = this.pending.slice(through)
    if (open[0].endsWith('/>')) {
      this.state = 'after'
      const rest = this.pending
      this.pending = ''
      return out + rest
    }
    this.prefix = open[1] ?? ''
    this.state = 'inside'
    return out + this.inside()
  }

  private inside(): string {
    const text = this.pending
    const rowTag = `<${this.prefix}row`
    const close = `</${this.prefix}sheetData>`
    const end = text.indexOf(close)
    let out = ''
    let at = 0
    for (;;) {
      const row = text.indexOf(rowTag, at)
      if (end >= 0 && (row < 0 || end < row)) {
        this.state = 'after'
        this.pending = ''
        return out + text.slice(end)
      }
      if (row < 0) break
      const after = text.charCodeAt(row + rowTag.length)
      if (Number.isNaN(after)) {
        at = row
        break
      }
      // <rowBreaks> and the like are not rows.
      if (after !== 32 && after !== 9 && after !== 10 && after !== 13 && after !== 47 && after !== 62) {
        at = row + rowTag.length
        continue
      }
      const tagEnd = text.indexOf('>', row)
      if (tagEnd < 0) {
        at = row
        break
      }
      const tag = text.charCodeAt(tagEnd - 1) === 47 ? text.slice(row, tagEnd + 1) : `${text.slice(row, tagEnd)}/>`
      at = tagEnd + 1
      // A row that says where it is and carries no layout tells nothing; one that does not say where
      // it is counts from the row before, which then goes too.
      const placed = /\sr=/.test(tag)
      if (placed && !/\s(?:hidden|customHeight|outlineLevel|collapsed)=/.test(tag)) {
        this.rowBefore = tag
        continue
      }
      if (!placed) out += this.rowBefore
      this.rowBefore = ''
      out += tag
    }
    // Keep what may be the start of a row tag or of the closing tag cut by the chunk's end.
    const lastTag = text.lastIndexOf('<')
    this.pending = lastTag >= at ? text.slice(lastTag) : ''
    return out
  }
}

// ---------------------------------------------------------------------------------------------------------
// Sheets
// ---------------------------------------------------------------------------------------------------------

interface SheetContext {
  sharedStrings: string[]
  /** Errors newer than the file format, by the value-metadata index cells point at with `vm`. */
  richErrors: Map<number, string>
  /** The file was saved by an application that caches error results as text (Google Sheets). */
  errorsAsText: boolean
  styleIndex: (xf: number) => number | undefined
  counter: { cells: number; formulas: number }
  limits: ImportLimits
  progress: (bytes: number) => void
  /** The styles part's differential formats, which conditional formats lay over cells. */
  differentialFormats: ConditionalStyle[]
  /** The theme's colours, which a tab colour may name. */
  themeColors: string[]
}

interface SharedFormula {
  text: string
  row: number
  col: number
  tree?: FormulaNode | null
}

type ReadSheet = ImportedSheet & { hyperlinks: SheetHyperlink[] }

/**
 * How a sheet's part is read: `all` keeps its cells with its layout; `layout` reads everything but the
 * cells (their rows' heights, hidden and outline marks still count), for an import that streams the
 * cells in a second pass with {@link sheetCellBatches}.
 */
type SheetPass = 'all' | 'layout'

async function readSheet(zip: ZipParts, entry: SheetEntry, context: SheetContext, pass: SheetPass = 'all'): Promise<ReadSheet> {
  const cells: ImportedCell[] = []
  const reader = sheetReader(entry, context, (cell) => cells.push(cell))
  await feed(zip, entry.part, reader.parser, pass === 'all' ? context.progress : () => undefined, reader.refusal, pass === 'layout' ? new CellSkipper() : undefined)
  return reader.finish(cells)
}

/**
 * A sheet's cells in batches, as each inflated chunk of its part is parsed: the second pass of an
 * import that read the layout first. Counts them against the limit as they come.
 */
async function* sheetCellBatches(zip: ZipParts, entry: SheetEntry, context: SheetContext): AsyncGenerator<ImportedCell[]> {
  let batch: ImportedCell[] = []
  const reader = sheetReader(entry, context, (cell) => batch.push(cell))
  let stream
  try {
    stream = await zip.open(entry.part)
  } catch (error) {
    throw partError(entry.part, error)
  }
  try {
    // The layout pass read (and checked) everything but the cells: this pass scans sheetData alone.
    const scanner = new SheetDataScanner(reader.cellData)
    stream.setEncoding('utf8')
    for await (const chunk of stream) {
      scanner.write(chunk as string)
      context.progress(Buffer.byteLength(chunk as string))
      const refusal = reader.refusal()
      if (refusal) throw refusal
      if (batch.length > 0) {
        const ready = batch
        batch = []
        yield ready
      }
    }
    scanner.end()
  } catch (error) {
    stream.destroy()
    throw partError(entry.part, error)
  }
  if (batch.length > 0) yield batch
}

/** The parser of a sheet's part, handing each cell to `keep` as it closes; `finish` gives the sheet read. */
function sheetReader(entry: SheetEntry, context: SheetContext, keep: (cell: ImportedCell) => void) {
  const { sharedStrings, richErrors, errorsAsText, styleIndex, counter, limits } = context
  const merges: string[] = []
  const columns: ImportedSheet['columns'] = []
  const rows: ImportedSheet['rows'] = []
  const shared = new Map<string, SharedFormula>()
  let frozen: ImportedSheet['frozen']
  // The sheet's filter as it is read: its range, and the column whose values are being listed.
  let autoFilter: { ref: string; columns: { colId: number; values: string[] }[] } | undefined
  let filterColumn: { colId: number; values: string[] } | undefined
  // the print tags, written back as text for the page setup reader
  let printTags = ''
  let defaultColumnWidth: number | undefined
  let defaultRowHeight: number | undefined
  let rowCount = 0
  let columnCount = 0
  let tabColor: string | undefined
  let showGridLines: false | undefined
  let zoom: number | undefined
  const hyperlinks: SheetHyperlink[] = []
  const carries: Partial<Record<CarriedFeature, number>> = {}
  const count = (feature: CarriedFeature) => (carries[feature] = (carries[feature] ?? 0) + 1)

  let row = -1
  let nextCol = 0
  // the cell being read
  let inCell = false
  let cellRow = 0
  let cellCol = 0
  let cellAddress = ''
  let cellType = ''
  let cellStyle: number | undefined
  let cellValueMetadata: string | undefined
  let cellMetadata: string | undefined
  let text = ''
  let collecting: 'v' | 'f' | 't' | null = null
  let valueText: string | null = null
  let inlineText: string | null = null
  let formulaText: string | null = null
  let formulaAttributes: Record<string, string> | null = null
  let phoneticDepth = 0
  let refusal: ImportFileError | null = null
  const validations: DataValidationRule[] = []
  // the data-validation rule being read, and which of its texts
  let validation: DataValidationXml | null = null
  let validationPart: 'formula1' | 'formula2' | 'sqref' | null = null
  let validationText = ''
  const conditional = new ConditionalFormatCollector(context.differentialFormats, context.themeColors)

  const parser = createXmlParser()
  parser.on('opentag', (tag) => {
    const name = localName(tag.name)
    const a = tag.attributes as Record<string, string>
    if (!inCell && conditional.open(name, a)) return
    switch (name) {
      case 'c': {
        inCell = true
        openCell(a.r, a.t, a.s, a.vm, a.cm)
        valueText = null
        inlineText = null
        formulaText = null
        formulaAttributes = null
        return
      }
      case 'v':
        if (inCell) {
          collecting = 'v'
          text = ''
        }
        return
      case 'f':
        if (inCell) {
          collecting = 'f'
          text = ''
          formulaAttributes = a
        }
        return
      case 'rPh':
        phoneticDepth++
        return
      case 't':
        if (inCell && phoneticDepth === 0) {
          collecting = 't'
          text = ''
        }
        return
      case 'row': {
        openRow(a.r)
        const hidden = a.hidden === '1' || a.hidden === 'true'
        const custom = a.customHeight === '1' || a.customHeight === 'true'
        const outline = outlineOf(a)
        if ((a.ht && custom) || hidden || outline) rows.push({ row, ...(a.ht && custom ? { height: Number(a.ht) } : {}), ...(hidden ? { hidden } : {}), ...outline })
        return
      }
      case 'col': {
        const min = Number(a.min)
        const max = Math.min(Number(a.max), 16_384)
        const hidden = a.hidden === '1' || a.hidden === 'true'
        const outline = outlineOf(a)
        if (!a.width && !hidden && !outline) return
        for (let col = min - 1; col < max && col - min < 16_384; col++) {
          columns.push({ col, width: Number(a.width ?? 0), ...(hidden ? { hidden } : {}), ...outline })
        }
        return
      }
      case 'pane':
        if (a.state === 'frozen' || a.state === 'frozenSplit') {
          const rowsFrozen = Math.floor(Number(a.ySplit ?? 0))
          const columnsFrozen = Math.floor(Number(a.xSplit ?? 0))
          if (rowsFrozen > 0 || columnsFrozen > 0) frozen = { rows: Math.max(0, rowsFrozen || 0), columns: Math.max(0, columnsFrozen || 0) }
        }
        return
      case 'mergeCell':
        if (a.ref) merges.push(a.ref)
        return
      case 'autoFilter':
        if (a.ref && autoFilter === undefined) autoFilter = { ref: a.ref, columns: [] }
        return
      case 'filterColumn':
        if (autoFilter) filterColumn = { colId: Number(a.colId), values: [] }
        return
      case 'filters':
        if (filterColumn && (a.blank === '1' || a.blank === 'true')) filterColumn.values.push('')
        return
      case 'filter':
        if (filterColumn && a.val !== undefined) filterColumn.values.push(a.val)
        return
      case 'tabColor':
        tabColor = resolveColor(colorAttributes(a), context.themeColors)
        return
      case 'sheetView':
        if (a.showGridLines === '0' || a.showGridLines === 'false') showGridLines = false
        zoom = sheetZoomOf(a.zoomScale)
        return
      case 'hyperlink':
        if (a.ref) {
          const relationshipId = a['r:id'] ?? Object.entries(a).find(([key]) => key.endsWith(':id'))?.[1]
          hyperlinks.push({ ref: a.ref, ...(relationshipId ? { relationshipId } : {}), ...(a.location ? { location: a.location } : {}) })
        }
        return
      case 'sparklineGroup':
        count('sparklines')
        return
      case 'pageSetup':
      case 'printOptions':
      case 'pageSetUpPr':
        printTags += `<${name}${Object.entries(a)
          .map(([key, value]) => ` ${key}="${String(value).replace(/"/g, '')}"`)
          .join('')}/>`
        return
      case 'sheetFormatPr':
        if (a.defaultColWidth) defaultColumnWidth = Number(a.defaultColWidth)
        if (a.defaultRowHeight) defaultRowHeight = Number(a.defaultRowHeight)
        return
      case 'dataValidation':
        validation = { attributes: a }
        return
      case 'formula1':
      case 'formula2':
      case 'sqref':
        if (validation) {
          validationPart = name
          validationText = ''
        }
        return
    }
  })
  parser.on('text', (chunk) => {
    if (collecting !== null) text += chunk
    else if (validationPart !== null) validationText += chunk
    else conditional.text(chunk)
  })
  parser.on('closetag', (tag) => {
    const name = localName(tag.name)
    if (!inCell && conditional.close(name)) return
    switch (name) {
      case 'filterColumn':
        if (autoFilter && filterColumn) autoFilter.columns.push(filterColumn)
        filterColumn = undefined
        return
      case 'v':
        if (collecting === 'v') valueText = text
        collecting = null
        return
      case 'f':
        if (collecting === 'f') formulaText = text
        collecting = null
        return
      case 't':
        if (collecting === 't') inlineText = (inlineText ?? '') + text
        collecting = null
        return
      case 'rPh':
        phoneticDepth--
        return
      case 'formula1':
      case 'formula2':
      case 'sqref':
        if (validation && validationPart === name) validation[name] = name === 'sqref' ? validationText : normalizeFormula(validationText.trim())
        validationPart = null
        return
      case 'dataValidation': {
        const rule = validation && ruleFromXml(validation)
        if (rule) validations.push(rule)
        validation = null
        return
      }
      case 'c':
        inCell = false
        closeCell()
        return
    }
  })

  const openRow = (r: string | undefined) => {
    row = r ? Number(r) - 1 : row + 1
    nextCol = 0
  }

  const openCell = (r: string | undefined, t: string | undefined, s: string | undefined, vm: string | undefined, cm: string | undefined) => {
    if (r) {
      const parsed = splitAddress(r)
      cellRow = parsed.row
      cellCol = parsed.col
      cellAddress = parsed.address
    } else {
      cellRow = row < 0 ? 0 : row
      cellCol = nextCol
      cellAddress = columnToLetters(cellCol) + String(cellRow + 1)
    }
    nextCol = cellCol + 1
    cellType = t ?? 'n'
    cellStyle = s !== undefined && s !== '0' ? styleIndex(Number(s)) : undefined
    cellValueMetadata = vm
    cellMetadata = cm
  }

  const closeCell = () => {
    const cell = finishCell()
    if (!cell) return
    keep(cell)
    counter.cells++
    if (cell.formula !== undefined) counter.formulas++
    if (cellRow >= rowCount) rowCount = cellRow + 1
    if (cellCol >= columnCount) columnCount = cellCol + 1
    if (counter.cells > limits.maxCells && !refusal) {
      refusal = new ImportFileError(
        'TOO_MANY_CELLS',
        `The workbook has more than ${formatCount(limits.maxCells)} cells, the most one import takes. Split it into smaller workbooks.`,
      )
    }
  }

  /** The same reading for the cells pass's scanner, which hands over rows and whole cells instead of tags. */
  const cellData: SheetDataHandler = {
    row: openRow,
    cell(scanned: ScannedCell) {
      openCell(scanned.r, scanned.t, scanned.s, scanned.vm, scanned.cm)
      valueText = scanned.value
      inlineText = scanned.inline
      formulaText = scanned.formula
      formulaAttributes = scanned.formulaAttributes
      closeCell()
    },
  }

  const finishCell = (): ImportedCell | undefined => {
    let value: ImportedValue = null
    switch (cellType) {
      case 's': {
        const index = valueText === null ? NaN : Number(valueText)
        value = sharedStrings[index] ?? null
        if (valueText !== null && value === null) throw new ImportFileError('CORRUPT_FILE', `The workbook is damaged: cell ${entry.name}!${cellAddress} points to a missing shared string.`)
        break
      }
      case 'inlineStr':
        value = decodeEscapes(inlineText ?? '')
        break
      case 'str': {
        value = decodeEscapes(valueText ?? '')
        const error = errorsAsText && formulaAttributes ? errorFromText(value) : undefined
        if (error) value = { error: error.code }
        break
      }
      case 'b':
        value = valueText === null ? null : valueText === '1' || valueText === 'true'
        break
      case 'e': {
        // #SPILL! and #CALC! are stored as #VALUE! pointing at a rich value with the real error.
        const rich = cellValueMetadata === undefined ? undefined : richErrors.get(Number(cellValueMetadata))
        value = valueText === null ? null : { error: rich ?? valueText }
        break
      }
      case 'd':
        value = valueText === null ? null : isoDateToSerial(valueText)
        break
      default:
        if (valueText !== null && valueText !== '') {
          const number = Number(valueText)
          value = Number.isFinite(number) ? number : valueText
        }
    }
    const table = formulaAttributes?.t === 'dataTable' ? dataTableFormula((name) => formulaAttributes?.[name]) : undefined
    const formula = table ? table.formula : formulaOf()
    if (value === null && formula === undefined && cellStyle === undefined) return undefined
    const cell: ImportedCell = { row: cellRow, col: cellCol, address: cellAddress, value }
    if (table) {
      // A what-if data table: {=TABLE(...)} over its results, a Ctrl+Shift+Enter array formula.
      cell.formula = table.formula
      cell.arrayRange = table.ref
    } else if (formula !== undefined) {
      cell.formula = formula
      if (formulaAttributes?.t === 'array' && formulaAttributes.ref) {
        cell.arrayRange = formulaAttributes.ref
        // Excel 365 gives a dynamic array's anchor cell metadata (cm); a Ctrl+Shift+Enter array has none.
        if (cellMetadata !== undefined) cell.dynamicArray = true
      }
    }
    if (cellStyle !== undefined) cell.style = cellStyle
    return cell
  }

  /** The cell's formula; a shared formula's followers get the master's moved to their cell. */
  const formulaOf = (): string | undefined => {
    if (!formulaAttributes) return undefined
    const own = formulaText !== null && formulaText !== '' ? normalizeFormula(formulaText) : undefined
    if (formulaAttributes.t !== 'shared' || formulaAttributes.si === undefined) return own
    const key = formulaAttributes.si
    if (own !== undefined) {
      shared.set(key, { text: own, row: cellRow, col: cellCol })
      return own
    }
    const master = shared.get(key)
    if (!master) return undefined
    if (master.tree === undefined) {
      try {
        master.tree = parseFormulaText('=' + master.text, columnToLetters(master.col) + String(master.row + 1))
      } catch {
        master.tree = null
      }
    }
    // A master our parser cannot read cannot be moved; its followers keep their cached values.
    if (master.tree === null) return undefined
    return printFormulaTree(master.tree, cellAddress).slice(1)
  }

  const finish = (cells: ImportedCell[]): ReadSheet => {
    for (const merge of merges) {
      const end = merge.split(':')[1]
      if (!end) continue
      const { row: lastRow, col: lastCol } = splitAddress(end)
      if (lastRow >= rowCount) rowCount = lastRow + 1
      if (lastCol >= columnCount) columnCount = lastCol + 1
    }
    const filter = autoFilter && filterOfRead(autoFilter)
    return {
      name: entry.name,
      state: entry.state,
      cells,
      merges,
      columns,
      rows,
      ...(validations.length > 0 ? { validations } : {}),
      ...(frozen ? { frozen } : {}),
      ...(filter ? { filter } : {}),
      ...(printTags !== '' ? { printTags } : {}),
      ...conditionalFormatsOf(conditional),
      ...(defaultColumnWidth !== undefined ? { defaultColumnWidth } : {}),
      ...(defaultRowHeight !== undefined ? { defaultRowHeight } : {}),
      rowCount,
      columnCount,
      ...(tabColor ? { tabColor } : {}),
      ...(showGridLines === false ? { showGridLines } : {}),
      ...(zoom !== undefined ? { zoom } : {}),
      ...(Object.keys(carries).length > 0 ? { carries } : {}),
      hyperlinks,
    }
  }
  return { parser, cellData, refusal: () => refusal, finish }
}

/** The sheet's conditional formats, and how many rules of kinds not kept were left out; absent when none. */
function conditionalFormatsOf(collector: ConditionalFormatCollector): Pick<ImportedSheet, 'conditionalFormats' | 'conditionalFormatsNotKept'> {
  const rules = collector.rules()
  return { ...(rules.length > 0 ? { conditionalFormats: rules } : {}), ...(collector.skipped > 0 ? { conditionalFormatsNotKept: collector.skipped } : {}) }
}

/** A row's or column's outline group, as its attributes state it. */
/** A sheet view's `zoomScale` in Excel's range, or undefined at 100% or when absent or unreadable. */
function sheetZoomOf(zoomScale: string | undefined): number | undefined {
  const zoom = Number(zoomScale)
  if (zoomScale === undefined || !Number.isInteger(zoom) || zoom === 100) return undefined
  return Math.min(400, Math.max(10, zoom))
}

function outlineOf(a: Record<string, string>): { level?: number; collapsed?: true } | undefined {
  const level = Math.floor(Number(a.outlineLevel ?? 0))
  const collapsed = a.collapsed === '1' || a.collapsed === 'true'
  if (!(level > 0) && !collapsed) return undefined
  return { ...(level > 0 ? { level: Math.min(MAX_OUTLINE_LEVEL, level) } : {}), ...(collapsed ? { collapsed: true as const } : {}) }
}

/** Splits `AB12` (or `$AB$12`) into its 0-based row and column, without regular expressions on the hot path. */
function splitAddress(reference: string): { row: number; col: number; address: string } {
  let col = 0
  let i = 0
  let address = reference
  if (reference.includes('$')) address = reference.replace(/\$/g, '')
  for (; i < address.length; i++) {
    const code = address.charCodeAt(i)
    const upper = code >= 97 ? code - 32 : code
    if (upper < 65 || upper > 90) break
    col = col * 26 + (upper - 64)
  }
  const row = Number(address.slice(i)) - 1
  if (i === 0 || !Number.isInteger(row) || row < 0) throw new ImportFileError('CORRUPT_FILE', `The workbook is damaged: "${reference}" is not a cell address.`)
  return { row, col: col - 1, address }
}

/**
 * Text in xlsx files writes characters XML cannot hold (control characters) as `_xHHHH_`, and a
 * literal `_x` sequence as `_x005F_x…`.
 */
function decodeEscapes(text: string): string {
  if (!text.includes('_x')) return text
  return text.replace(/_x([0-9A-Fa-f]{4})_/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

function isoDateToSerial(text: string): number | string {
  const time = Date.parse(text.endsWith('Z') || /[+-]\d\d:\d\d$/.test(text) ? text : text + 'Z')
  if (Number.isNaN(time)) return text
  return time / 86_400_000 + 25_569
}

/** A filter as the streaming reader met it, in the form the sheet keeps (the same rules as a whole part's). */
function filterOfRead(read: { ref: string; columns: { colId: number; values: string[] }[] }): SheetFilter | undefined {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
  const columns = read.columns
    .map((column) => {
      const blank = column.values.includes('') ? ' blank="1"' : ''
      const values = column.values.filter((value) => value !== '').map((value) => `<filter val="${escape(value)}"/>`).join('')
      return `<filterColumn colId="${column.colId}"><filters${blank}>${values}</filters></filterColumn>`
    })
    .join('')
  return readAutoFilter(`<autoFilter ref="${escape(read.ref)}">${columns}</autoFilter>`)
}
