/**
 * Builds the oracle workbooks of definitions.ts: exceljs writes each workbook's formulas, LibreOffice
 * Calc (headless) opens it, recalculates every formula (a hard recalculation, calculateAll, run by a
 * Basic macro) and saves it, and the saved file gets the calculation settings the definition states
 * and Excel's values where the definition states them. Run from the tests folder:
 *
 *   npm run oracle:workbooks [-- NAME ...]
 *
 * It needs `soffice` (LibreOffice) on the PATH. The files are committed; the oracle test only reads them.
 * LibreOffice's iteration does not settle every circular model (it leaves large circular references
 * half calculated), so a circular workbook whose saved values are not a settled state of its formulas
 * is refused.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ExcelJS from 'exceljs'
import JSZip from 'jszip'
import { dataTableAttributes, describeMismatch, compareWithCachedValues, loadXlsxIntoEngine, tryParseRange, formatAddress } from '@finsheet/workbook'
import { ORACLE_WORKBOOKS } from './definitions.js'
import type { OracleWorkbook, StatedValue } from './definitions.js'

const here = fileURLToPath(new URL('.', import.meta.url))

function calcPr(attributes: Record<string, string> | undefined): string {
  const stated = Object.entries(attributes ?? {})
    .map(([name, value]) => ` ${name}="${value}"`)
    .join('')
  return `<calcPr calcId="191029"${stated}/>`
}

async function withCalcPr(bytes: Uint8Array, attributes: Record<string, string> | undefined): Promise<Buffer> {
  const zip = await JSZip.loadAsync(bytes)
  const workbookXml = await zip.file('xl/workbook.xml')!.async('string')
  const element = calcPr(attributes)
  const replaced = /<calcPr\b[^>]*\/>/.test(workbookXml)
    ? workbookXml.replace(/<calcPr\b[^>]*\/>/, element)
    : workbookXml.replace(/(<\/sheets>(?:\s*<definedNames>[\s\S]*?<\/definedNames>)?)/, `$1${element}`)
  zip.file('xl/workbook.xml', replaced)
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' })
}

/** The worksheet part of each sheet name, from the workbook and its relationships. */
async function sheetParts(zip: JSZip): Promise<Map<string, string>> {
  const workbookXml = await zip.file('xl/workbook.xml')!.async('string')
  const relations = await zip.file('xl/_rels/workbook.xml.rels')!.async('string')
  const targets = new Map<string, string>()
  for (const match of relations.matchAll(/<Relationship\b([^>]*)\/>/g)) {
    const id = /Id="([^"]*)"/.exec(match[1])?.[1]
    const target = /Target="([^"]*)"/.exec(match[1])?.[1]
    if (id && target) targets.set(id, target.startsWith('/') ? target.slice(1) : `xl/${target}`)
  }
  const parts = new Map<string, string>()
  for (const match of workbookXml.matchAll(/<sheet\b([^>]*)\/>/g)) {
    const name = /name="([^"]*)"/.exec(match[1])?.[1]
    const id = /r:id="([^"]*)"/.exec(match[1])?.[1]
    if (name && id && targets.has(id)) parts.set(name.replace(/&amp;/g, '&').replace(/&apos;/g, "'"), targets.get(id)!)
  }
  return parts
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** The sheet XML with a formula cell's saved value replaced by the stated one. */
function stateValue(xml: string, stated: StatedValue): string {
  const pattern = new RegExp(`<c r="${stated.address}"([^>]*?)(/>|>([\\s\\S]*?)</c>)`)
  const match = pattern.exec(xml)
  if (!match) throw new Error(`${stated.sheet}!${stated.address} is not in the saved file`)
  const attributes = match[1].replace(/\s+t="[^"]*"/, '')
  const formula = /<f\b[\s\S]*?(?:<\/f>|\/>)/.exec(match[3] ?? '')?.[0] ?? ''
  const value = stated.value
  const [type, text] =
    typeof value === 'number'
      ? ['n', String(value)]
      : typeof value === 'boolean'
        ? ['b', value ? '1' : '0']
        : typeof value === 'string'
          ? ['str', escapeXml(value)]
          : ['e', escapeXml(value.error)]
  return xml.replace(match[0], `<c r="${stated.address}"${attributes} t="${type}">${formula}<v>${text}</v></c>`)
}

/** The Basic macro that opens a workbook, recalculates every formula and saves it as xlsx. */
const RECALCULATE_MACRO = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE script:module PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "module.dtd">
<script:module xmlns:script="http://openoffice.org/2000/script" script:name="Module1" script:language="StarBasic">
Sub Recalculate(source As String, target As String)
  Dim options(0) As New com.sun.star.beans.PropertyValue
  options(0).Name = &quot;Hidden&quot;
  options(0).Value = True
  document = StarDesktop.loadComponentFromURL(ConvertToURL(source), &quot;_blank&quot;, 0, options())
  document.calculateAll()
  Dim filter(0) As New com.sun.star.beans.PropertyValue
  filter(0).Name = &quot;FilterName&quot;
  filter(0).Value = &quot;Calc MS Excel 2007 XML&quot;
  document.storeToURL(ConvertToURL(target), filter())
  document.close(True)
