/**
 * The lines of JSON a stream holds (application/x-ndjson), each parsed as soon as it has arrived whole.
 * Leaving the loop early cancels the stream.
 */
export async function* jsonLines<T>(stream: ReadableStream<Uint8Array>): AsyncGenerator<T> {
  const reader = stream.getReader()
  const decoder = new TextDecoder()
  let finished = false
  try {
    let rest = ''
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      rest += decoder.decode(value, { stream: true })
      let start = 0
      for (let end = rest.indexOf('\n'); end >= 0; end = rest.indexOf('\n', start)) {
        if (end > start) yield JSON.parse(rest.slice(start, end)) as T
        start = end + 1
      }
      rest = rest.slice(start)
    }
    finished = true
    rest += decoder.decode()
    if (rest.trim() !== '') yield JSON.parse(rest) as T
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined)
    reader.releaseLock()
  }
}
