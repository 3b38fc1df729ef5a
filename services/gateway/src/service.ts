import { Redis } from 'ioredis'
import { uploadBodyLimitBytes } from '@finsheet/contracts'
import { createTokenVerifier, trustProxySetting, type Logger, type ServiceApp } from '@finsheet/platform'
import { buildGatewayApp } from './app.js'
import type { GatewayConfig } from './config.js'

/** Builds the gateway from config; with REDIS_URL, rate-limit counts live in Redis for every replica. */
export async function createGatewayService(config: GatewayConfig, options: { logger?: Logger | boolean; webRoot?: string } = {}): Promise<ServiceApp> {
  // Short timeouts: a slow Redis must not hold requests up (counting is skipped on error).
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { connectTimeout: 500, maxRetriesPerRequest: 1 }) : undefined
  const app = await buildGatewayApp({
    services: { users: config.USERS_URL, spreadsheet: config.SPREADSHEET_URL, files: config.FILES_URL, ai: config.AI_URL, vectordb: config.VECTORDB_URL },
    verifier: createTokenVerifier(config),
    logger: options.logger,
    rateLimit: { max: config.RATE_LIMIT_MAX, timeWindowMs: config.RATE_LIMIT_WINDOW_MS, redis },
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    uploadBodyLimitBytes: uploadBodyLimitBytes(config.UPLOAD_LIMIT_BYTES),
    corsOrigins: config.CORS_ORIGINS.split(',').map((origin) => origin.trim()).filter(Boolean),
    webRoot: options.webRoot ?? config.WEB_ROOT,
    trustProxy: trustProxySetting(config.TRUST_PROXY),
    contentSecurity: config.FIREBASE_PROJECT_ID ? { firebase: { projectId: config.FIREBASE_PROJECT_ID, emulatorHost: config.FIREBASE_AUTH_EMULATOR_HOST } } : {},
    readinessProbes: redis ? [{ port: 'rate limits', adapter: 'redis', check: async () => void (await redis.ping()) }] : [],
  })
  if (redis) app.addHook('onClose', async () => void redis.disconnect())
  return app
}
