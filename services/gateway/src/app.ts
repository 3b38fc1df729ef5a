import cors from '@fastify/cors'
import httpProxy from '@fastify/http-proxy'
import rateLimit from '@fastify/rate-limit'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Redis } from 'ioredis'
import { DEFAULT_BODY_LIMIT_BYTES, DEFAULT_UPLOAD_LIMIT_BYTES, SERVICE_AREAS, uploadBodyLimitBytes, type ServiceArea } from '@finsheet/contracts'
import {
  AppError,
  bearerTokenFrom,
  createBaseApp,
  errorBody,
  handleError,
  platformErrors,
  type Logger,
  type ServiceApp,
  type StatusProbe,
  type TokenVerifier,
  type TrustProxy,
} from '@finsheet/platform'
import { registerBodyLimits, registerContinue } from './body-limits.js'
import { healthRoutes } from './health-routes.js'
import { areaOf, isInternalPath, isOpenPath, pathOf, REROUTED_PATHS } from './routes-policy.js'
import { registerSecurityHeaders, type ContentSecurityOptions } from './security-headers.js'
import { registerWeb, wantsPage } from './web.js'

export interface GatewayDependencies {
  /** Base URL of each service, such as http://127.0.0.1:3001 for users. */
  services: Record<ServiceArea, string>
  verifier: TokenVerifier
  logger?: Logger | boolean
  /** Requests per window for each user; with `redis` the counts are shared by every gateway replica. */
  rateLimit?: { max: number; timeWindowMs: number; redis?: Redis }
  bodyLimitBytes?: number
  /** Largest body of an upload route, the multipart framing included. */
  uploadBodyLimitBytes?: number
  /** Origins besides the gateway's own allowed to call the API from a browser. */
  corsOrigins?: string[]
  /** The built web app; a placeholder page is served without one. */
  webRoot?: string
  /** How long GET /health waits for each service. */
  healthTimeoutMs?: number
  /** Who may state the client's address in X-Forwarded-For: the proxy in front (nginx); nobody by default. */
  trustProxy?: TrustProxy
  /** What the web app's Content Security Policy allows besides its own origin. */
  contentSecurity?: ContentSecurityOptions
  /** The gateway's own dependencies, which readiness asks (Redis of the shared rate limit). */
  readinessProbes?: StatusProbe[]
}

/**
 * The one door to the API: checks the bearer token before proxying /api/<area>/* to the area's
 * service (which checks it again), limits request rates and body sizes, sends security headers,
 * and serves the web app.
 */
export async function buildGatewayApp(deps: GatewayDependencies): Promise<ServiceApp> {
  const bodyLimit = deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES
  let hasBuild = false
  const app = createBaseApp({
    name: 'gateway',
    logger: deps.logger,
    bodyLimit,
    trustProxy: deps.trustProxy,
    notFoundHandler: async (request, reply) => {
      const path = pathOf(request.url)
      if (hasBuild && wantsPage(request.method, path, request.headers.accept)) return reply.sendFile('index.html')
      if (path.startsWith('/api/') && !areaOf(path)) {
        return handleError(new AppError('ROUTE_NOT_FOUND', 404, `No API area at ${path}`), request, reply)
      }
      return handleError(platformErrors.routeNotFound(request.method, path), request, reply)
    },
  })
  // Hooks run in the order they are added: headers on every answer, then sizes, then token and rate.
  await registerSecurityHeaders(app, deps.contentSecurity)
  const bodies = registerBodyLimits(app, { bodyLimit, uploadBodyLimit: deps.uploadBodyLimitBytes ?? uploadBodyLimitBytes(DEFAULT_UPLOAD_LIMIT_BYTES) })

  await app.register(cors, {
    origin: deps.corsOrigins ?? [],
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    exposedHeaders: ['x-request-id', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'],
  })

  const limits = deps.rateLimit ?? { max: 600, timeWindowMs: 60_000 }
  await app.register(rateLimit, {
    global: false,
    max: limits.max,
    timeWindow: limits.timeWindowMs,
    // Per user once the token is verified; per client address before, and for a bad token.
    keyGenerator: (request) => (request.user ? `user:${request.user.uid}` : `ip:${request.ip}`),
    ...(limits.redis ? { redis: limits.redis, nameSpace: 'finsheet-rate-limit-', skipOnError: true } : {}),
    errorResponseBuilder: (_request, context) => platformErrors.rateLimited(Math.max(1, Math.ceil(context.ttl / 1000))),
  })
  const countRequest = app.rateLimit()

  app.decorateRequest('user', null)
  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'OPTIONS') return
    const path = pathOf(request.url)
    // Service-to-service routes are never reachable from outside, however the path is written.
    if (isInternalPath(path)) throw platformErrors.routeNotFound(request.method, path)
    // Unknown areas fall through to the 404 answer; known ones need a token unless open.
    let refusal: unknown = null
    if (areaOf(path) && !isOpenPath(path)) {
      try {
        request.user = await deps.verifier.verify(bearerTokenFrom(request.headers.authorization))
      } catch (error) {
        refusal = error
      }
    }
    // A request with a bad token counts against its address like any anonymous one, so guessing
    // tokens is limited as everything else is.
    await countRequest.call(app, request, reply)
    if (refusal) throw refusal
  })
  registerContinue(app)

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
        rewriteRequestHeaders: (request, headers) => {
          // The service trusts the gateway for the client's address; a chain the client sent is dropped.
          // The go-ahead was the gateway's to give, and the upstream client refuses an Expect header.
          const { expect: _expect, ...forwarded } = headers
          return { ...forwarded, 'x-request-id': request.id, 'x-forwarded-for': request.ip }
        },
        // Connection and Keep-Alive describe the gateway's own connection to the service; passed on,
        // they would keep a client's connection open after it asked for it to close.
        rewriteHeaders: (headers) => {
          const { connection: _connection, 'keep-alive': _keepAlive, ...endToEnd } = headers
          return endToEnd
        },
        onError: (reply, { error }) => {
          const request = reply.request as FastifyRequest
          if (bodies.wentPastLimit(request)) {
            if (!reply.sent) bodies.refuse(request, reply as FastifyReply)
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

  healthRoutes(app, { services: deps.services, timeoutMs: deps.healthTimeoutMs ?? 2000, probes: deps.readinessProbes ?? [] })
  ;({ hasBuild } = await registerWeb(app, deps.webRoot))
  return app
}
