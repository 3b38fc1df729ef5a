/**
 * What a sheet's cells carry besides their content, kept by address in the sheet's view: notes (text
 * and author, as Excel's notes and threaded comments) and links. They belong to their cell, so they
 * move with it: inserted and deleted rows and columns shift them (a deleted cell's note goes with it),
 * and a cut-and-paste carries them to where the block lands.
 */
import { MAX_LINK_LENGTH, MAX_NOTE_LENGTH, type CellNote, type SetSheetViewCommand, type SheetViewState } from '@finsheet/contracts'
import { formatAddress, moveAddress, normalizeAddress, parseAddress, type RangeAddress, type StructuralEdit } from './a1.js'
import { commandErrors } from './command-checks.js'

export type { CellNote }
type NoteEdit = NonNullable<SetSheetViewCommand['notes']>[number]
type LinkEdit = NonNullable<SetSheetViewCommand['links']>[number]
export type AnnotationKind = 'notes' | 'links'
export const ANNOTATION_KINDS = ['notes', 'links'] as const

/** Link addresses a browser may open: web and mail addresses, and places in the workbook (`#Sheet1!A1`). */
const SAFE_LINK = /^(?:https?:\/\/|mailto:|#)/i

/** Whether a link may be kept and opened: a web or mail address, or a place in the workbook. */
export function isSafeLink(url: string): boolean {
  return url.length <= MAX_LINK_LENGTH && SAFE_LINK.test(url.trim())
}

function cellAddress(text: string): string {
  const address = normalizeAddress(text)
  if (!address) throw commandErrors.invalidCommand(`${text} is not a cell address`)
  return address
}

/** Checks the notes and links of a set-sheet-view command, refusing the whole command on the first bad one. */
export function checkAnnotations(command: Pick<SetSheetViewCommand, 'notes' | 'links'>): void {
  for (const edit of command.notes ?? []) {
    cellAddress(edit.address)
    if (edit.note === null) continue
    if (edit.note.text.trim() === '') throw commandErrors.invalidCommand('A note needs some text')
    if (edit.note.text.length > MAX_NOTE_LENGTH) throw commandErrors.invalidCommand(`A note holds at most ${MAX_NOTE_LENGTH.toLocaleString('en-US')} characters`)
  }
  for (const edit of command.links ?? []) {
    cellAddress(edit.address)
    if (edit.url !== null && !isSafeLink(edit.url)) throw commandErrors.invalidCommand('A link goes to a web address (http:// or https://), a mail address (mailto:) or a place in the workbook (#Sheet1!A1)')
  }
}

/**
 * Writes notes and links into a view (changed in place: the caller passes its own copy); returns the
 * edits that write back what the cells held before, in the order that undoes them.
 */
export function writeAnnotations(view: SheetViewState, command: Pick<SetSheetViewCommand, 'notes' | 'links'>): Pick<SetSheetViewCommand, 'notes' | 'links'> {
  const undo: Pick<SetSheetViewCommand, 'notes' | 'links'> = {}
  if (command.notes && command.notes.length > 0) {
    const notes = { ...view.notes }
    const back: NoteEdit[] = []
    for (const edit of command.notes) {
      const address = cellAddress(edit.address)
      back.unshift({ address, note: notes[address] ? { ...notes[address] } : null })
      if (edit.note === null) delete notes[address]
      else notes[address] = { text: edit.note.text, ...(edit.note.author ? { author: edit.note.author } : {}) }
    }
    view.notes = notes
    undo.notes = back
  }
  if (command.links && command.links.length > 0) {
    const links = { ...view.links }
    const back: LinkEdit[] = []
    for (const edit of command.links) {
      const address = cellAddress(edit.address)
      back.unshift({ address, url: links[address] ?? null })
      if (edit.url === null) delete links[address]
      else links[address] = edit.url.trim()
    }
    view.links = links
    undo.links = back
  }
  return undo
}

/** Notes or links after rows or columns were inserted or deleted: each follows its cell; a deleted cell's goes. */
export function movedAnnotations<T>(entries: Record<string, T> | undefined, edit: StructuralEdit): Record<string, T> | undefined {
  if (!entries) return entries
  const moved: Record<string, T> = {}
  for (const [address, entry] of Object.entries(entries)) {
    const { row, col } = parseAddress(address)
    const to = moveAddress(row, col, edit)
    if (to) moved[formatAddress(to.row, to.col)] = entry
  }
  return moved
}

const inBand = (address: string, axis: StructuralEdit['axis'], at: number, count: number) => {
  const { row, col } = parseAddress(address)
  const index = axis === 'rows' ? row : col
  return index >= at && index < at + count
}

/** The edits that put back the notes and links of deleted rows or columns `at` to `at + count - 1`, as `view` held them. */
export function restoringAnnotations(view: SheetViewState | undefined, axis: StructuralEdit['axis'], at: number, count: number): Pick<SetSheetViewCommand, 'notes' | 'links'> {
  const back: Pick<SetSheetViewCommand, 'notes' | 'links'> = {}
  const notes = Object.entries(view?.notes ?? {}).filter(([address]) => inBand(address, axis, at, count))
  const links = Object.entries(view?.links ?? {}).filter(([address]) => inBand(address, axis, at, count))
  if (notes.length > 0) back.notes = notes.map(([address, note]) => ({ address, note: { ...note } }))
  if (links.length > 0) back.links = links.map(([address, url]) => ({ address, url }))
  return back
}

const within = (range: RangeAddress, address: string) => {
  const { row, col } = parseAddress(address)
  return row >= range.top && row <= range.bottom && col >= range.left && col <= range.right
}

/**
 * The edits of a cut-and-paste: the block's notes and links leave `from` on the source sheet and land
 * at the same places in `to` on the target sheet, replacing what the landing cells carried. Returns the
 * edits for each sheet, and those that undo them; empty when neither area carries any.
 */
export function movedBlockAnnotations(
  source: SheetViewState | undefined,
  target: SheetViewState | undefined,
  from: RangeAddress,
  to: RangeAddress,
): { source: Pick<SetSheetViewCommand, 'notes' | 'links'>; target: Pick<SetSheetViewCommand, 'notes' | 'links'> } {
  const rowOffset = to.top - from.top
  const colOffset = to.left - from.left
  const result = { source: {} as Pick<SetSheetViewCommand, 'notes' | 'links'>, target: {} as Pick<SetSheetViewCommand, 'notes' | 'links'> }
  const removals = <T>(entries: Record<string, T> | undefined, range: RangeAddress) => Object.keys(entries ?? {}).filter((address) => within(range, address))
  const landed = <T>(entries: Record<string, T> | undefined) =>
    Object.entries(entries ?? {})
      .filter(([address]) => within(from, address))
      .map(([address, entry]) => {
        const { row, col } = parseAddress(address)
        return [formatAddress(row + rowOffset, col + colOffset), entry] as const
      })
  const noteEdits = { source: removals(source?.notes, from).map((address) => ({ address, note: null })), target: [] as NoteEdit[] }
  noteEdits.target = [...removals(target?.notes, to).map((address) => ({ address, note: null })), ...landed(source?.notes).map(([address, note]) => ({ address, note }))]
  const linkEdits = { source: removals(source?.links, from).map((address) => ({ address, url: null })), target: [] as LinkEdit[] }
  linkEdits.target = [...removals(target?.links, to).map((address) => ({ address, url: null })), ...landed(source?.links).map(([address, url]) => ({ address, url }))]
  for (const side of ['source', 'target'] as const) {
    if (noteEdits[side].length > 0) result[side].notes = noteEdits[side]
    if (linkEdits[side].length > 0) result[side].links = linkEdits[side]
  }
  return result
}

/** The edits that build a view's notes and links from nothing (a deleted sheet's back). */
export function annotationEdits(view: SheetViewState | undefined): Pick<SetSheetViewCommand, 'notes' | 'links'> {
  const edits: Pick<SetSheetViewCommand, 'notes' | 'links'> = {}
  const notes = Object.entries(view?.notes ?? {})
  const links = Object.entries(view?.links ?? {})
  if (notes.length > 0) edits.notes = notes.map(([address, note]) => ({ address, note: { ...note } }))
  if (links.length > 0) edits.links = links.map(([address, url]) => ({ address, url }))
  return edits
}
