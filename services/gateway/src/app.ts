import cors from '@fastify/cors'
import httpProxy from '@fastify/http-proxy'
import rateLimit from '@fastify/rate-limit'
import { Transform } from 'node:stream'
import type { Redis } from 'ioredis'
import { GatewayHealthResponse, SERVICE_AREAS, type ServiceArea, type ServiceHealth } from '@finsheet/contracts'
import {
  AppError,
  bearerTokenFrom,
  createBaseApp,
  errorBody,
  handleError,
  platformErrors,
  type Logger,
  type ServiceApp,
  type TokenVerifier,
} from '@finsheet/platform'
import { areaOf, isInternalPath, isOpenPath, isUploadPath, pathOf, REROUTED_PATHS } from './routes-policy.js'
import { registerWeb, wantsPage } from './web.js'

export interface GatewayDependencies {
  /** Base URL of each service, such as http://127.0.0.1:3001 for users. */
  services: Record<ServiceArea, string>
  verifier: TokenVerifier
  logger?: Logger | boolean
  /** Requests per window for each user; with `redis` the counts are shared by every gateway replica. */
  rateLimit?: { max: number; timeWindowMs: number; redis?: Redis }
  bodyLimitBytes?: number
  uploadLimitBytes?: number
  /** Origins besides the gateway's own allowed to call the API from a browser. */
  corsOrigins?: string[]
  /** The built web app; a placeholder page is served without one. */
  webRoot?: string
  /** How long GET /health waits for each service. */
  healthTimeoutMs?: number
}

const DEFAULT_BODY_LIMIT = 10 * 1024 * 1024
const DEFAULT_UPLOAD_LIMIT = 100 * 1024 * 1024

/**
 * The one door to the API: checks the bearer token before proxying /api/<area>/* to the area's
 * service (which checks it again), limits request rates and body sizes, and serves the web app.
 */
