import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Toast } from './toast-store'
import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS, ToastQueue, toastReducer } from './toast-store'

const make = (id: string): Toast => ({ id, title: `t${id}`, open: true, variant: 'default', duration: 5000 })

describe('toastReducer', () => {
  it('adds newest first and keeps at most 5', () => {
    let state: Toast[] = []
    for (let i = 1; i <= 7; i++) state = toastReducer(state, { type: 'add', toast: make(String(i)) })
    expect(state).toHaveLength(TOAST_LIMIT)
    expect(state.map((t) => t.id)).toEqual(['7', '6', '5', '4', '3'])
  })

  it('updates, dismisses and removes one or all', () => {
    let state = [make('1'), make('2')]
    state = toastReducer(state, { type: 'update', toast: { id: '1', title: 'changed' } })
    expect(state[0].title).toBe('changed')
    state = toastReducer(state, { type: 'dismiss', id: '2' })
    expect(state.map((t) => t.open)).toEqual([true, false])
    state = toastReducer(state, { type: 'dismiss' })
    expect(state.every((t) => !t.open)).toBe(true)
    expect(toastReducer(state, { type: 'remove', id: '1' }).map((t) => t.id)).toEqual(['2'])
    expect(toastReducer(state, { type: 'remove' })).toEqual([])
  })
})

describe('ToastQueue', () => {
  afterEach(() => vi.useRealTimers())

  it('removes a dismissed toast after 1,000,000 ms', () => {
    vi.useFakeTimers()
    const queue = new ToastQueue()
    const seen: number[] = []
    queue.subscribe((list) => seen.push(list.length))
    const id = queue.show({ title: 'Signed out', description: 'You have been signed out successfully' })
    queue.dismiss(id)
    expect(queue.current[0].open).toBe(false)
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1)
    expect(queue.current).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(queue.current).toHaveLength(0)
    expect(seen).toEqual([1, 1, 0])
  })
})
