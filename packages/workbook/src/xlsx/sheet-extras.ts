/**
 * What an xlsx worksheet carries around its cells, read from the parts its relationships name: notes
 * (the legacy comments part, `xl/comments1.xml`), threaded comments (`xl/threadedComments/…`, with
 * their authors in `xl/persons/person.xml`), the targets of its hyperlinks, and a count of what else
 * hangs off it (charts and pictures in its drawing, pivot tables, slicers, form controls), so that an
 * import can say exactly what it leaves out.
 */
import type { CellNote } from '@finsheet/contracts'
import { MAX_LINK_LENGTH, MAX_NOTE_LENGTH } from '@finsheet/contracts'
import { formatAddress, tryParseRange } from '../model/a1.js'
import { relationshipsPath } from './table-parts.js'
import { attribute, decodeXml } from './xml-text.js'

/** Features a sheet may carry that are counted for the import report, by the name the report uses as a key. */
export type CarriedFeature = 'charts' | 'pictures' | 'pivotTables' | 'slicers' | 'formControls' | 'sparklines'

export interface Relationship {
  id: string
  type: string
  /** The part it names, resolved against the naming part's folder; the address itself when external. */
  target: string
  external: boolean
}

/** A hyperlink as the worksheet part states it: its cells, and a relationship (external) or a place in the workbook. */
export interface SheetHyperlink {
  ref: string
  relationshipId?: string
  location?: string
}

const decodeEscapes = (text: string) => text.replace(/_x([0-9A-Fa-f]{4})_/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)))

/** Resolves a relationship target against the folder of the part that names it. */
export function resolvePart(part: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1)
  const segments = part.split('/').slice(0, -1)
  for (const segment of target.split('/')) {
    if (segment === '..') segments.pop()
    else if (segment !== '.' && segment !== '') segments.push(segment)
  }
  return segments.join('/')
}

/** The relationships a part's `_rels` part lists. */
export function parseRelationships(part: string, xml: string): Relationship[] {
  const relationships: Relationship[] = []
  for (const match of xml.matchAll(/<(?:\w+:)?Relationship\b([^>]*?)\/?>/g)) {
    const id = attribute(match[1], 'Id')
    const target = attribute(match[1], 'Target')
    if (!id || target === undefined) continue
    const external = attribute(match[1], 'TargetMode') === 'External'
    relationships.push({ id, type: attribute(match[1], 'Type') ?? '', target: external ? target : resolvePart(part, target), external })
  }
  return relationships
}

/** The text of the `<t>` runs inside an element's body, joined. */
function runText(body: string): string {
  let text = ''
  for (const run of body.matchAll(/<(?:\w+:)?t(?:\s[^>]*)?>([\s\S]*?)<\/(?:\w+:)?t>/g)) text += run[1]
  return decodeEscapes(decodeXml(text))
}

const clip = (text: string) => (text.length > MAX_NOTE_LENGTH ? text.slice(0, MAX_NOTE_LENGTH) : text)

/**
 * Notes of a legacy comments part by cell address. Excel starts a note's text with its author's name
 * and a colon in bold: that prefix is the author, not the note, and is taken off.
 */
export function parseCommentsPart(xml: string): Record<string, CellNote> {
  const authors = [...(/<(?:\w+:)?authors\b[^>]*>([\s\S]*?)<\/(?:\w+:)?authors>/.exec(xml)?.[1] ?? '').matchAll(/<(?:\w+:)?author\b[^>]*>([\s\S]*?)<\/(?:\w+:)?author>/g)].map((match) =>
    decodeXml(match[1]),
  )
  const notes: Record<string, CellNote> = {}
  for (const match of xml.matchAll(/<(?:\w+:)?comment\b([^>]*)>([\s\S]*?)<\/(?:\w+:)?comment>/g)) {
    const ref = attribute(match[1], 'ref')?.replace(/\$/g, '').toUpperCase()
    if (!ref || !/^[A-Z]{1,3}[1-9][0-9]*$/.test(ref)) continue
    const author = authors[Number(attribute(match[1], 'authorId') ?? -1)]
    let text = runText(/<(?:\w+:)?text\b[^>]*>([\s\S]*)<\/(?:\w+:)?text>/.exec(match[2])?.[1] ?? '')
    if (author && text.startsWith(`${author}:`)) text = text.slice(author.length + 1).replace(/^\r?\n/, '')
    if (text.trim() === '') continue
    notes[ref] = { text: clip(text), ...(author ? { author: author.slice(0, 255) } : {}) }
  }
  return notes
}

/** Authors of threaded comments by their person id. */
export function parsePersons(xml: string | undefined): Map<string, string> {
  const persons = new Map<string, string>()
  for (const match of (xml ?? '').matchAll(/<(?:\w+:)?person\b([^>]*?)\/?>/g)) {
    const id = attribute(match[1], 'id')
    const name = attribute(match[1], 'displayName')
    if (id && name) persons.set(id, name)
  }
  return persons
}

/**
 * Threaded comments as notes: a thread becomes one note by its first author, each reply a line of its
 * own after the first comment, with who wrote it.
 */
