import { describe, expect, it } from 'vitest'
import { HELD_AFTER_MS, ThreadRouting, type RoutedThread } from './thread-routing.js'

const thread = (name: string, lastBeat = 1_000): RoutedThread & { name: string } => ({ name, lastBeat, inFlight: new Map(), stopped: false })

function setup() {
  const [first, second] = [thread('first'), thread('second')]
  const threads: (typeof first | undefined)[] = [first, second]
  return { first, second, threads, routing: new ThreadRouting(() => threads) }
}

describe('thread routing', () => {
  it('keeps a workbook on the thread that opened it while that thread answers', () => {
    const { first, second, routing } = setup()
    const home = routing.choose('budget')
    expect(home).toBe(first)
    // Another workbook's short request under way there does not move it.
    routing.begin(first, 'other')
    expect(routing.choose('budget')).toBe(first)
    expect(routing.choose('fresh')).toBe(second)
  })

  it('sends a workbook elsewhere while its thread is held by another workbook, and keeps it there', () => {
    const { first, second, routing } = setup()
    expect(routing.choose('budget')).toBe(first)
    routing.begin(first, 'matrix')
    second.lastBeat = first.lastBeat + HELD_AFTER_MS + 1
    expect(routing.choose('budget')).toBe(second)
    first.lastBeat = second.lastBeat
    expect(routing.choose('budget')).toBe(second)
  })

  it("keeps a workbook's requests together while any is under way, held or not", () => {
    const { first, second, routing } = setup()
    const matrix = routing.choose('matrix') as typeof first
    const end = routing.begin(matrix, 'matrix')
    second.lastBeat = first.lastBeat + 500
    expect(routing.choose('matrix')).toBe(first)
    end()
    end()
    expect(first.inFlight.size).toBe(0)
    expect(routing.choose('matrix')).toBe(second)
  })

  it('judges silence against the freshest thread, not the clock, since beats reach a busy router late', () => {
    const { first, second, routing } = setup()
    expect(routing.choose('budget')).toBe(first)
    // Neither has beaten for a long while: the router itself was busy. Nobody moves.
    first.lastBeat = 0
    second.lastBeat = 5
    expect(routing.choose('budget')).toBe(first)
  })

  it('picks the thread with the fewest requests under way, and none when every thread stopped', () => {
    const { first, second, routing } = setup()
    routing.begin(first, '')
    routing.begin(first, 'a')
    routing.begin(second, 'b')
    expect(routing.choose('')).toBe(second)
    first.stopped = true
    routing.forget(first)
    expect(routing.choose('a')).toBe(second)
    second.stopped = true
    expect(routing.choose('a')).toBeUndefined()
  })
})
