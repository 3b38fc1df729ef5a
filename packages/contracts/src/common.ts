import { Type, type Static, type TProperties, type TObject } from 'typebox'

/**
 * An object schema that admits only the properties it names. Services validate request bodies with
 * Ajv's removeAdditional, so unknown fields are dropped before a handler sees them and never stored.
 */
export function StrictObject<Properties extends TProperties>(properties: Properties, options: Record<string, unknown> = {}): TObject<Properties> {
  return Type.Object(properties, { ...options, additionalProperties: false })
}

/** The body of every API error: `{ "error": { "code", "message" } }`. */
export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'Stable machine-readable code, such as WORKBOOK_NOT_FOUND' }),
      message: Type.String({ description: 'A sentence a person can read; 5xx answers never carry internals' }),
    }),
  },
  { description: 'An API error' },
)
export type ErrorBody = Static<typeof ErrorBody>

export const HealthResponse = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  service: Type.String(),
  uptimeSeconds: Type.Number(),
})
export type HealthResponse = Static<typeof HealthResponse>

export const AdapterStatus = Type.Object({
  port: Type.String({ description: 'documents, blobs, vectors, jobs or identity' }),
  adapter: Type.String({ description: 'which implementation serves the port, such as sqlite or mongodb' }),
  ok: Type.Boolean(),
  detail: Type.Optional(Type.String()),
})
export type AdapterStatus = Static<typeof AdapterStatus>

export const StatusResponse = Type.Object({
  service: Type.String(),
  version: Type.String(),
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  uptimeSeconds: Type.Number(),
  startedAt: Type.String({ format: 'date-time' }),
  adapters: Type.Array(AdapterStatus),
})
export type StatusResponse = Static<typeof StatusResponse>

export const Pagination = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 10 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
})
export type Pagination = Static<typeof Pagination>

/** Job progress as the client reads it from `GET /api/<area>/jobs/:id`. */
export const JobState = Type.Union([
  Type.Literal('waiting'),
  Type.Literal('delayed'),
  Type.Literal('active'),
  Type.Literal('completed'),
  Type.Literal('failed'),
])
export type JobState = Static<typeof JobState>

export const JobStatusResponse = Type.Object({
  id: Type.String(),
  name: Type.String(),
  state: JobState,
  progress: Type.Number({ minimum: 0, maximum: 100 }),
  result: Type.Optional(Type.Unknown()),
  failedReason: Type.Optional(Type.String()),
  attemptsMade: Type.Integer(),
})
export type JobStatusResponse = Static<typeof JobStatusResponse>
