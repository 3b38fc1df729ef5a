import { Type, type Static } from 'typebox'
import { loadConfig, platformEnvProperties } from '@finsheet/platform'

const serviceUrl = (name: string, port: number) =>
  Type.String({ pattern: '^https?://[^\\s]+$', default: `http://127.0.0.1:${port}`, description: `Base URL of the ${name} service` })

export const GatewayEnv = Type.Object({
  ...platformEnvProperties,
  PORT: Type.Integer({ default: 8080, minimum: 0, maximum: 65_535 }),
  USERS_URL: serviceUrl('users', 3001),
  SPREADSHEET_URL: serviceUrl('spreadsheet', 3002),
  FILES_URL: serviceUrl('files', 3003),
  AI_URL: serviceUrl('ai', 3004),
  VECTORDB_URL: serviceUrl('vectordb', 3005),
  /** Requests each user (or address, before sign-in) may make per window. */
  RATE_LIMIT_MAX: Type.Integer({ default: 600, minimum: 1 }),
  RATE_LIMIT_WINDOW_MS: Type.Integer({ default: 60_000, minimum: 1000 }),
  /** Comma-separated origins allowed to call the API from a browser besides the gateway's own. */
  CORS_ORIGINS: Type.String({ default: 'http://localhost:5173,http://127.0.0.1:5173' }),
  /** The built web app (index.html and assets); a placeholder page is served when it is missing. */
  WEB_ROOT: Type.Optional(Type.String({ minLength: 1 })),
})
export type GatewayConfig = Static<typeof GatewayEnv>

export function loadGatewayConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  return loadConfig(GatewayEnv, env)
}
