/**
 * A sheet's filter as an xlsx worksheet part states it (Excel's AutoFilter):
 * `<autoFilter ref="A1:D7"><filterColumn colId="0"><filters blank="1"><filter val="East"/></filters></filterColumn></autoFilter>`,
 * where `colId` counts from the range's first column and `blank="1"` shows blank cells. The rows the
 * filter hides are written as hidden rows; read back, hidden rows below a filtering filter's headers
 * are its filtered rows, since the file cannot tell them apart. Criteria other than a list of values
 * (custom, top 10, dynamic, colour filters) are not kept: their column shows everything.
 */
import type { AxisEntry, FilterColumn, SheetFilter, SheetViewState } from '@finsheet/contracts'
import { tryParseRange } from '@finsheet/formula'

const attribute = (attributes: string, name: string) => /(?:^|\s)NAME="([^"]*)"/.source.replace('NAME', name)

function attributeOf(attributes: string, name: string): string | undefined {
  const match = new RegExp(attribute(attributes, name)).exec(attributes)
  return match ? decodeXml(match[1]) : undefined
}

function decodeXml(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp|#x[0-9a-fA-F]+|#\d+);/g, (whole, entity: string) => {
    if (entity === 'lt') return '<'
    if (entity === 'gt') return '>'
    if (entity === 'quot') return '"'
    if (entity === 'apos') return "'"
    if (entity === 'amp') return '&'
    const code = entity.startsWith('#x') ? parseInt(entity.slice(2), 16) : Number(entity.slice(1))
    return Number.isFinite(code) ? String.fromCodePoint(code) : whole
  })
}

const encodeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The filter a worksheet part states, or undefined. */
export function readAutoFilter(xml: string): SheetFilter | undefined {
  const match = /<(?:\w+:)?autoFilter\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?autoFilter>)/.exec(xml)
  if (!match) return undefined
  const ref = attributeOf(match[1], 'ref')
  const range = ref ? tryParseRange(ref) : undefined
  if (!range) return undefined
  const filter: SheetFilter = { range: ref!.replace(/\$/g, '') }
  const columns: FilterColumn[] = []
  for (const column of (match[2] ?? '').matchAll(/<(?:\w+:)?filterColumn\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?filterColumn>)/g)) {
    const colId = Number(attributeOf(column[1], 'colId'))
    const filters = /<(?:\w+:)?filters\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?filters>)/.exec(column[2] ?? '')
    if (!Number.isInteger(colId) || colId < 0 || range.left + colId > range.right || !filters) continue
    const values = [...(filters[2] ?? '').matchAll(/<(?:\w+:)?filter\b([^>]*?)\/?>/g)].map((value) => attributeOf(value[1], 'val') ?? '')
    const blank = attributeOf(filters[1], 'blank')
    if (blank === '1' || blank === 'true') values.push('')
    columns.push({ column: range.left + colId, values })
  }
  if (columns.length > 0) filter.columns = columns
  return filter
}

/** The `<autoFilter>` element of a filter. */
export function autoFilterXml(filter: SheetFilter): string {
  const range = tryParseRange(filter.range)
  if (!range) return ''
  const columns = (filter.columns ?? []).map((column) => {
    const values = column.values.filter((value) => value !== '')
    const blank = values.length < column.values.length ? ' blank="1"' : ''
    const listed = values.map((value) => `<filter val="${encodeXml(value)}"/>`).join('')
    return `<filterColumn colId="${column.column - range.left}">${listed ? `<filters${blank}>${listed}</filters>` : `<filters${blank}/>`}</filterColumn>`
  })
  return columns.length > 0 ? `<autoFilter ref="${filter.range}">${columns.join('')}</autoFilter>` : `<autoFilter ref="${filter.range}"/>`
}

// The worksheet elements that come after autoFilter, in the order the schema gives them.
const AFTER_AUTO_FILTER = ['sortState', 'dataConsolidate', 'customSheetViews', 'mergeCells', 'phoneticPr', 'conditionalFormatting', 'dataValidations', 'hyperlinks', 'printOptions', 'pageMargins', 'pageSetup', 'headerFooter', 'rowBreaks', 'colBreaks', 'customProperties', 'cellWatches', 'ignoredErrors', 'smartTags', 'drawing', 'legacyDrawing', 'legacyDrawingHF', 'picture', 'oleObjects', 'controls', 'webPublishItems', 'tableParts', 'extLst']

/** A worksheet part stating the filter in its place (any autoFilter written before is replaced). */
export function withAutoFilter(xml: string, filter: SheetFilter): string {
  const element = autoFilterXml(filter)
  const cleared = xml.replace(/<autoFilter\b[^>]*?(?:\/>|>[\s\S]*?<\/autoFilter>)/, '')
  let at = -1
  for (const name of AFTER_AUTO_FILTER) {
    const found = new RegExp(`<${name}\\b`).exec(cleared)
    if (found && (at < 0 || found.index < at)) at = found.index
  }
  if (at < 0) at = cleared.lastIndexOf('</worksheet>')
  return cleared.slice(0, at) + element + cleared.slice(at)
}

/**
 * A layout read from a file with its filter: hidden rows below the headers of a filter that filters
 * become its filtered rows.
 */
export function withImportedFilter(view: SheetViewState | undefined, filter: SheetFilter | undefined): SheetViewState | undefined {
  if (!filter) return view
  const next: SheetViewState = { ...view, filter }
  const range = tryParseRange(filter.range)
  if (range && filter.columns && filter.columns.length > 0 && view?.rows) {
    const rows: Record<string, AxisEntry> = {}
    for (const [index, entry] of Object.entries(view.rows)) {
      const row = Number(index)
      if (entry.hidden && row > range.top && row <= range.bottom) {
        const { hidden: _hidden, ...rest } = entry
        rows[index] = { ...rest, filtered: true }
      } else rows[index] = entry
    }
    next.rows = rows
  }
  return next
}
