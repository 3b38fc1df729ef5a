/**
 * The workbook as the planner sees it after get_workbook_overview: its sheets, each with its used
 * range, row labels and header rows, and the matching of the words of a command against them —
 * sheet names, row labels and column headers, with the same similarity the tools use ("growth"
 * finds "Revenue growth", "FY27" finds "FY2027").
 */
import { formatAddress, formatRange, formatSheetPrefix, LABEL_MATCH_THRESHOLD, labelSimilarity, tryParseAddress, tryParseRange, type RangeAddress } from '@finsheet/workbook'
import type { Observation } from './plan-kit.js'
import { stop } from './plan-kit.js'

export interface RowLabel {
  /** 0-based row and column of the label cell. */
  row: number
  col: number
  text: string
}

export interface HeaderCell {
  col: number
  text: string
}

export interface SheetView {
  name: string
  used: RangeAddress | null
  labelColumn: number | null
  /** Header rows, top first (0-based rows). */
  headerRows: { row: number; cells: HeaderCell[] }[]
  labels: RowLabel[]
  /** Row labels the overview left out. */
  moreLabels: number
  errors: { address: string; value: string }[]
  errorCount: number
  formulas: number
  cells: number
  /** The overview's largest blocks of one formula: where each starts, and the formula there. */
  formulaBlocks: { row: number; col: number; formula: string }[]
}

/** A row found by its label, maybe with a column found by its header. */
export interface LabelMatch {
  sheet: SheetView
  label: RowLabel
  column?: HeaderCell
  score: number
}

/** A sheet-qualified reference as tools and people read it: `Assumptions!B2`, `'Q1 Data'!A1:C4`. */
export function refText(sheet: string, range: RangeAddress): string {
  return `${formatSheetPrefix(sheet)}!${formatRange(range)}`
}

export const cellRange = (row: number, col: number): RangeAddress => ({ top: row, left: col, bottom: row, right: col })

export class WorkbookView {
  constructor(readonly sheets: SheetView[]) {}

  /** Reads get_workbook_overview's content. */
  static fromOverview(observation: Observation): WorkbookView {
    if (!observation.ok || !observation.content || !Array.isArray(observation.content.sheets)) {
      stop(`I could not look over the workbook: ${observation.error ?? 'the overview did not answer'}.`)
    }
    const sheets: SheetView[] = (observation.content.sheets as Record<string, unknown>[]).map((sheet) => {
      const name = String(sheet.name)
      if (sheet.empty) return { name, used: null, labelColumn: null, headerRows: [], labels: [], moreLabels: 0, errors: [], errorCount: 0, formulas: 0, cells: 0, formulaBlocks: [] }
      const labels: RowLabel[] = []
      for (const [address, text] of Object.entries((sheet.rowLabels as Record<string, string>) ?? {})) {
        const at = tryParseAddress(address)
        if (at) labels.push({ row: at.row, col: at.col, text: String(text) })
      }
      const headerRows = ((sheet.headerRows as { row: number; cells: Record<string, string> }[]) ?? []).map((header) => ({
        row: header.row - 1,
        cells: Object.entries(header.cells ?? {})
          .map(([address, text]) => ({ col: tryParseAddress(address)?.col ?? -1, text: String(text) }))
          .filter((cell) => cell.col >= 0),
      }))
      const errors = sheet.errors as { count: number; cells: Record<string, string> } | undefined
      const labelColumn = typeof sheet.labelColumn === 'string' ? (tryParseAddress(`${sheet.labelColumn}1`)?.col ?? null) : null
      return {
        name,
        used: typeof sheet.usedRange === 'string' ? (tryParseRange(sheet.usedRange) ?? null) : null,
        labelColumn,
        headerRows,
        labels,
        moreLabels: Number(sheet.moreRowLabels ?? 0),
        errors: Object.entries(errors?.cells ?? {}).map(([address, value]) => ({ address, value: String(value) })),
        errorCount: errors?.count ?? 0,
        formulas: Number(sheet.formulas ?? 0),
        cells: Number(sheet.cells ?? 0),
        formulaBlocks: ((sheet.formulaPatterns as string[] | undefined) ?? []).flatMap((line) => {
          // "B2:E2 (4 cells): =B1*2" or "B7: =SUM(B2:B6)"
          const block = /^([A-Z]+[0-9]+)(?::[A-Z]+[0-9]+)?(?: \([0-9,]+ cells\))?: (=.*)$/.exec(String(line))
          const at = block ? tryParseAddress(block[1]) : undefined
          return block && at ? [{ row: at.row, col: at.col, formula: block[2] }] : []
        }),
      }
    })
    return new WorkbookView(sheets)
  }

