import { LIVENESS_PATH, READINESS_PATH, REROUTED_ROUTES, SERVICE_AREAS, SPREADSHEET_FILE_ROUTES, type ServiceArea } from '@finsheet/contracts'

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
export const REROUTED_PATHS: ReadonlyArray<{ prefix: string; area: ServiceArea; rewritePrefix: string }> = REROUTED_ROUTES.map(({ prefix, area, servicePath }) => ({
  prefix,
  area,
  rewritePrefix: servicePath,
}))

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

/**
 * Service-to-service routes (`/internal/...` on any service) are never forwarded: they answer other
 * services with a service credential, and no browser has a reason to reach them. The path is read
 * as the service will read it: percent-escapes decoded, repeated slashes and dot segments resolved,
 * letters in any case.
 */
export function isInternalPath(path: string): boolean {
  let decoded = path
  for (let round = 0; round < 3; round++) {
    try {
      const next = decodeURIComponent(decoded)
      if (next === decoded) break
      decoded = next
    } catch {
      // a malformed escape: judge the text as it stands
      break
    }
  }
  const segments: string[] = []
  for (const segment of decoded.toLowerCase().split(/[/\\]+/)) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') segments.pop()
    else segments.push(segment)
  }
  return segments[0] === 'api' && segments.includes('internal')
}

/** The area of an /api/<area>/... path, or null. */
export function areaOf(path: string): ServiceArea | null {
  const match = /^\/api\/([a-z]+)(\/|$)/.exec(path)
  if (!match) return null
  return (SERVICE_AREAS as readonly string[]).includes(match[1]) ? (match[1] as ServiceArea) : null
}
