import { Type, type Static } from 'typebox'

/** The areas the gateway proxies under `/api/<area>`. */
export const SERVICE_AREAS = ['spreadsheet', 'ai', 'files', 'users', 'vectordb'] as const
export type ServiceArea = (typeof SERVICE_AREAS)[number]

/** Liveness: the process is up and answers. Nothing it depends on is asked. */
export const LIVENESS_PATH = '/health/live'
/** Readiness: the process and what it depends on (its stores, its queue, its identity provider) answer. */
export const READINESS_PATH = '/health/ready'

/**
 * The only paths of one area that another area's service answers. The product's API names the
 * workbook upload and the import of an uploaded file under the spreadsheet area, while reading and
 * converting files is the files service's work: the gateway sends these prefixes to the files
 * service, which serves them at `servicePath` and stores the workbook through the spreadsheet service.
 */
export const SPREADSHEET_FILE_ROUTES = {
  uploadExcel: { prefix: '/api/spreadsheet/upload-excel', area: 'files', servicePath: '/upload-excel' },
  importFromFile: { prefix: '/api/spreadsheet/import-from-file', area: 'files', servicePath: '/import-from-file' },
} as const satisfies Record<string, { prefix: string; area: ServiceArea; servicePath: string }>

/**
 * Agent mode and model generation are named under the spreadsheet area, while running a model is the
 * AI service's work: the gateway sends these prefixes to the AI service, which serves them at
 * `servicePath` and changes workbooks through the spreadsheet service's API.
 */
export const SPREADSHEET_AI_ROUTES = {
  processAction: { prefix: '/api/spreadsheet/process-action', area: 'ai', servicePath: '/process-action' },
  generateFinancialModel: { prefix: '/api/spreadsheet/generate-financial-model', area: 'ai', servicePath: '/generate-financial-model' },
} as const satisfies Record<string, { prefix: string; area: ServiceArea; servicePath: string }>

/** Every path of one area answered by another area's service: the one table the gateway routes them by. */
export const REROUTED_ROUTES: ReadonlyArray<{ prefix: string; area: ServiceArea; servicePath: string }> = [
  ...Object.values(SPREADSHEET_FILE_ROUTES),
  ...Object.values(SPREADSHEET_AI_ROUTES),
]

export const ServiceHealth = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('down')]),
  latencyMs: Type.Number(),
  error: Type.Optional(Type.String()),
})
export type ServiceHealth = Static<typeof ServiceHealth>

export const GatewayHealthResponse = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  service: Type.Literal('gateway'),
  uptimeSeconds: Type.Number(),
  services: Type.Record(Type.String(), ServiceHealth),
})
export type GatewayHealthResponse = Static<typeof GatewayHealthResponse>
