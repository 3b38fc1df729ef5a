/**
 * Excel's print area and print titles are sheet-scoped names the file writes `_xlnm.Print_Area` and
 * `_xlnm.Print_Titles`, and Excel shows as Print_Area and Print_Titles. The workbook keeps them under
 * the names Excel shows; print titles of both rows and columns are a union (`Sheet1!$A:$A,Sheet1!$1:$1`),
 * which a formula holds in parentheses.
 */

const PRINT_NAME = /^(?:_xlnm\.)?(Print_Area|Print_Titles)$/i

/** The name a print setting is kept under ('Print_Area'), or undefined for any other name. */
export function printNameOf(name: string): string | undefined {
  const match = PRINT_NAME.exec(name)
  if (!match) return undefined
  return match[1].toLowerCase() === 'print_area' ? 'Print_Area' : 'Print_Titles'
}

/** Whether the text has a comma outside parentheses and quotes: a union of ranges. */
function hasTopLevelComma(text: string): boolean {
  let depth = 0
  let quote: string | null = null
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null
    } else if (ch === "'" || ch === '"') quote = ch
    else if (ch === '(') depth++
    else if (ch === ')') depth--
    else if (ch === ',' && depth === 0) return true
  }
  return false
}

/** A print setting's formula as the workbook keeps it (without '='): a union in parentheses. */
export function keptPrintFormula(formula: string): string {
  return hasTopLevelComma(formula) ? `(${formula})` : formula
}

/** A print setting's formula as the file stores it: a union without its parentheses. */
export function storedPrintFormula(formula: string): string {
  const inner = formula.startsWith('(') && formula.endsWith(')') ? formula.slice(1, -1) : formula
  return hasTopLevelComma(inner) ? inner : formula
}
