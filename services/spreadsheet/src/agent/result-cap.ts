/**
 * Keeps a tool result within the size a model is given: while its JSON is too large, the largest list,
 * map or text in it is halved, and the result says what was cut and how to ask for the rest.
 */

interface Candidate {
  path: string
  size: number
  shrink(): string
}

function byteLength(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8')
}

/** The largest list, map (of more than a few keys) or text inside a value. */
function largest(value: unknown, path: string, best: Candidate | undefined, parent?: { holder: Record<string, unknown> | unknown[]; key: string | number }): Candidate | undefined {
  if (typeof value === 'string') {
    if (value.length > 200 && parent) {
      const size = Buffer.byteLength(value, 'utf8')
      if (!best || size > best.size) {
        const { holder, key } = parent
        best = {
          path,
          size,
          shrink: () => {
            const kept = Math.floor(value.length / 2)
            ;(holder as Record<string | number, unknown>)[key] = `${value.slice(0, kept)}… [cut]`
            return `${path}: text cut to ${kept} of ${value.length} characters`
          },
        }
      }
    }
    return best
  }
  if (Array.isArray(value)) {
    if (value.length > 1) {
      const size = byteLength(value)
      if (!best || size > best.size) {
        best = {
          path,
          size,
          shrink: () => {
            const total = value.length
            value.length = Math.max(1, Math.floor(total / 2))
            return `${path}: kept ${value.length} of ${total} items`
          },
        }
      }
    }
    value.forEach((item, index) => {
      best = largest(item, `${path}[${index}]`, best, { holder: value, key: index })
    })
    return best
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>
    const keys = Object.keys(record)
    if (keys.length > 8 && path !== '') {
      const size = byteLength(record)
      if (!best || size > best.size) {
        best = {
          path,
          size,
          shrink: () => {
            const kept = Math.max(1, Math.floor(keys.length / 2))
            for (const key of keys.slice(kept)) delete record[key]
            return `${path}: kept ${kept} of ${keys.length} entries`
          },
        }
      }
    }
    for (const key of keys) best = largest(record[key], path === '' ? key : `${path}.${key}`, best, { holder: record, key })
  }
  return best
}

/** The content within `maxBytes` of JSON, with `truncated` saying what was cut. */
export function capContent(content: Record<string, unknown>, maxBytes: number): Record<string, unknown> {
  if (byteLength(content) <= maxBytes) return content
  const copy = JSON.parse(JSON.stringify(content)) as Record<string, unknown>
  const cuts: string[] = []
  for (let round = 0; round < 200 && byteLength(copy) + 300 > maxBytes; round++) {
    const candidate = largest(copy, '', undefined)
    if (!candidate) break
    const cut = candidate.shrink()
    // Repeated cuts of one part are reported once, with the latest counts.
    const previous = cuts.findIndex((text) => text.startsWith(`${candidate.path}:`))
    if (previous >= 0) cuts.splice(previous, 1)
    cuts.push(cut)
  }
  if (byteLength(copy) + 300 > maxBytes) {
    return { truncated: [`The result was larger than ${maxBytes.toLocaleString('en-US')} bytes and could not be shortened`], note: 'Ask for less: a smaller range, or a page with offset and limit.' }
  }
  return { ...copy, truncated: cuts, truncatedNote: `The result was cut to stay under ${maxBytes.toLocaleString('en-US')} bytes; ask for less (a smaller range, or the next page with offset) to see the rest.` }
}
