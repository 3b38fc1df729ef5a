import { describe, expect, it } from 'vitest'
import { parseRangeAddress, rangeAddress } from './address'
import { parseTsv, pasteTargetRange, planPaste, toHtmlTable, toTsv } from './clipboard'

describe('TSV', () => {
  it('writes tabs and CRLF with a trailing line break, as Excel does', () => {
    expect(toTsv([['1', '2'], ['a', '']])).toBe('1\t2\r\na\t\r\n')
    expect(toTsv([])).toBe('')
  })

  it('quotes cells holding tabs, line breaks or a leading quote', () => {
    expect(toTsv([['a\tb', 'line1\nline2', '"q"', 'say "hi"']])).toBe('"a\tb"\t"line1\nline2"\t"""q"""\tsay "hi"\r\n')
  })

  it('reads what Excel writes (CRLF, trailing break) and what Google Sheets writes (LF, none)', () => {
    expect(parseTsv('1\t2\r\n3\t4\r\n')).toEqual([['1', '2'], ['3', '4']])
    expect(parseTsv('1\t2\n3\t4')).toEqual([['1', '2'], ['3', '4']])
    expect(parseTsv('a')).toEqual([['a']])
    expect(parseTsv('')).toEqual([])
  })

  it('reads quoted cells with embedded tabs, breaks and doubled quotes', () => {
    expect(parseTsv('"multi\r\nline"\tx\r\n"a""b"\t"t\tab"\r\n')).toEqual([
      ['multi\r\nline', 'x'],
      ['a"b', 't\tab'],
    ])
  })

  it('keeps a quote that does not close a field as text', () => {
    expect(parseTsv('"abc\tdef')).toEqual([['"abc', 'def']])
    expect(parseTsv('"ab"c\t1')).toEqual([['"ab"c', '1']])
  })

  it('pads ragged rows and keeps empty cells and rows', () => {
    expect(parseTsv('a\tb\tc\r\nd\r\n\r\n')).toEqual([['a', 'b', 'c'], ['d', '', ''], ['', '', '']])
  })

  it('round-trips any block', () => {
    const block = [['=SUM(A1:A3)', 'x\ty', '"quoted"'], ['', 'new\nline', '3.5']]
    expect(parseTsv(toTsv(block))).toEqual(block)
  })

  it('escapes HTML', () => {
    expect(toHtmlTable([['<b>&', 'x']])).toBe('<table><tbody><tr><td>&lt;b&gt;&amp;</td><td>x</td></tr></tbody></table>')
  })
})

describe('paste target', () => {
  const bounds = { columnCount: 10, rowCount: 10 }
  it('anchors one copy at the top-left of the target', () => {
    expect(rangeAddress(pasteTargetRange(2, 2, parseRangeAddress('C3')!, bounds))).toBe('C3:D4')
    expect(rangeAddress(pasteTargetRange(2, 2, parseRangeAddress('C3:E5')!, bounds))).toBe('C3:D4')
  })

  it('tiles when the target is a whole multiple of the block', () => {
    expect(rangeAddress(pasteTargetRange(1, 1, parseRangeAddress('A1:B3')!, bounds))).toBe('A1:B3')
    expect(rangeAddress(pasteTargetRange(2, 1, parseRangeAddress('A1:B4')!, bounds))).toBe('A1:B4')
  })

  it('clips at the grid edge', () => {
    expect(rangeAddress(pasteTargetRange(3, 3, parseRangeAddress('I9')!, bounds))).toBe('I9:J10')
  })

  it('plans source cells and reference offsets for each pasted cell', () => {
    const plan = planPaste(1, 2, { col: 0, row: 0 }, parseRangeAddress('C5:F5')!)
    expect(plan.map((p) => [p.sourceCol, p.rowOffset, p.colOffset])).toEqual([
      [0, 4, 2],
      [1, 4, 2],
      [0, 4, 4],
      [1, 4, 4],
    ])
    expect(planPaste(1, 1, null, parseRangeAddress('B2')!)[0]).toMatchObject({ rowOffset: 0, colOffset: 0 })
  })
})
