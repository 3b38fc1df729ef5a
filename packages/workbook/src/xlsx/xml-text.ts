/**
 * Reading and writing the text of an xlsx part's XML where a whole XML parser would be too slow or
 * too much: an element's attribute, entities decoded, and text escaped for an attribute or element.
 */

/** An attribute of an element's attribute text (`r:id="rId3" name='A'`), XML entities decoded. */
export function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attributes)
  return match ? decodeXml(match[1] ?? match[2]) : undefined
}

/** The five named entities and numeric character references, decoded. */
export function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (entity, body: string) => {
    const lower = body.toLowerCase()
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16))
    if (lower.startsWith('#')) return String.fromCodePoint(parseInt(lower.slice(1), 10))
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[lower] ?? entity
  })
}

/** Text made safe inside an element or a double-quoted attribute. */
export function encodeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}
