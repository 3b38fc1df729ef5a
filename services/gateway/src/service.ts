import { createTokenVerifier, type Logger, type ServiceApp } from '@finsheet/platform'
import { buildGatewayApp } from './app.js'
import type { GatewayConfig } from './config.js'

/** Builds the gateway from config. */
export function createGatewayService(config: GatewayConfig, options: { logger?: Logger | boolean; webRoot?: string } = {}): Promise<ServiceApp> {
  return buildGatewayApp({
    services: { users: config.USERS_URL, spreadsheet: config.SPREADSHEET_URL, files: config.FILES_URL, ai: config.AI_URL, vectordb: config.VECTORDB_URL },
    verifier: createTokenVerifier(config),
    logger: options.logger,
    rateLimit: { max: config.RATE_LIMIT_MAX, timeWindowMs: config.RATE_LIMIT_WINDOW_MS },
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    uploadLimitBytes: config.UPLOAD_LIMIT_BYTES,
    corsOrigins: config.CORS_ORIGINS.split(',').map((origin) => origin.trim()).filter(Boolean),
    webRoot: options.webRoot ?? config.WEB_ROOT,
  })
}