  /** A sheet by the name a user gave: exact, then ignoring case and punctuation, then the one close match. */
  findSheet(name: string): SheetView | undefined {
    const wanted = name.trim()
    const exact = this.sheets.find((sheet) => sheet.name === wanted) ?? this.sheets.find((sheet) => sheet.name.toLowerCase() === wanted.toLowerCase())
    if (exact) return exact
    const scored = this.sheets.map((sheet) => ({ sheet, score: labelSimilarity(wanted, sheet.name) })).sort((a, b) => b.score - a.score)
    if (scored.length > 0 && scored[0].score >= 0.8 && (scored.length === 1 || scored[1].score < scored[0].score)) return scored[0].sheet
    return undefined
  }

  /** The sheet a user named, or a stop listing the sheets. */
  sheetNamed(name: string): SheetView {
    const found = this.findSheet(name)
    if (!found) stop(`There is no sheet named “${name}”. The sheets are: ${this.sheets.map((sheet) => sheet.name).join(', ')}.`)
    return found
  }

  /** The sheet a command is about: the one it names, else the user's active sheet, else the first. */
  sheetFor(named: string | undefined, active: string | undefined): SheetView {
    if (named !== undefined) return this.sheetNamed(named)
    if (active !== undefined) {
      const found = this.findSheet(active)
      if (found) return found
    }
    if (this.sheets.length === 0) stop('The workbook has no sheets.')
    return this.sheets[0]
  }

  /**
   * The labels of the match's sheet that the same words match as well, in row order, the match's own
   * among them: a title or a section header ("Unlevered Free Cash Flow" over the sheet) beside the line.
   */
  labelsTied(match: LabelMatch, text: string): LabelMatch[] {
    const own = labelSimilarity(text, match.label.text)
    // A match through another word for the line ("discount rate" for WACC) has no equals among the words' own matches.
    if (own < LABEL_MATCH_THRESHOLD) return [match]
    return match.sheet.labels
      .filter((label) => label === match.label || Math.abs(labelSimilarity(text, label.text) - own) <= 1e-9)
      .map((label) => ({ ...match, label }))
  }

  /**
   * The header of `sheet` that says the words (not one they merely resemble): "FY2025" is that column's
   * header before it is the address of column FY, row 2025.
   */
  headerSaying(sheet: SheetView, text: string, closeness = 0.95): HeaderCell | undefined {
    const header = this.matchHeader(sheet, text)
    return header && labelSimilarity(text, header.text) >= closeness ? header : undefined
  }

  /** Sheets in the order a label is looked for: the named one alone, else the active one first. */
  searchOrder(named: string | undefined, active: string | undefined): SheetView[] {
    if (named !== undefined) return [this.sheetNamed(named)]
    const first = active !== undefined ? this.findSheet(active) : undefined
    return first ? [first, ...this.sheets.filter((sheet) => sheet !== first)] : [...this.sheets]
  }

  /**
   * The row a phrase names, and the column when the phrase names one too ("revenue for FY2025",
   * "FY2025 revenue", "growth in Assumptions"). The best match over the sheets wins; on equal scores
   * the active sheet, then the earlier sheet.
   */
  matchLabel(text: string, named: string | undefined, active: string | undefined): LabelMatch | undefined {
    const direct = this.matchWords(text, named, active)
    if (direct) return direct
    // Another word for the same line ("discount rate" for WACC), when the words themselves match nothing.
    const lower = ` ${text.toLowerCase().trim()} `
    for (const [phrase, others] of Object.entries(SYNONYMS)) {
      if (!lower.includes(` ${phrase} `)) continue
      for (const other of others) {
        const found = this.matchWords(lower.replace(` ${phrase} `, ` ${other} `).trim(), named, active)
        if (found) return found
      }
    }
    return undefined
  }

