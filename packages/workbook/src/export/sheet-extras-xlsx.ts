/**
 * A sheet's tab colour, gridlines, notes and links as an xlsx file holds them. exceljs writes the
 * tab colour, the gridlines and each note (its comments part and the drawing that shows it); the
 * written file is then completed where exceljs falls short: it names every note's author "Author", so
 * the comments part gets the true authors, and it writes links only on text cells, replacing their
 * value, so links are written here as the worksheet's `<hyperlinks>` with their relationships.
 */
import type ExcelJS from 'exceljs'
import type JSZip from 'jszip'
import type { SheetViewState } from '@finsheet/contracts'
import { parseAddress } from '../model/a1.js'
import { encodeXml } from '../xlsx/xml-text.js'

/** What of a sheet's view this module writes, kept from `addSheet` until the file is complete. */
export type SheetExtras = Pick<SheetViewState, 'tabColor' | 'showGridLines' | 'zoom' | 'notes' | 'links'> | undefined

const HYPERLINK_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink'
const RELATIONSHIPS_NAMESPACE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'

/** The extras of a view, or undefined when it has none (so that the file needs no completing). */
export function sheetExtrasOf(view: SheetViewState | undefined): SheetExtras {
  if (!view) return undefined
  const extras: NonNullable<SheetExtras> = {}
  if (view.tabColor) extras.tabColor = view.tabColor
  if (view.showGridLines === false) extras.showGridLines = false
  if (view.zoom !== undefined) extras.zoom = view.zoom
  if (view.notes && Object.keys(view.notes).length > 0) extras.notes = view.notes
  if (view.links && Object.keys(view.links).length > 0) extras.links = view.links
  return Object.keys(extras).length > 0 ? extras : undefined
}

/**
 * States the tab colour, the gridlines and the notes on the worksheet exceljs is about to write;
 * `argb` turns a CSS colour into Excel's.
 */
export function writeSheetExtras(worksheet: ExcelJS.Worksheet, extras: SheetExtras, argb: (css: string) => string | undefined): void {
  if (!extras) return
  const tab = extras.tabColor ? argb(extras.tabColor) : undefined
  if (tab) worksheet.properties.tabColor = { argb: tab }
  if (extras.showGridLines === false || extras.zoom !== undefined) {
    const views = worksheet.views.length > 0 ? worksheet.views : [{}]
    worksheet.views = views.map((view) => ({
      ...view,
      ...(extras.showGridLines === false ? { showGridLines: false } : {}),
      ...(extras.zoom !== undefined ? { zoomScale: extras.zoom } : {}),
    }))
  }
  for (const [address, note] of Object.entries(extras.notes ?? {})) {
    const { row, col } = parseAddress(address)
    worksheet.getCell(row + 1, col + 1).note = note.text
  }
}

/** Whether the written file needs completing for these extras. */
export function needsCompleting(extras: readonly SheetExtras[]): boolean {
  return extras.some((sheet) => (sheet?.links && Object.keys(sheet.links).length > 0) || Object.values(sheet?.notes ?? {}).some((note) => note.author))
}

/** Elements that follow `<hyperlinks>` in a worksheet part, the first of which it goes before. */
const AFTER_HYPERLINKS = /<(?:printOptions|pageMargins|pageSetup|headerFooter|rowBreaks|colBreaks|customProperties|cellWatches|ignoredErrors|smartTags|drawing|legacyDrawing|legacyDrawingHF|picture|oleObjects|controls|webPublishItems|tableParts|extLst)\b|<\/worksheet>/g

/** Completes a written file's sheets (the sheet at index i is `xl/worksheets/sheet{i+1}.xml`) with note authors and links. */
export async function completeSheetExtras(zip: JSZip, extras: readonly SheetExtras[]): Promise<void> {
  for (const [index, sheet] of extras.entries()) {
    if (!sheet) continue
    const number = index + 1
    const authored = Object.entries(sheet.notes ?? {}).filter(([, note]) => note.author)
    if (authored.length > 0) {
      const part = `xl/comments${number}.xml`
      const xml = await zip.file(part)?.async('string')
      if (xml !== undefined) {
        const authors = [...new Set(['', ...authored.map(([, note]) => note.author!)])]
        const authorOf = new Map(authored.map(([address, note]) => [address, authors.indexOf(note.author!)]))
        const list = `<authors>${authors.map((author) => `<author>${encodeXml(author)}</author>`).join('')}</authors>`
        zip.file(
          part,
          xml
            .replace(/<authors>[\s\S]*?<\/authors>/, list)
            .replace(/<comment ref="([A-Z]+[0-9]+)" authorId="\d+"/g, (_whole, ref: string) => `<comment ref="${ref}" authorId="${authorOf.get(ref) ?? 0}"`),
        )
      }
    }
    const links = Object.entries(sheet.links ?? {})
    if (links.length === 0) continue
    const part = `xl/worksheets/sheet${number}.xml`
    let xml = await zip.file(part)?.async('string')
    if (xml === undefined) continue
    const relsPath = `xl/worksheets/_rels/sheet${number}.xml.rels`
    let rels =
      (await zip.file(relsPath)?.async('string')) ??
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>'
    let added = ''
    const entries = links.map(([address, url], i) => {
      if (url.startsWith('#')) return `<hyperlink ref="${address}" location="${encodeXml(url.slice(1))}"/>`
      const id = `rIdLink${i + 1}`
      added += `<Relationship Id="${id}" Type="${HYPERLINK_TYPE}" Target="${encodeXml(url)}" TargetMode="External"/>`
      return `<hyperlink ref="${address}" r:id="${id}"/>`
    })
    if (added !== '') {
      rels = /<Relationships\b[^>]*\/>/.test(rels) ? rels.replace(/<Relationships\b([^>]*)\/>/, `<Relationships$1>${added}</Relationships>`) : rels.replace('</Relationships>', added + '</Relationships>')
      zip.file(relsPath, rels)
    }
    if (!/<worksheet\b[^>]*\sxmlns:r=/.test(xml)) xml = xml.replace(/<worksheet\b/, `<worksheet xmlns:r="${RELATIONSHIPS_NAMESPACE}"`)
    const list = `<hyperlinks>${entries.join('')}</hyperlinks>`
    // Searched for after what comes before hyperlinks only: an extension list may sit inside a conditional format.
    const floor = Math.max(...['</sheetData>', '<sheetData/>', '</mergeCells>', '</conditionalFormatting>', '</dataValidations>'].map((tag) => { const i = xml!.lastIndexOf(tag); return i < 0 ? 0 : i + tag.length }))
    AFTER_HYPERLINKS.lastIndex = floor
    const at = AFTER_HYPERLINKS.exec(xml)
    if (at) xml = xml.slice(0, at.index) + list + xml.slice(at.index)
    zip.file(part, xml)
  }
}
