import type { NavigationKey } from '../grid/navigation'

/**
 * Key chords as the screens write them ('Ctrl+B', 'Shift+F10', 'Ctrl+PgDn', 'Alt+S') and as the
 * keyboard sends them. Ctrl stands for Cmd on a Mac too; letters compare without case.
 */

/** What a key press is, in the grid's terms. */
export type KeyChord = NavigationKey

/** The names written in chords for keys whose `KeyboardEvent.key` is spelt otherwise. */
const WRITTEN: Record<string, string> = { PgUp: 'PageUp', PgDn: 'PageDown', Space: ' ', Esc: 'Escape', Del: 'Delete', Menu: 'ContextMenu' }

/** Reads 'Ctrl+Shift+Z' into the chord it stands for. */
export function parseChord(text: string): KeyChord {
  const parts = text.split('+')
  // 'Ctrl++' would name the plus key; no shortcut here uses it
  const key = parts.pop() ?? ''
  const mods = new Set(parts.map((part) => part.toLowerCase()))
  return { key: WRITTEN[key] ?? key, ctrl: mods.has('ctrl'), shift: mods.has('shift'), alt: mods.has('alt') }
}

/** The chord of a keyboard event (React's or the DOM's). */
export function chordOf(event: { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }): KeyChord {
  return { key: event.key, ctrl: event.ctrlKey || event.metaKey, shift: event.shiftKey, alt: event.altKey }
}

/** Whether a key press is the chord written `text`. */
export function matchesChord(text: string, pressed: KeyChord): boolean {
  const chord = parseChord(text)
  const same = chord.key.length === 1 && pressed.key.length === 1 ? chord.key.toLowerCase() === pressed.key.toLowerCase() : chord.key === pressed.key
  return same && chord.ctrl === pressed.ctrl && chord.shift === pressed.shift && chord.alt === pressed.alt
}
