/**
 * Reading an xlsx file's links to other workbooks. Formulas store an external reference with the
 * link's number, `[1]Sheet1!$C$8`: the first `<externalReference>` of xl/workbook.xml is `[1]`. Each
 * points at a part (xl/externalLinks/externalLink1.xml) whose `<externalBook>` lists the other
 * workbook's sheets (`<sheetNames>`) and the values Excel last read from them (`<sheetDataSet>`: per
 * sheet, by its position in the names, the cells with their value and type), and whose relationship
 * names the file. Both importers (exceljs-based and streaming) read the parts through this module.
 */
import { errorFromText } from '@finsheet/formula'
import type { ExternalCachedValue, ExternalLinkRecord } from '../model/external-links.js'
import { attribute, decodeXml } from './xml-text.js'

/** Reads a part of the zip as text; undefined when the file has no such part. */
export type PartReader = (path: string) => Promise<string | undefined>

/**
 * The workbook's external links in formula-number order. A link that is not to a workbook (DDE, OLE)
 * keeps its number with no sheets, so later links keep theirs.
 */
export async function readExternalLinks(workbookXml: string, relationsXml: string, readPart: PartReader): Promise<ExternalLinkRecord[]> {
  const section = /<(?:\w+:)?externalReferences\b[^>]*>([\s\S]*?)<\/(?:\w+:)?externalReferences>/.exec(workbookXml)
  if (!section) return []
  const targets = relationTargets(relationsXml, 'xl/')
  const links: ExternalLinkRecord[] = []
  for (const reference of section[1].matchAll(/<(?:\w+:)?externalReference\b([^>]*?)\/?>/g)) {
    const id = relationshipId(reference[1])
    const part = id === undefined ? undefined : targets.get(id)
    const xml = part === undefined ? undefined : await readPart(part)
    if (part === undefined || xml === undefined) {
      links.push({ target: 'unknown', sheets: [] })
      continue
    }
    const slash = part.lastIndexOf('/')
    const relsPath = `${part.slice(0, slash)}/_rels/${part.slice(slash + 1)}.rels`
    const partRelations = relationTargets((await readPart(relsPath)) ?? '', '')
    links.push(readExternalLinkPart(xml, partRelations))
  }
  return links
}

/** One external-link part, with its own relationships (id → target as written). */
export function readExternalLinkPart(xml: string, relations: ReadonlyMap<string, string>): ExternalLinkRecord {
  const book = /<(?:\w+:)?externalBook\b([^>]*)>([\s\S]*?)<\/(?:\w+:)?externalBook>|<(?:\w+:)?externalBook\b([^>]*?)\/>/.exec(xml)
  if (!book) {
    const dde = /<(?:\w+:)?ddeLink\b([^>]*)/.exec(xml)
    const service = dde ? attribute(dde[1], 'ddeService') : undefined
    const topic = dde ? attribute(dde[1], 'ddeTopic') : undefined
    return { target: service ? `${service}|${topic ?? ''}` : 'unknown', sheets: [] }
  }
  const attributes = book[1] ?? book[3] ?? ''
  const body = book[2] ?? ''
  const id = relationshipId(attributes)
  const target = (id === undefined ? undefined : relations.get(id)) ?? 'unknown'
  const sheets: ExternalLinkRecord['sheets'] = []
  const names = /<(?:\w+:)?sheetNames\b[^>]*>([\s\S]*?)<\/(?:\w+:)?sheetNames>/.exec(body)?.[1] ?? ''
  for (const name of names.matchAll(/<(?:\w+:)?sheetName\b([^>]*?)\/?>/g)) sheets.push({ name: attribute(name[1], 'val') ?? '', cells: {} })
  for (const data of body.matchAll(/<(?:\w+:)?sheetData\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?sheetData>)/g)) {
    const sheet = sheets[Number(attribute(data[1], 'sheetId'))]
    if (sheet === undefined) continue
    const refreshError = attribute(data[1], 'refreshError')
    if (refreshError === '1' || refreshError === 'true') sheet.refreshError = true
    for (const cell of (data[2] ?? '').matchAll(/<(?:\w+:)?cell\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?cell>)/g)) {
      const address = attribute(cell[1], 'r')
      if (address === undefined) continue
      const text = /<(?:\w+:)?v\b[^>]*>([\s\S]*?)<\/(?:\w+:)?v>/.exec(cell[2] ?? '')?.[1]
      sheet.cells[address] = cachedValue(attribute(cell[1], 't') ?? 'n', text === undefined ? undefined : decodeXml(text))
    }
  }
  return { target, sheets }
}

/** A cached cell by its type: numbers (`n`, the default), text (`str`, `s`), booleans (`b`) and errors (`e`). */
function cachedValue(type: string, text: string | undefined): ExternalCachedValue {
  if (text === undefined) return null
  switch (type) {
    case 'b':
      return text === '1' || text.toLowerCase() === 'true'
    case 'e':
      return { error: errorFromText(text)?.code ?? '#N/A' }
    case 'n': {
      const number = Number(text)
      return text.trim() !== '' && Number.isFinite(number) ? number : text
    }
    default:
      return text
  }
}

/** Relationship ids to their targets: resolved against `base` (a package folder), or as written when it is ''. */
function relationTargets(xml: string, base: string): Map<string, string> {
  const targets = new Map<string, string>()
  for (const match of xml.matchAll(/<(?:\w+:)?Relationship\b([^>]*?)\/?>/g)) {
    const id = attribute(match[1], 'Id')
    const target = attribute(match[1], 'Target')
    if (!id || target === undefined) continue
    targets.set(id, base === '' ? target : target.startsWith('/') ? target.slice(1) : normalizePath(base + target))
  }
  return targets
}

function relationshipId(attributes: string): string | undefined {
  return /(?:^|\s)[\w]+:id\s*=\s*"([^"]*)"/.exec(attributes)?.[1]
}

function normalizePath(path: string): string {
  const out: string[] = []
  for (const segment of path.split('/')) {
    if (segment === '..') out.pop()
    else if (segment !== '.' && segment !== '') out.push(segment)
  }
  return out.join('/')
}

