/**
 * explain_formula: a cell's formula in words, the cells and ranges it reads with their labels and
 * values, the functions it calls with what they do, and whether it is one of a block of copies or
 * differs from the formulas beside it.
 */
import { parseFormulaText, type FormulaNode } from '@finsheet/formula'
import { formatRange, type SheetRecord, type WorkbookModel } from '@finsheet/workbook'
import { cellLabelAt } from '../cell-labels.js'
import { describeTree, functionsIn } from '../describe-formula.js'
import { cellText } from '../draft-session.js'
import { ReferenceReader } from '../references.js'
import type { SheetLayout } from '../sheet-layout.js'
import { resolveCell } from '../targets.js'
import { defineTool, echo, formatOf, meaningfulDisplay, modelValue, TextFlags } from '../tool-kit.js'
import { summarizeReference } from './reference-summary.js'

const MAX_EXPLANATION = 1500

/** A value in a sentence: numbers without floating-point noise (916.5975, not 916.5975000000001). */
function prose(value: unknown): string {
  if (typeof value === 'number') return String(Number(value.toPrecision(12)))
  return JSON.stringify(value)
}

/** How the cell's formula stands among its neighbours. */
function patternNote(state: WorkbookModel, layout: SheetLayout, sheet: SheetRecord, row: number, col: number): string | undefined {
  const pattern = layout.patterns.find((block) => row >= block.top && row <= block.bottom && col >= block.left && col <= block.right)
  if (pattern && pattern.count > 1) return `One of ${pattern.count} copies of the same formula across ${formatRange(pattern)} (references shift with each cell).`
  const shape = (r: number, c: number) => (r < 0 || c < 0 ? undefined : state.engine.getFormulaShapeAt(sheet.name, r, c))
  const left = shape(row, col - 1)
  const right = shape(row, col + 1)
  if (left !== undefined && left === right) return 'Differs from the formulas on both sides of it in its row, which share one pattern: check whether it should follow them.'
  const above = shape(row - 1, col)
  const below = shape(row + 1, col)
  if (above !== undefined && above === below) return 'Differs from the formulas above and below it in its column, which share one pattern: check whether it should follow them.'
  return undefined
}

export const explainFormula = defineTool({
  name: 'explain_formula',
  writes: false,
  attempt: (args) => `Explaining ${echo(args.address)} on ${args.sheet}`,
  run(args, context) {
    const { state, session } = context
    const cell = resolveCell(context, args.sheet, args.address)
    const where = cellText(cell.sheet.name, cell.row, cell.col)
    const input = state.engine.getInputAt(cell.sheet.name, cell.row, cell.col)
    const value = state.engine.getValueAt(cell.sheet.name, cell.row, cell.col)
    const label = cellLabelAt(state, cell.sheet, cell.row, cell.col)
    const flags = new TextFlags()
    const base = { cell: where, ...(cell.via ? { via: cell.via } : {}), ...(label ? { label } : {}), value: modelValue(value) }
    const display = meaningfulDisplay(value, formatOf(state, cell.sheet, cell.row, cell.col, cell.address))
    if (!input.startsWith('=')) {
      return {
        summary: `Explaining ${where}`,
        content: { ...base, ...(display ? { shown: display } : {}), formula: null, explanation: input === '' ? `${where} is empty.` : `${where} holds a typed value, not a formula: it is an input the model reads.` },
      }
    }
    let tree: FormulaNode | undefined
    try {
      tree = parseFormulaText(input, cell.address)
    } catch (error) {
      return { summary: `Explaining ${where}`, content: { ...base, formula: input, explanation: `The formula does not parse: ${(error as Error).message}` } }
    }
    const reader = session.piece('reference-reader', () => new ReferenceReader(state))
    const reads = reader.referencesOf(cell.sheet, cell.row, cell.col).map((reference) => summarizeReference(state, reference.sheet, reference.text, reference.range, flags, reference.name))
    // Each reference is shown as written, with what it is called and holds: "D2 (Revenue · FY2026, = 1210)".
    const notes = new Map<string, string>()
    for (const read of reads) {
      const parts = [read.label ? `${read.label}` : undefined, 'value' in read ? `= ${prose(read.value)}` : 'total' in read ? `total ${prose(read.total)}` : undefined].filter(Boolean)
      if (parts.length > 0) notes.set(String(read.ref).replace(/'/g, ''), parts.join(', '))
    }
    const words = describeTree(tree, {
      row: cell.row,
      col: cell.col,
      refName: (text, sheet) => {
        const written = sheet !== undefined ? `${sheet}!${text}` : text
        const full = `${sheet !== undefined ? (state.findSheet(sheet)?.name ?? sheet) : cell.sheet.name}!${text}`.replace(/'/g, '')
        const note = notes.get(full)
        return note ? `${written} (${note})` : written
      },
    })
    const catalogue = new Map(state.engine.getFunctionCatalogue().map((entry) => [entry.name.toUpperCase(), entry]))
    const functions = [...functionsIn(tree)].map((name) => {
      const entry = catalogue.get(name)
      return entry ? { name, syntax: entry.syntax, description: entry.description } : { name, description: 'Not a function this workbook knows (it shows #NAME?)' }
    })
    const explanation = `${label ? `${label} (${where})` : where} = ${words}.`
    const pattern = patternNote(state, context.layout(cell.sheet), cell.sheet, cell.row, cell.col)
    return {
      summary: `Explaining ${where}`,
      content: {
        ...base,
        ...(display ? { shown: display } : {}),
        formula: input,
        explanation: explanation.length > MAX_EXPLANATION ? `${explanation.slice(0, MAX_EXPLANATION)}…` : explanation,
        reads,
        functions,
        ...(pattern ? { pattern } : {}),
        ...flags.fields(),
      },
    }
  },
})
