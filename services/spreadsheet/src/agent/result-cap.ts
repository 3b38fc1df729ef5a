/**
 * Keeps a tool result within the size a model is given: while its JSON is too large, the largest list,
 * map or text in it is halved, and the result says what was cut and how to ask for the rest.
 */

interface Candidate {
  path: string
  size: number
  /** Halves the part; answers how many items (or characters) it held before and holds now, and of what. */
  shrink(): { before: number; after: number; unit: 'items' | 'entries' | 'characters' }
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
            return { before: value.length, after: kept, unit: 'characters' }
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
            return { before: total, after: value.length, unit: 'items' }
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
            return { before: keys.length, after: kept, unit: 'entries' }
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
  // Each part cut is reported once: what it held at first and what is left of it.
  const cuts = new Map<string, { first: number; now: number; unit: string }>()
  for (let round = 0; round < 200 && byteLength(copy) + 300 > maxBytes; round++) {
    const candidate = largest(copy, '', undefined)
    if (!candidate) break
    const cut = candidate.shrink()
    const previous = cuts.get(candidate.path)
    cuts.set(candidate.path, { first: previous?.first ?? cut.before, now: cut.after, unit: cut.unit })
  }
  const report = [...cuts].map(([path, cut]) => (cut.unit === 'characters' ? `${path}: text cut to ${cut.now} of ${cut.first} characters` : `${path}: kept ${cut.now} of ${cut.first} ${cut.unit}`))
  if (byteLength(copy) + 300 > maxBytes) {
    return { truncated: [`The result was larger than ${maxBytes.toLocaleString('en-US')} bytes and could not be shortened`], note: 'Ask for less: a smaller range, or a page with offset and limit.' }
  }
  return { ...copy, truncated: report, truncatedNote: `The result was cut to stay under ${maxBytes.toLocaleString('en-US')} bytes; ask for less (a smaller range, or the next page with offset) to see the rest.` }
}