export async function buildGatewayApp(deps: GatewayDependencies): Promise<ServiceApp> {
  const startedAt = Date.now()
  const bodyLimit = deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT
  const uploadLimit = deps.uploadLimitBytes ?? DEFAULT_UPLOAD_LIMIT
  /** Requests whose streamed body went past its limit. */
  const tooLarge = new WeakSet<object>()
  let hasBuild = false
  const app = createBaseApp({
    name: 'gateway',
    logger: deps.logger,
    bodyLimit,
    notFoundHandler: async (request, reply) => {
      const path = pathOf(request.url)
      if (hasBuild && wantsPage(request.method, path, request.headers.accept)) return reply.sendFile('index.html')
      if (path.startsWith('/api/') && !areaOf(path)) {
        return handleError(new AppError('ROUTE_NOT_FOUND', 404, `No API area at ${path}`), request, reply)
      }
      return handleError(platformErrors.routeNotFound(request.method, path), request, reply)
    },
  })

  app.decorateRequest('user', null)
  app.addHook('onRequest', async (request) => {
    const path = pathOf(request.url)
    const declared = Number(request.headers['content-length'] ?? 0)
    const limit = isUploadPath(path) ? uploadLimit : bodyLimit
    if (declared > limit) throw platformErrors.payloadTooLarge(limit)
    if (isInternalPath(path)) throw platformErrors.routeNotFound(request.method, path)
    // Unknown areas fall through to the 404 answer; known ones need a token unless open.
    if (!areaOf(path) || request.method === 'OPTIONS' || isOpenPath(path)) return
    request.user = await deps.verifier.verify(bearerTokenFrom(request.headers.authorization))
  })

  // A body sent without Content-Length (chunked) is counted as it streams through to the service:
  // past the limit the stream fails, and the proxy answers 413 rather than passing the rest on.
  app.addHook('preParsing', async (request, _reply, payload) => {
    // A declared length was checked on arrival; without one and without chunks there is no body.
    if (request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] === undefined) return payload
    const limit = isUploadPath(pathOf(request.url)) ? uploadLimit : bodyLimit
    let received = 0
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length
        if (received <= limit) return done(null, chunk)
        tooLarge.add(request.raw)
        done(platformErrors.payloadTooLarge(limit))
      },
    })
    payload.on('error', (error) => counted.destroy(error))
    return payload.pipe(counted)
  })

  await app.register(cors, {
    origin: deps.corsOrigins ?? [],
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    exposedHeaders: ['x-request-id', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'],
  })

  const limits = deps.rateLimit ?? { max: 600, timeWindowMs: 60_000 }
  await app.register(rateLimit, {
    max: limits.max,
    timeWindow: limits.timeWindowMs,
    // Per user once signed in; per address before.
    keyGenerator: (request) => (request.user ? `user:${request.user.uid}` : `ip:${request.ip}`),
    ...(limits.redis ? { redis: limits.redis, nameSpace: 'finsheet-rate-limit-', skipOnError: true } : {}),
    errorResponseBuilder: (_request, context) => platformErrors.rateLimited(Math.max(1, Math.ceil(context.ttl / 1000))),
  })

  // The more specific rerouted prefixes win over their area's catch-all.
  const proxies = [
    ...REROUTED_PATHS.map(({ prefix, area, rewritePrefix }) => ({ prefix, area, rewritePrefix })),
    ...SERVICE_AREAS.map((area) => ({ prefix: `/api/${area}`, area, rewritePrefix: '' })),
  ]
  for (const { prefix, area, rewritePrefix } of proxies) {
    await app.register(httpProxy, {
      upstream: deps.services[area],
      prefix,
      rewritePrefix,
      http2: false,
      replyOptions: {
        rewriteRequestHeaders: (request, headers) => ({ ...headers, 'x-request-id': request.id }),
        onError: (reply, { error }) => {
          if (tooLarge.has(reply.request.raw)) {
            const answer = platformErrors.payloadTooLarge(isUploadPath(pathOf(reply.request.url)) ? uploadLimit : bodyLimit)
            void reply.status(answer.statusCode).send(errorBody(answer))
            return
          }
          const status = (error as { statusCode?: number }).statusCode ?? 502
          reply.log.warn({ err: error, area }, 'upstream request failed')
          const answer = status === 504 ? new AppError('UPSTREAM_TIMEOUT', 504, `The ${area} service did not answer in time`) : new AppError('SERVICE_UNAVAILABLE', 503, `The ${area} service is unavailable`)
          void reply.status(answer.statusCode).send(errorBody(answer))
        },
      },
    })
  }

  app.get(
    '/health',
    { schema: { response: { 200: GatewayHealthResponse, 503: GatewayHealthResponse } } },
    async (_request, reply) => {
      const entries = await Promise.all(SERVICE_AREAS.map(async (area) => [area, await checkService(deps.services[area], deps.healthTimeoutMs ?? 2000)] as const))
      const services = Object.fromEntries(entries) as Record<string, ServiceHealth>
      const healthy = entries.every(([, health]) => health.status === 'ok')
      return reply.status(healthy ? 200 : 503).send({
        status: healthy ? 'ok' : 'degraded',
        service: 'gateway',
        uptimeSeconds: Math.round((Date.now() - startedAt) / 100) / 10,
        services,
      })
    },
  )

  ;({ hasBuild } = await registerWeb(app, deps.webRoot))

  return app
}

async function checkService(baseUrl: string, timeoutMs: number): Promise<ServiceHealth> {
  const started = performance.now()
  try {
    const response = await fetch(new URL('/health', baseUrl), { signal: AbortSignal.timeout(timeoutMs) })
    const latencyMs = Math.round(performance.now() - started)
    await response.body?.cancel()
    return response.ok ? { status: 'ok', latencyMs } : { status: 'down', latencyMs, error: `answered ${response.status}` }
  } catch (error) {
    const latencyMs = Math.round(performance.now() - started)
    const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : 'unreachable'
    return { status: 'down', latencyMs, error: reason }
  }
}