  private matchWords(text: string, named: string | undefined, active: string | undefined): LabelMatch | undefined {
    let best: LabelMatch | undefined
    const consider = (candidate: LabelMatch | undefined) => {
      if (candidate && candidate.score >= LABEL_MATCH_THRESHOLD && (!best || candidate.score > best.score + 1e-9)) best = candidate
    }
    for (const sheet of this.searchOrder(named, active)) {
      consider(bestRow(sheet, text))
      for (const split of splits(text)) {
        // "growth in Assumptions": the part after the connector names a sheet.
        const other = named === undefined ? this.findSheet(split.qualifier) : undefined
        if (other === sheet) {
          const row = bestRow(sheet, split.row)
          if (row) consider({ ...row, score: row.score * 0.99 })
          continue
        }
        const column = bestHeader(sheet, split.qualifier)
        if (!column) continue
        const row = bestRow(sheet, split.row)
        if (row) consider({ ...row, column: column.cell, score: Math.min(row.score, column.score) * 0.99 })
      }
    }
    return best
  }

  /** The column a header names on a sheet (the best match at or above the threshold). */
  matchHeader(sheet: SheetView, text: string): HeaderCell | undefined {
    return bestHeader(sheet, text)?.cell
  }

  /** The labels of a sheet, for an answer that names what is there. */
  labelList(sheets?: SheetView[], max = 12): string {
    const shown: string[] = []
    for (const sheet of sheets ?? this.sheets) for (const label of sheet.labels) if (shown.length < max) shown.push(`${label.text} (${sheet.name}!${formatAddress(label.row, label.col)})`)
    return shown.length > 0 ? shown.join(', ') : 'none'
  }
}

function bestRow(sheet: SheetView, text: string): LabelMatch | undefined {
  let best: LabelMatch | undefined
  for (const label of sheet.labels) {
    const score = labelSimilarity(text, label.text)
    if (!best || score > best.score + 1e-9) best = { sheet, label, score }
  }
  return best && best.score >= LABEL_MATCH_THRESHOLD ? best : undefined
}

/** The header cell a phrase names: the nearest header row's, when several match as well. */
function bestHeader(sheet: SheetView, text: string): { cell: HeaderCell; score: number } | undefined {
  let best: { cell: HeaderCell; score: number } | undefined
  for (const header of sheet.headerRows) {
    for (const cell of header.cells) {
      const score = labelSimilarity(text, cell.text)
      if (!best || score > best.score + 1e-9) best = { cell, score }
    }
  }
  return best && best.score >= LABEL_MATCH_THRESHOLD ? best : undefined
}

/** Words analysts use for the same line of a model. */
const SYNONYMS: Record<string, string[]> = {
  'discount rate': ['wacc', 'cost of capital'],
  'cost of capital': ['wacc', 'discount rate'],
  wacc: ['discount rate', 'cost of capital'],
  sales: ['revenue', 'turnover'],
  turnover: ['revenue', 'sales'],
  revenue: ['sales', 'turnover'],
  'terminal growth': ['perpetual growth', 'long-term growth'],
  'perpetual growth': ['terminal growth', 'long-term growth'],
  'operating income': ['ebit', 'operating profit'],
  ebit: ['operating income', 'operating profit'],
  profit: ['net income', 'earnings'],
  earnings: ['net income', 'profit'],
  'cost of sales': ['cost of goods sold'],
  headcount: ['employees', 'fte'],
}

const CONNECTORS = [' for ', ' in ', ' at ', ' of ', ' on ', ' from ']

/** Ways to read a phrase as a row and a qualifier: "revenue for FY2025", and "FY2025 revenue" (first or last word). */
function splits(text: string): { row: string; qualifier: string }[] {
  const found: { row: string; qualifier: string }[] = []
  const lower = text.toLowerCase()
  for (const connector of CONNECTORS) {
    let at = lower.indexOf(connector)
    while (at > 0) {
      found.push({ row: text.slice(0, at).trim(), qualifier: text.slice(at + connector.length).trim() })
      at = lower.indexOf(connector, at + 1)
    }
  }
  const words = text.trim().split(/\s+/)
  if (words.length >= 2) {
    found.push({ row: words.slice(1).join(' '), qualifier: words[0] })
    found.push({ row: words.slice(0, -1).join(' '), qualifier: words[words.length - 1] })
  }
  return found.filter((split) => split.row !== '' && split.qualifier !== '')
}
