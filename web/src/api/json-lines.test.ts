import { describe, expect, it } from 'vitest'
import { jsonLines } from './json-lines'

/** A stream of these pieces of UTF-8, each a chunk of its own. */
function streamOf(pieces: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < pieces.length) controller.enqueue(pieces[next++])
      else controller.close()
    },
  })
}

describe('lines of JSON read as they arrive', () => {
  it('parses lines split anywhere across chunks, a character of several bytes included, and a last line without its newline', async () => {
    const text = '{"a":1}\n{"text":"£ and ], [ \\" \\n"}\n\n[1,2]'
    const bytes = new TextEncoder().encode(text)
    const pound = text.indexOf('£')
    // cut inside the two bytes of £, and one byte at a time after it
    const pieces = [bytes.slice(0, pound + 1), ...Array.from(bytes.slice(pound + 1), (byte) => Uint8Array.of(byte))]
    const read: unknown[] = []
    for await (const line of jsonLines(streamOf(pieces))) read.push(line)
    expect(read).toEqual([{ a: 1 }, { text: '£ and ], [ " \n' }, [1, 2]])
  })

  it('cancels the stream when the reader stops early', async () => {
    // a stream that never ends
    let cancelled = false
    const stream = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new TextEncoder().encode('1\n2\n')),
      cancel: () => void (cancelled = true),
    })
    for await (const line of jsonLines<number>(stream)) if (line === 1) break
    expect(cancelled).toBe(true)
  })

  it('fails on a line that is not JSON', async () => {
    const lines = jsonLines(streamOf([new TextEncoder().encode('{"a":1}\n{"a":\n')]))
    await expect((async () => {
      for await (const _ of lines) void _
    })()).rejects.toThrow(SyntaxError)
  })
})
