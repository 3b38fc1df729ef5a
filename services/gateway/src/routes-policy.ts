import { LIVENESS_PATH, READINESS_PATH, SERVICE_AREAS, SPREADSHEET_FILE_ROUTES, type ServiceArea } from '@finsheet/contracts'

/** Paths answered without a bearer token. Matched exactly: anything else under /api needs one. */
const OPEN_PATHS = new Set<string>([
  '/health',
  LIVENESS_PATH,
  READINESS_PATH,
  ...SERVICE_AREAS.flatMap((area) => [
    `/api/${area}/health`,
    `/api/${area}${LIVENESS_PATH}`,
    `/api/${area}${READINESS_PATH}`,
    `/api/${area}/status`,
    `/api/${area}/docs/json`,
  ]),
  '/api/users/register',
  '/api/users/login',
  '/api/users/create-anonymous-user',
  '/api/users/token',
  '/api/users/.well-known/jwks.json',
  // Signed download URLs carry their own short-lived signature.
  '/api/files/download',
])

/** Paths of one area answered by another service, as the contracts list them. */
export const REROUTED_PATHS: ReadonlyArray<{ prefix: string; area: ServiceArea; rewritePrefix: string }> = Object.values(SPREADSHEET_FILE_ROUTES).map(
  ({ prefix, area, servicePath }) => ({ prefix, area, rewritePrefix: servicePath }),
)

/** Upload routes get the larger body limit. */
const UPLOAD_PATHS = new Set<string>(['/api/files/upload', SPREADSHEET_FILE_ROUTES.uploadExcel.prefix, '/api/ai/processDocument', '/api/ai/analyze-document'])

export function pathOf(url: string): string {
  const end = url.indexOf('?')
  return end === -1 ? url : url.slice(0, end)
}

export function isOpenPath(path: string): boolean {
  return OPEN_PATHS.has(path)
}

export function isUploadPath(path: string): boolean {
  return UPLOAD_PATHS.has(path)
}

/** The area of an /api/<area>/... path, or null. */
export function areaOf(path: string): ServiceArea | null {
  const match = /^\/api\/([a-z]+)(\/|$)/.exec(path)
  if (!match) return null
  return (SERVICE_AREAS as readonly string[]).includes(match[1]) ? (match[1] as ServiceArea) : null
}
