import { describe, expect, it } from 'vitest'
import { deferredList } from './deferred-list.js'

describe('deferredList', () => {
  it('makes its items only when something reads the list, and once', () => {
    let made = 0
    const list = deferredList(() => {
      made++
      return [1, 2, 3]
    })
    expect(made).toBe(0)
    expect(list.length).toBe(3)
    expect(list[1]).toBe(2)
    expect([...list]).toEqual([1, 2, 3])
    expect(made).toBe(1)
  })

  it('behaves as the array it stands for', () => {
    const list = deferredList(() => [{ a: 1 }, { a: 2 }])
    expect(Array.isArray(list)).toBe(true)
    expect(list).toEqual([{ a: 1 }, { a: 2 }])
    expect(list.map((item) => item.a)).toEqual([1, 2])
    expect(JSON.stringify(list)).toBe('[{"a":1},{"a":2}]')
    expect(Object.keys(list)).toEqual(['0', '1'])
    expect(1 in list).toBe(true)
    expect(2 in list).toBe(false)
    list.push({ a: 3 })
    expect(list.length).toBe(3)
    expect(list.at(-1)).toEqual({ a: 3 })
    list.length = 1
    expect(list).toEqual([{ a: 1 }])
  })

  it('makes its items on a write as well, keeping them', () => {
    const list = deferredList(() => ['x', 'y'])
    list.push('z')
    expect(list).toEqual(['x', 'y', 'z'])
  })
})
