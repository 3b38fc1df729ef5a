import { describe, expect, it } from 'vitest'
import { chordOf, matchesChord, parseChord } from './keys'

const press = (key: string, mods: Partial<{ ctrl: boolean; shift: boolean; alt: boolean }> = {}) => ({ key, ctrl: false, shift: false, alt: false, ...mods })

describe('key chords', () => {
  it('reads written chords with their modifiers and key names', () => {
    expect(parseChord('Ctrl+Shift+Z')).toEqual({ key: 'Z', ctrl: true, shift: true, alt: false })
    expect(parseChord('Ctrl+PgDn')).toEqual({ key: 'PageDown', ctrl: true, shift: false, alt: false })
    expect(parseChord('Shift+Space')).toEqual({ key: ' ', ctrl: false, shift: true, alt: false })
    expect(parseChord('F2')).toEqual({ key: 'F2', ctrl: false, shift: false, alt: false })
  })

  it('matches letters without case, and every modifier exactly', () => {
    expect(matchesChord('Ctrl+B', press('b', { ctrl: true }))).toBe(true)
    expect(matchesChord('Ctrl+B', press('B', { ctrl: true }))).toBe(true)
    expect(matchesChord('Ctrl+B', press('b', { ctrl: true, shift: true }))).toBe(false)
    expect(matchesChord('Ctrl+B', press('b'))).toBe(false)
    expect(matchesChord('Shift+F10', press('F10', { shift: true }))).toBe(true)
    expect(matchesChord('Delete', press('Delete'))).toBe(true)
    expect(matchesChord('Delete', press('Backspace'))).toBe(false)
  })

  it('takes Cmd for Ctrl', () => {
    expect(chordOf({ key: 'z', ctrlKey: false, metaKey: true, shiftKey: false, altKey: false })).toEqual({ key: 'z', ctrl: true, shift: false, alt: false })
  })
})
