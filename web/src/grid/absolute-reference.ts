import type { EditText } from './formula-editing'
import { formulaReferences, isFormulaText } from './formula-editing'

/** The anchoring of one cell reference: column and row fixed with `$` or relative. */
interface Anchoring {
  column: boolean
  row: boolean
}

/** F4's order, as in Excel: A1 → $A$1 → A$1 → $A1 → A1. */
const CYCLE: readonly Anchoring[] = [
  { column: false, row: false },
  { column: true, row: true },
  { column: false, row: true },
  { column: true, row: false },
]

const CELL_PART = /^(\$?)([A-Za-z]{1,3})(\$?)([0-9]+)$/

function anchoringOf(part: string): Anchoring | null {
  const m = CELL_PART.exec(part)
  return m ? { column: m[1] === '$', row: m[3] === '$' } : null
}

function writeAnchored(part: string, anchoring: Anchoring): string {
  const m = CELL_PART.exec(part)
  if (!m) return part
  return `${anchoring.column ? '$' : ''}${m[2]}${anchoring.row ? '$' : ''}${m[4]}`
}

function nextAnchoring(current: Anchoring): Anchoring {
  const index = CYCLE.findIndex((a) => a.column === current.column && a.row === current.row)
  return CYCLE[(index + 1) % CYCLE.length]
}

/**
 * F4 while editing a formula: the reference the caret is in (or just after) takes the next anchoring
 * of A1 → $A$1 → A$1 → $A1 → A1. A range moves both ends together, starting from its first end's
 * anchoring; a sheet prefix stays. The caret lands at the end of the reference, so F4 again cycles on.
 * Null when the text is no formula or no reference touches the caret.
 */
export function cycleReferenceAnchoring(text: string, caret: number): EditText | null {
  if (!isFormulaText(text)) return null
  const refs = formulaReferences(text)
  const ref = refs.find((r) => caret >= r.span.start && caret <= r.span.end)
  if (!ref) return null
  const original = text.slice(ref.span.start, ref.span.end)
  const bang = original.lastIndexOf('!')
  const prefix = bang >= 0 ? original.slice(0, bang + 1) : ''
  const parts = original.slice(bang + 1).split(':')
  const current = anchoringOf(parts[0])
  if (!current) return null
  const next = nextAnchoring(current)
  const written = prefix + parts.map((part) => writeAnchored(part, next)).join(':')
  return { text: text.slice(0, ref.span.start) + written + text.slice(ref.span.end), caret: ref.span.start + written.length }
}
