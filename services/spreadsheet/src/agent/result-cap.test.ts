import { describe, expect, it } from 'vitest'
import { capContent } from './result-cap.js'

const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value))

describe('capContent', () => {
  it('leaves a result under the limit as it is', () => {
    const content = { rows: [1, 2, 3], note: 'small' }
    expect(capContent(content, 1000)).toBe(content)
  })

  it('halves the largest list until the result fits, and says what was cut', () => {
    const rows = Array.from({ length: 2000 }, (_, i) => ({ row: i + 1, cells: { [`A${i + 1}`]: `value ${i}` } }))
    const capped = capContent({ sheet: 'FCF', rows }, 20_000)
    expect(size(capped)).toBeLessThanOrEqual(20_000)
    expect(capped.sheet).toBe('FCF')
    expect((capped.rows as unknown[]).length).toBeLessThan(2000)
    expect(capped.truncated).toEqual([expect.stringMatching(/^rows: kept \d+ of 2000 items$/)])
    expect(capped.truncatedNote).toMatch(/ask for less/)
  })

  it('cuts long text and large maps too', () => {
    const cells = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`B${i + 1}`, i]))
    const capped = capContent({ text: 'x'.repeat(30_000), cells }, 8_000)
    expect(size(capped)).toBeLessThanOrEqual(8_000)
    expect((capped.truncated as string[]).join(' ')).toMatch(/text: text cut/)
  })
})
