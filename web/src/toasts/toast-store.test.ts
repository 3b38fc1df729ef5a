import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Toast } from './toast-store'
import { NOTIFICATION_HISTORY_LIMIT, TOAST_LIMIT, TOAST_REMOVE_DELAY_MS, ToastQueue, toastReducer } from './toast-store'

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

  it('keeps the notifications of the session after their toasts are gone, newest first, up to the limit', () => {
    const queue = new ToastQueue()
    const before = queue.history
    queue.show({ title: 'Saved', variant: 'success' })
    expect(queue.history).not.toBe(before)
    for (let i = 0; i < NOTIFICATION_HISTORY_LIMIT; i++) queue.show({ title: `Export ${i}`, description: 'ready' })
    queue.remove()
    expect(queue.current).toHaveLength(0)
    expect(queue.history).toHaveLength(NOTIFICATION_HISTORY_LIMIT)
    expect(queue.history[0]).toMatchObject({ title: `Export ${NOTIFICATION_HISTORY_LIMIT - 1}`, description: 'ready', variant: 'default' })
    expect(queue.history.some((notification) => notification.title === 'Saved')).toBe(false)
    // the same array until another is shown, so a view subscribed to it does not draw again
    expect(queue.history).toBe(queue.history)
  })
})
