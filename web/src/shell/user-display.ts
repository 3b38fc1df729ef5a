/** Spec 1 §2: the avatar's initials are the first letters of up to 2 words of the name, else 'U'. */
export function initials(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean)
  if (words.length === 0) return 'U'
  return words
    .slice(0, 2)
    .map((w) => Array.from(w)[0].toUpperCase())
    .join('')
}

export const DEFAULT_WORKBOOK_ID = 'defaultWorkbook'

/**
 * The top bar's workbook name: the name the workbook has (the same the workbooks list, Version
 * Control and downloads use, so a rename shows everywhere). A workbook without one reads 'Default
 * Workbook' for the default id, 'DCF Model' when the sheets include both Assumptions and Valuation,
 * otherwise 'Workbook' and the first 8 characters of the id; 'No workbook selected' without one.
 */
export function workbookTitle(workbook: { id: string; name?: string; sheetNames: readonly string[] } | null): string {
  if (!workbook) return 'No workbook selected'
  if (workbook.name && workbook.name.trim() !== '') return workbook.name
  if (workbook.id === DEFAULT_WORKBOOK_ID) return 'Default Workbook'
  if (workbook.sheetNames.includes('Assumptions') && workbook.sheetNames.includes('Valuation')) return 'DCF Model'
  return `Workbook ${workbook.id.slice(0, 8)}`
}