End Sub
</script:module>
`

/** A LibreOffice profile of its own, with the macro in its Standard library. */
function prepareProfile(workDir: string): string {
  const profile = join(workDir, 'profile')
  const run = (args: string[]) => execFileSync('soffice', [`-env:UserInstallation=file://${profile}`, '--headless', ...args], { stdio: ['ignore', 'ignore', 'inherit'], timeout: 120_000 })
  run(['--terminate_after_init'])
  const library = join(profile, 'user', 'basic', 'Standard')
  mkdirSync(library, { recursive: true })
  writeFileSync(join(library, 'Module1.xba'), RECALCULATE_MACRO)
  return profile
}

function recalculate(profile: string, source: string, target: string): void {
  execFileSync('soffice', [`-env:UserInstallation=file://${profile}`, '--headless', `macro:///Standard.Module1.Recalculate("${source}","${target}")`], {
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 120_000,
  })
}

/** Refuses values that one more pass over the formulas would change: LibreOffice did not settle them. */
async function requireSettled(definition: OracleWorkbook, file: string): Promise<void> {
  const onePass = await loadXlsxIntoEngine(file, { calculation: { fullCalcOnLoad: true, maxIterations: 1, maxChange: 0 } })
  const report = compareWithCachedValues(onePass)
  if (report.failed > 0) {
    throw new Error(`${definition.name}: LibreOffice's values are not settled; one more pass changes:\n${report.mismatches.slice(0, 5).map(describeMismatch).join('\n')}`)
  }
}

/** A data table: the first cell of its results and the attributes of its `<f t="dataTable">`. */
interface Table {
  part: string
  address: string
  attributes: Record<string, string>
}

/**
 * Writes each TABLE array formula exceljs wrote as the data table a file keeps (exceljs cannot write
 * one), and answers the tables, to put them back after LibreOffice has saved them its own way.
 */
async function withDataTables(bytes: Uint8Array): Promise<{ bytes: Buffer; tables: Table[] }> {
  const zip = await JSZip.loadAsync(bytes)
  const tables: Table[] = []
  for (const part of Object.keys(zip.files).filter((name) => /^xl\/worksheets\/sheet\d+\.xml$/.test(name))) {
    const xml = await zip.file(part)!.async('string')
    const replaced = xml.replace(/<c r="([A-Z]+\d+)"([^>]*)><f t="array" ref="([^"]+)">(TABLE\([^<]*\))<\/f>/g, (whole, address: string, attributes: string, ref: string, text: string) => {
      const table = dataTableAttributes(text)
      if (!table) return whole
      tables.push({ part, address, attributes: { ref, ...table } })
      return `<c r="${address}"${attributes}><f t="dataTable"${Object.entries({ ref, ...table }).map(([name, value]) => ` ${name}="${value}"`).join('')}/>`
    })
    zip.file(part, replaced)
  }
  return { bytes: await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }), tables }
}

/** The saved sheet with each data table as a file keeps it: LibreOffice saves one formula per result cell. */
function restoreDataTables(xml: string, tables: readonly Table[]): string {
  for (const table of tables) {
    const range = tryParseRange(table.attributes.ref)
    if (!range) continue
    for (let row = range.top; row <= range.bottom; row++) {
      for (let col = range.left; col <= range.right; col++) {
        const address = formatAddress(row, col)
        const first = address === table.address
        xml = xml.replace(new RegExp(`(<c r="${address}"[^>]*>)<f\\b[^>]*(?:/>|>[^<]*</f>)`), (_whole, open: string) =>
          first ? `${open}<f t="dataTable"${Object.entries(table.attributes).map(([name, value]) => ` ${name}="${value}"`).join('')}/>` : open,
        )
      }
    }
  }
  return xml
}

async function build(definition: OracleWorkbook, workDir: string, profile: string): Promise<void> {
  const workbook = new ExcelJS.Workbook()
  definition.build(workbook)
  const source = join(workDir, `${definition.name}.xlsx`)
  const { bytes, tables } = await withDataTables(new Uint8Array(await workbook.xlsx.writeBuffer()))
  writeFileSync(source, await withCalcPr(bytes, definition.calculateWith ?? definition.calcPr))
  const calculated = join(workDir, `${definition.name}-calculated.xlsx`)
  recalculate(profile, source, calculated)
  if (definition.calcPr?.iterate === '1') await requireSettled(definition, calculated)
  const saved = await JSZip.loadAsync(readFileSync(calculated))
  for (const part of new Set(tables.map((table) => table.part))) {
    saved.file(part, restoreDataTables(await saved.file(part)!.async('string'), tables.filter((table) => table.part === part)))
  }
  const parts = await sheetParts(saved)
  for (const stated of definition.excelValues ?? []) {
    const part = parts.get(stated.sheet)
    if (!part) throw new Error(`${definition.name}: no sheet ${stated.sheet}`)
    saved.file(part, stateValue(await saved.file(part)!.async('string'), stated))
  }
  const finished = await withCalcPr(await saved.generateAsync({ type: 'uint8array' }), definition.calcPr)
  writeFileSync(join(here, `${definition.name}.xlsx`), finished)
  console.log(`${definition.name}.xlsx`)
}

const wanted = process.argv.slice(2)
const workDir = mkdtempSync(join(tmpdir(), 'finsheet-oracle-build-'))
try {
  const profile = prepareProfile(workDir)
  for (const definition of ORACLE_WORKBOOKS) {
    if (wanted.length === 0 || wanted.includes(definition.name)) await build(definition, workDir, profile)
  }
} finally {
  rmSync(workDir, { recursive: true, force: true })
}
