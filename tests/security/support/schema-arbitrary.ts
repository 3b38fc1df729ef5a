/**
 * Request bodies for the fuzz, made from the JSON schemas the services publish in their OpenAPI
 * documents (the contracts' TypeBox schemas): mostly bodies a route accepts — so the fuzz reaches its
 * handler, not only its validator — with a hostile value put in at one place, and some plain JSON of
 * any shape. Only the parts of JSON Schema those documents use are read: type, properties, required,
 * additionalProperties, items, enum, anyOf, nullable, lengths, bounds and patterns.
 */
import fc from 'fast-check'

export interface JsonSchema {
  type?: string
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: boolean | JsonSchema
  /** One schema for every item, or one per place (a tuple). */
  items?: JsonSchema | JsonSchema[]
  enum?: unknown[]
  const?: unknown
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  nullable?: boolean
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  minItems?: number
  maxItems?: number
  pattern?: string
}

/** Values for properties whose name says what they hold, so that ids and addresses point at real things. */
export type Hints = Record<string, fc.Arbitrary<unknown>>

/** Arrays are kept short: a body's size is not what the fuzz is after (the body limit is tested elsewhere). */
const MAX_ITEMS = 3
const MAX_TEXT = 24

const spreadsheetText = fc.constantFrom('Sheet1', 'A1', 'B2', 'A1:B3', 'A:A', '1:1', 'XFD1048576', "'My Sheet'!A1", '=1+1', '=SUM(A1:A3)', '=A1/0', '#REF!', '0.5', '1e308', '15%', '2024-01-31', 'TRUE')

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? MAX_TEXT, MAX_TEXT))
  const fits = (text: string) => text.length >= minLength && text.length <= (schema.maxLength ?? Infinity)
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter(fits)
  return fc.oneof(fc.string({ minLength, maxLength }), fc.string({ minLength, maxLength, unit: 'binary' }), spreadsheetText.filter(fits))
}

/** An arbitrary of the values `schema` accepts (as far as its keywords above say). */
export function validValue(schema: JsonSchema, hints: Hints = {}, depth = 0): fc.Arbitrary<unknown> {
  let value: fc.Arbitrary<unknown>
  if (schema.enum) value = fc.constantFrom(...schema.enum)
  else if ('const' in schema) value = fc.constant(schema.const)
  else if (schema.anyOf || schema.oneOf) value = fc.oneof(...(schema.anyOf ?? schema.oneOf ?? []).map((option) => validValue(option, hints, depth)))
  else {
    switch (schema.type) {
      case 'object': {
        const properties = schema.properties ?? {}
        const record = fc.record(
          Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, hints[name] ? fc.oneof({ weight: 8, arbitrary: hints[name] }, { weight: 1, arbitrary: validValue(property, hints, depth + 1) }) : validValue(property, hints, depth + 1)])),
          { requiredKeys: schema.required ?? [] },
        )
        const extra = schema.additionalProperties
        value =
          typeof extra === 'object' && depth < 4
            ? fc.tuple(record, fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), validValue(extra, hints, depth + 1), { maxKeys: MAX_ITEMS })).map(([known, more]) => ({ ...more, ...known }))
            : record
        break
      }
      case 'array': {
        if (Array.isArray(schema.items)) {
          value = fc.tuple(...schema.items.map((item) => validValue(item, hints, depth + 1)))
          break
        }
        const minLength = schema.minItems ?? 0
        const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? MAX_ITEMS, MAX_ITEMS))
        value = depth > 5 ? fc.constant([]) : fc.array(validValue(schema.items ?? {}, hints, depth + 1), { minLength, maxLength })
        break
      }
      case 'string':
        value = stringOf(schema)
        break
      case 'integer':
        value = fc.integer({ min: Math.max(schema.minimum ?? -1e9, Number.MIN_SAFE_INTEGER), max: Math.min(schema.maximum ?? 1e9, Number.MAX_SAFE_INTEGER) })
        break
      case 'number':
        value = fc.double({ min: schema.minimum ?? -1e12, max: schema.maximum ?? 1e12, noNaN: true, noDefaultInfinity: true })
        break
      case 'boolean':
        value = fc.boolean()
        break
      case 'null':
        value = fc.constant(null)
        break
      default:
        value = fc.jsonValue({ maxDepth: 2 })
    }
  }
  return schema.nullable ? fc.oneof({ weight: 4, arbitrary: value }, { weight: 1, arbitrary: fc.constant(null) }) : value
}

/** What an attacker puts where a well-formed value was. */
const hostile = fc.oneof(
  fc.constantFrom<unknown>(
    '',
    ' ',
    '\u0000',
    '\uD800',
    '\u202Eevil',
    '=cmd|\' /C calc\'!A0',
    '__proto__',
    '../../etc/passwd',
    "'; DROP TABLE docs; --",
    '$where',
    { $gt: '' },
    -1,
    0,
    -0,
    1e308,
    -1e308,
    2 ** 53 + 1,
    0.1 + 0.2,
    true,
    null,
    [],
    {},
    JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}') as unknown,
    'A'.repeat(100_000),
    Array.from({ length: 2_000 }, (_, i) => i),
  ),
  fc.integer({ min: 1, max: 60 }).map((depth) => {
    let nested: unknown = 'deep'
    for (let level = 0; level < depth * 20; level++) nested = level % 2 ? [nested] : { a: nested }
    return nested
  }),
  fc.jsonValue({ maxDepth: 3 }),
)

/** `value` with its `index`-th place (counting every node, depth first) replaced by `replacement`. */
function replaceAt(value: unknown, index: number, replacement: unknown): unknown {
  let remaining = index
  const visit = (node: unknown): unknown => {
    if (remaining-- === 0) return replacement
    if (Array.isArray(node)) return node.map(visit)
    if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, visit(child)]))
    return node
  }
  return visit(value)
}

/** Bodies for a route: accepted ones, accepted ones with one hostile value, and JSON of any shape. */
export function bodyArbitrary(schema: JsonSchema, hints: Hints = {}): fc.Arbitrary<unknown> {
  const valid = validValue(schema, hints)
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    // Place 0 is the body itself: a body of the wrong shape is what the third kind is for.
    { weight: 3, arbitrary: fc.tuple(valid, fc.integer({ min: 1, max: 30 }), hostile).map(([body, index, bad]) => replaceAt(body, index, bad)) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  )
}
