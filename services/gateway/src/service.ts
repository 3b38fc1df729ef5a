import type { Redis } from 'ioredis'
import { uploadBodyLimitBytes } from '@finsheet/contracts'
import { createTokenVerifier, trustProxySetting, type Logger, type ServiceApp } from '@finsheet/platform'
import { buildGatewayApp } from './app.js'
import type { GatewayConfig } from './config.js'

/**
 * How long a request waits for Redis to count it. Past this, or at once while Redis is out of reach,
 * the request goes through uncounted: a slow or stopped Redis must not slow every request down.
 */
const RATE_LIMIT_REDIS_TIMEOUT_MS = 100
/** How long start-up waits for Redis, so the first requests are counted; the gateway starts without it. */
const REDIS_READY_WAIT_MS = 2000

function readyOrGiveUp(redis: Redis): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, REDIS_READY_WAIT_MS)
    redis.once('ready', () => {
      clearTimeout(timer)
      resolve()
    })
  })
}

/** Builds the gateway from config; with REDIS_URL, rate-limit counts live in Redis for every replica. */
export async function createGatewayService(config: GatewayConfig, options: { logger?: Logger | boolean; webRoot?: string } = {}): Promise<ServiceApp> {
  // Commands fail at once while disconnected (no offline queue) and time out quickly (counting is skipped on error).
  // ioredis is loaded only when Redis is configured.
  const redis = config.REDIS_URL
    ? new (await import('ioredis')).Redis(config.REDIS_URL, { connectTimeout: 500, maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: RATE_LIMIT_REDIS_TIMEOUT_MS })
    : undefined
  if (redis) {
    // Reconnection is automatic; the listener keeps a refused connection from being an unhandled error event.
    redis.on('error', () => undefined)
    await readyOrGiveUp(redis)
  }
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
