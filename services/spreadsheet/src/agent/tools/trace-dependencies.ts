/**
 * trace_dependencies: what a cell's formula reads (precedents) and which formulas read the cell
 * (dependents), level by level up to `depth`, each with its label and value. Precedents come from the
 * formula's references; dependents from an index of every formula's references, built once for the
 * workbook as it is and kept while it does not change.
 */
import { formatAddress, type SheetRecord } from '@finsheet/workbook'
import { cellLabelAt } from '../cell-labels.js'
import { cellText } from '../draft-session.js'
import { DependentsIndex, ReferenceReader } from '../references.js'
import { resolveCell } from '../targets.js'
import { count, defineTool, echo, modelValue, TextFlags } from '../tool-kit.js'
import { summarizeReference } from './reference-summary.js'

/** Entries a trace lists in each direction. */
const MAX_ENTRIES = 100
/** Cells of a range followed to the next level of precedents; larger ranges are listed, not followed. */
const FOLLOW_RANGE_CELLS = 20

interface Position {
  sheet: SheetRecord
  row: number
  col: number
}

const keyOf = (position: Position) => `${position.sheet.id}!${position.row}:${position.col}`

export const traceDependencies = defineTool({
  name: 'trace_dependencies',
  writes: false,
  attempt: (args) => `Tracing ${args.direction} of ${echo(args.address)} on ${args.sheet}`,
  run(args, context) {
    const { state, session } = context
    const cell = resolveCell(context, args.sheet, args.address)
    const depth = args.depth ?? 1
    const flags = new TextFlags()
    const reader = session.piece('reference-reader', () => new ReferenceReader(state))
    const start: Position = { sheet: cell.sheet, row: cell.row, col: cell.col }
    const content: Record<string, unknown> = {
      cell: cellText(cell.sheet.name, cell.row, cell.col),
      ...(cell.via ? { via: cell.via } : {}),
      value: modelValue(state.engine.getValueAt(cell.sheet.name, cell.row, cell.col)),
    }
    const input = state.engine.getInputAt(cell.sheet.name, cell.row, cell.col)
    if (input.startsWith('=')) content.formula = input
    const label = cellLabelAt(state, cell.sheet, cell.row, cell.col)
    if (label) content.label = label
    let listed = 0

    if (args.direction !== 'dependents') {
      const precedents: Record<string, unknown>[] = []
      const seen = new Set<string>([keyOf(start)])
      let level: Position[] = [start]
      for (let step = 1; step <= depth && level.length > 0 && precedents.length < MAX_ENTRIES; step++) {
        const next: Position[] = []
        for (const position of level) {
          for (const reference of reader.referencesOf(position.sheet, position.row, position.col)) {
            if (precedents.length >= MAX_ENTRIES) break
            precedents.push({ level: step, ...(step > 1 ? { of: cellText(position.sheet.name, position.row, position.col) } : {}), ...summarizeReference(state, reference.sheet, reference.text, reference.range, flags, reference.name) })
            if (!reference.sheet) continue
            const { range } = reference
            if ((range.bottom - range.top + 1) * (range.right - range.left + 1) > FOLLOW_RANGE_CELLS) continue
            for (let row = range.top; row <= range.bottom; row++) {
              for (let col = range.left; col <= range.right; col++) {
                const found = { sheet: reference.sheet, row, col }
                if (seen.has(keyOf(found)) || state.engine.getFormulaShapeAt(found.sheet.name, row, col) === undefined) continue
                seen.add(keyOf(found))
                next.push(found)
              }
            }
          }
        }
        level = next
      }
      content.precedents = precedents
      if (precedents.length === 0) content.precedentsNote = input.startsWith('=') ? 'The formula reads no cells.' : 'The cell holds no formula, so it reads no cells: it is an input.'
      listed += precedents.length
    }

    if (args.direction !== 'precedents') {
      const index = session.piece('dependents-index', () => new DependentsIndex(state))
      const dependents: Record<string, unknown>[] = []
      const seen = new Set<string>([keyOf(start)])
      let level: Position[] = [start]
      let total = 0
      for (let step = 1; step <= depth && level.length > 0; step++) {
        const next: Position[] = []
        for (const position of level) {
          for (const reader2 of index.readersOf(position.sheet, position.row, position.col)) {
            if (seen.has(keyOf(reader2))) continue
            seen.add(keyOf(reader2))
            next.push(reader2)
            total++
            if (dependents.length >= MAX_ENTRIES) continue
            const address = formatAddress(reader2.row, reader2.col)
            dependents.push({
              level: step,
              ...(step > 1 ? { of: cellText(position.sheet.name, position.row, position.col) } : {}),
              ...summarizeReference(state, reader2.sheet, cellText(reader2.sheet.name, reader2.row, reader2.col), { top: reader2.row, left: reader2.col, bottom: reader2.row, right: reader2.col }, flags),
              address,
            })
          }
        }
        level = next
      }
      content.dependents = dependents.map(({ address: _address, ...rest }) => rest)
      if (total > dependents.length) content.moreDependents = total - dependents.length
      if (total === 0) content.dependentsNote = 'No formula reads this cell.'
      listed += total
    }
    const where = cellText(cell.sheet.name, cell.row, cell.col)
    const what = args.direction === 'both' ? 'precedents and dependents' : args.direction
    return { summary: `Tracing the ${what} of ${where} (${count(listed, 'cell')})`, content: { ...content, ...flags.fields() } }
  },
})
