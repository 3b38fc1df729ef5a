import { Ajv, type Options } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { FastifySchemaCompiler } from 'fastify'

// ajv-formats ships CommonJS with a default export; under NodeNext it arrives wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv,
) => Ajv

const shared: Options = {
  allErrors: false,
  useDefaults: true,
  // Strict objects (additionalProperties: false) lose unknown fields instead of storing them.
  removeAdditional: true,
  strict: false,
  allowUnionTypes: true,
  // ajv's optimising pass over the generated code doubles the cost of compiling the large unions (the
  // changes route's commands: ~1 MB of code, 751 → 331 ms and 44 → 20 MB allocated in every service and
  // spreadsheet thread at start) and measured no faster validation afterwards.
  code: { optimize: false },
}

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({ ...shared, ...options })
  addFormats(ajv)
  return ajv
}

/**
 * Bodies are JSON and validated as sent (no "5" → 5 coercion); query strings, params and headers
 * arrive as text and are coerced to the declared types.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const bodyAjv = createAjv({ coerceTypes: false })
  const textAjv = createAjv({ coerceTypes: 'array' })
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? bodyAjv : textAjv
    return ajv.compile(schema as object)
  }
}
