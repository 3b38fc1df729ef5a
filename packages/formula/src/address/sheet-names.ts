/**
 * Excel's rules for sheet names, written once for the engine, the workbook model, imports and the web:
 * 1 to 31 characters, none of : \ / ? * [ ], not starting or ending with an apostrophe, and text every
 * file format can store (no unpaired UTF-16 surrogate).
 */

export const MAX_SHEET_NAME_LENGTH = 31
const FORBIDDEN = /[:\\/?*[\]]/
const FORBIDDEN_ALL = /[:\\/?*[\]]/g

/** Whether text is well-formed Unicode: no unpaired UTF-16 surrogate. */
export function isWellFormedText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1)
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false
      i++
    } else if (unit >= 0xdc00 && unit <= 0xdfff) return false
  }
  return true
}

/** Why a name cannot be a sheet's name (whatever the other sheets are called), or null when it can. */
export function sheetNameFormatProblem(name: string): string | null {
  if (name.trim() === '') return 'A sheet name cannot be empty'
  if (name.length > MAX_SHEET_NAME_LENGTH) return `A sheet name can have at most ${MAX_SHEET_NAME_LENGTH} characters`
  if (FORBIDDEN.test(name)) return 'A sheet name cannot contain \\ / ? * [ ] or :'
  if (name.startsWith("'") || name.endsWith("'")) return 'A sheet name cannot start or end with an apostrophe'
  if (!isWellFormedText(name)) return 'A sheet name cannot contain unpaired surrogate characters'
  return null
}

/** The nearest valid sheet name to any text (a file's name, a CSV's): forbidden characters become spaces. */
export function toSheetName(text: string, fallback = 'Sheet1'): string {
  const cleaned = text.replace(FORBIDDEN_ALL, ' ').replace(/^'+|'+$/g, '').trim().slice(0, MAX_SHEET_NAME_LENGTH).trim()
  return cleaned !== '' && isWellFormedText(cleaned) ? cleaned : fallback
}
