import { describe, expect, it } from 'vitest'
import { hyperlinkFormulaTarget, isLinkCell, linkAt, linkCommand, noteCommand, normalizeLink, openLink, workbookPlace } from './cell-annotations'

describe('cell notes and links', () => {
  it('writes a note with its author, and removes it when the text is empty', () => {
    expect(noteCommand('Sheet1', { col: 1, row: 1 }, 'Check', 'Ann')).toEqual({ type: 'set-sheet-view', sheet: 'Sheet1', notes: [{ address: 'B2', note: { text: 'Check', author: 'Ann' } }] })
    expect(noteCommand('Sheet1', { col: 1, row: 1 }, '  ')).toEqual({ type: 'set-sheet-view', sheet: 'Sheet1', notes: [{ address: 'B2', note: null }] })
  })

  it('keeps typed links as the addresses they mean', () => {
    expect(normalizeLink('example.com/report')).toBe('https://example.com/report')
    expect(normalizeLink('cfo@example.com')).toBe('mailto:cfo@example.com')
    expect(normalizeLink("'Cash Flow'!B3")).toBe("#'Cash Flow'!B3")
    expect(normalizeLink('http://a.b')).toBe('http://a.b')
    expect(linkCommand('S', { col: 0, row: 0 }, '')).toEqual({ type: 'set-sheet-view', sheet: 'S', links: [{ address: 'A1', url: null }] })
  })

  it('finds a cell link, or the target of a HYPERLINK formula, but never a script', () => {
    const layout = { links: { A1: 'https://example.com', A2: 'javascript:alert(1)' } }
    expect(linkAt(layout, '', { col: 0, row: 0 })).toBe('https://example.com')
    expect(linkAt(layout, '', { col: 0, row: 1 })).toBeUndefined()
    expect(hyperlinkFormulaTarget('=HYPERLINK("https://x.y/?q=""a""", "X")')).toBe('https://x.y/?q="a"')
    expect(isLinkCell(undefined, '=hyperlink("https://x.y")', 4, 4)).toBe(true)
    expect(isLinkCell(undefined, '=HYPERLINK("javascript:x")', 4, 4)).toBe(false)
    expect(isLinkCell(undefined, 'plain', 4, 4)).toBe(false)
  })

  it('opens web links in a new tab and places in the workbook by going there', () => {
    const opened: string[] = []
    const places: unknown[] = []
    openLink('https://example.com', (place) => places.push(place), (url) => opened.push(url))
    openLink("#'Cash Flow'!$b$3", (place) => places.push(place), (url) => opened.push(url))
    expect(opened).toEqual(['https://example.com'])
    expect(places).toEqual([{ sheet: 'Cash Flow', address: 'B3' }])
    expect(workbookPlace('#Inputs!A1')).toEqual({ sheet: 'Inputs', address: 'A1' })
  })
})
