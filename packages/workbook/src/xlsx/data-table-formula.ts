/**
 * What-if data tables as xlsx files store them and as the engine runs them. A file keeps a table on
 * the first cell of its results, `<f t="dataTable" ref="C3:G7" dt2D="1" dtr="0" r1="B1" r2="B2"/>`
 * (the other cells hold only values); Excel shows every cell of it as {=TABLE(row_input, column_input)},
 * which is how the engine takes it: a Ctrl+Shift+Enter array formula over `ref`.
 *
 * A two-variable table (dt2D) has its row input in r1 and its column input in r2; a one-variable table
 * has its one input in r1, a row input when its values run along a row (dtr), a column input otherwise.
 */

/** The attributes of a dataTable `<f>`, by name. */
type Attributes = (name: string) => string | undefined

const flag = (value: string | undefined) => value === '1' || value === 'true'

/** The TABLE formula (without '=') and result range of a dataTable `<f>`; undefined when it names no range. */
export function dataTableFormula(attributes: Attributes): { formula: string; ref: string } | undefined {
  const ref = attributes('ref')
  if (!ref) return undefined
  // An input cell that was deleted (del1, del2) leaves its argument #REF!.
  const first = flag(attributes('del1')) ? '#REF!' : (attributes('r1') ?? '')
  const second = flag(attributes('del2')) ? '#REF!' : (attributes('r2') ?? '')
  if (flag(attributes('dt2D'))) return { formula: `TABLE(${first},${second})`, ref }
  return { formula: flag(attributes('dtr')) ? `TABLE(${first},)` : `TABLE(,${first})`, ref }
}

/** The dataTable `<f>` attributes of a TABLE formula, or undefined when the formula is not one. */
export function dataTableAttributes(formula: string): Record<string, string> | undefined {
  const match = /^=?\s*TABLE\(\s*([^,()]*?)\s*,\s*([^,()]*?)\s*\)\s*$/i.exec(formula)
  if (!match) return undefined
  const [, row, column] = match
  const cell = (text: string) => text.replace(/\$/g, '').toUpperCase()
  if (row !== '' && column !== '') return { dt2D: '1', dtr: '1', r1: cell(row), r2: cell(column) }
  if (row !== '') return { dtr: '1', r1: cell(row) }
  if (column !== '') return { dtr: '0', r1: cell(column) }
  return undefined
}