export function parseThreadedComments(xml: string, persons: ReadonlyMap<string, string>): Record<string, CellNote> {
  const threads = new Map<string, { ref: string; author?: string; lines: string[] }>()
  const byRef = new Map<string, { ref: string; author?: string; lines: string[] }>()
  for (const match of xml.matchAll(/<(?:\w+:)?threadedComment\b([^>]*)>([\s\S]*?)<\/(?:\w+:)?threadedComment>/g)) {
    const ref = attribute(match[1], 'ref')?.replace(/\$/g, '').toUpperCase()
    if (!ref || !/^[A-Z]{1,3}[1-9][0-9]*$/.test(ref)) continue
    const author = persons.get(attribute(match[1], 'personId') ?? '')
    const text = decodeEscapes(decodeXml(/<(?:\w+:)?text\b[^>]*>([\s\S]*?)<\/(?:\w+:)?text>/.exec(match[2])?.[1] ?? ''))
    const parent = attribute(match[1], 'parentId')
    const thread = (parent && threads.get(parent)) || byRef.get(ref)
    if (thread && parent !== undefined) {
      thread.lines.push(author ? `${author}: ${text}` : text)
      continue
    }
    const started = { ref, ...(author ? { author } : {}), lines: [text] }
    const id = attribute(match[1], 'id')
    if (id) threads.set(id, started)
    byRef.set(ref, started)
  }
  const notes: Record<string, CellNote> = {}
  for (const thread of byRef.values()) {
    const text = thread.lines.join('\n')
    if (text.trim() === '') continue
    notes[thread.ref] = { text: clip(text), ...(thread.author ? { author: thread.author.slice(0, 255) } : {}) }
  }
  return notes
}

/** Most cells one hyperlink over a range gives a link to. */
const MAX_LINKED_CELLS_PER_RANGE = 10_000

/** Links by cell address: an external target as the relationship names it, a place in the workbook as `#Sheet1!A1`. */
export function resolveHyperlinks(hyperlinks: readonly SheetHyperlink[], relationships: readonly Relationship[]): Record<string, string> {
  const links: Record<string, string> = {}
  for (const link of hyperlinks) {
    const relationship = link.relationshipId ? relationships.find((candidate) => candidate.id === link.relationshipId) : undefined
    // Some writers state a place in the workbook twice, as the target and as the location, and with its '#'.
    const location = link.location?.replace(/^#/, '')
    let url = relationship?.external && !relationship.target.startsWith('#') ? relationship.target : undefined
    if (url !== undefined && location) url += `#${location}`
    if (url === undefined && location) url = `#${location}`
    if (url === undefined && relationship?.target.startsWith('#')) url = relationship.target
    if (!url || url.length > MAX_LINK_LENGTH) continue
    const range = tryParseRange(link.ref.replace(/\$/g, ''))
    if (!range) continue
    let cells = 0
    for (let row = range.top; row <= range.bottom && cells < MAX_LINKED_CELLS_PER_RANGE; row++) {
      for (let col = range.left; col <= range.right && cells < MAX_LINKED_CELLS_PER_RANGE; col++, cells++) links[formatAddress(row, col)] = url
    }
  }
  return links
}

const RELATIONSHIP = (name: string) => new RegExp(`/relationships/${name}$`, 'i')

/** What a sheet's relationships lead to: notes, threaded comments and counts of what the workbook does not keep. */
export interface SheetAttachments {
  notes: Record<string, CellNote>
  links: Record<string, string>
  counts: Partial<Record<CarriedFeature, number>>
}

/**
 * Reads what hangs off a worksheet part: `read` gives a part's text, or undefined when the file has no
 * such part. Threaded comments win over the legacy note Excel writes beside each of them.
 */
export async function readSheetAttachments(
  sheetPart: string,
  hyperlinks: readonly SheetHyperlink[],
  persons: ReadonlyMap<string, string>,
  read: (part: string) => Promise<string | undefined>,
): Promise<SheetAttachments> {
  const attachments: SheetAttachments = { notes: {}, links: {}, counts: {} }
  const relationshipsXml = await read(relationshipsPath(sheetPart))
  const relationships = relationshipsXml === undefined ? [] : parseRelationships(sheetPart, relationshipsXml)
  if (hyperlinks.length > 0) attachments.links = resolveHyperlinks(hyperlinks, relationships)
  const add = (feature: CarriedFeature, count: number) => {
    if (count > 0) attachments.counts[feature] = (attachments.counts[feature] ?? 0) + count
  }
  let threaded: Record<string, CellNote> = {}
  for (const relationship of relationships) {
    if (relationship.external) continue
    if (RELATIONSHIP('comments').test(relationship.type)) {
      const xml = await read(relationship.target)
      if (xml) Object.assign(attachments.notes, parseCommentsPart(xml))
    } else if (/\/threadedComment$/i.test(relationship.type)) {
      const xml = await read(relationship.target)
      if (xml) threaded = { ...threaded, ...parseThreadedComments(xml, persons) }
    } else if (RELATIONSHIP('drawing').test(relationship.type)) {
      const drawingRelationships = await read(relationshipsPath(relationship.target))
      const inDrawing = drawingRelationships === undefined ? [] : parseRelationships(relationship.target, drawingRelationships)
      add('charts', inDrawing.filter((entry) => RELATIONSHIP('chart').test(entry.type)).length)
      add('pictures', inDrawing.filter((entry) => RELATIONSHIP('image').test(entry.type)).length)
    } else if (RELATIONSHIP('pivotTable').test(relationship.type)) add('pivotTables', 1)
    else if (RELATIONSHIP('slicer').test(relationship.type)) add('slicers', 1)
    else if (RELATIONSHIP('ctrlProp').test(relationship.type)) add('formControls', 1)
  }
  Object.assign(attachments.notes, threaded)
  return attachments
}
