import { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { describe, expect, it } from 'vitest'
import { answerStream } from './responses.js'

describe('a large answer written piece by piece', () => {
  it('gives the event loop a turn after each piece, even to a reader that never waits', async () => {
    const written: string[] = []
    let piecesWhenOtherWorkRan = -1
    setImmediate(() => (piecesWhenOtherWorkRan = written.length))
    const pieces = Array.from({ length: 200 }, (_, i) => `${i},`)
    await pipeline(
      answerStream(pieces),
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          written.push(chunk.toString())
          done()
        },
      }),
    )
    expect(written.join('')).toBe(pieces.join(''))
    // other work waiting on the event loop ran after the first pieces, not once all 200 were written
    expect(piecesWhenOtherWorkRan).toBeGreaterThanOrEqual(0)
    expect(piecesWhenOtherWorkRan).toBeLessThan(5)
  })
})
