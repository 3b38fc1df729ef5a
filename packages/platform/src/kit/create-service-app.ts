import { randomUUID } from 'node:crypto'
import Fastify, {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyInstance,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify'
import swagger from '@fastify/swagger'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { DEFAULT_BODY_LIMIT_BYTES, ErrorBody, HealthResponse, LIVENESS_PATH, READINESS_PATH, StatusResponse, type AdapterStatus } from '@finsheet/contracts'
import type { Logger } from 'pino'
import { authPlugin } from '../auth/auth-plugin.js'
import type { TrustProxy } from '../config/config.js'
import type { TokenVerifier } from '../auth/token-verifier.js'
import { handleError } from '../errors/error-handler.js'
import { platformErrors } from '../errors/app-error.js'
import { loggerOptions } from './logger.js'
import { createValidatorCompiler } from './validation.js'

export type ServiceApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>

/** Something whose health /status reports: a storage adapter, the identity provider, a queue. */
export interface StatusProbe {
  port: string
  adapter: string
  check(): Promise<void>
}

export interface ServiceAppOptions {
  /** Short service name: users, spreadsheet, files, ai, vectordb, gateway. */
  name: string
  version?: string
  /** A pino logger, pino options, or false for silence (tests). */
  logger?: Logger | boolean | { level?: string }
  verifier: TokenVerifier
  /** Largest JSON body in bytes; larger answers 413. */
  bodyLimit?: number
  /** Who may state the client's address in X-Forwarded-For (Fastify's trustProxy); nobody by default. */
  trustProxy?: TrustProxy
  probes?: StatusProbe[]
  /** Shown in the OpenAPI document. */
  description?: string
  /** Path prefix the gateway serves this service under, such as /api/users; documented as the server URL. */
  publicPrefix?: string
}

const REQUEST_ID_HEADER = 'x-request-id'

export interface BaseAppOptions {
  name: string
  /** A pino logger, pino options, or false for silence (tests). */
  logger?: Logger | boolean | { level?: string }
  bodyLimit?: number
  /** Who may state the client's address in X-Forwarded-For (Fastify's trustProxy); nobody by default. */
  trustProxy?: TrustProxy
  /** Replaces the default 404 JSON answer, for the gateway's web-app fallback. */
  notFoundHandler?: (request: FastifyRequest, reply: FastifyReply) => unknown
}

/**
 * A Fastify app with the conventions every Finsheet server shares: TypeBox types, request ids in
 * logs and in the x-request-id header, one error shape, 404 JSON, JSON bodies validated as sent.
 */
export function createBaseApp(options: BaseAppOptions): ServiceApp {
  const loggerSetting = options.logger ?? false
  const base = {
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT_BYTES,
    trustProxy: options.trustProxy ?? false,
    requestIdHeader: REQUEST_ID_HEADER,
    genReqId: () => randomUUID(),
    return503OnClosing: true,
  }
  const app = (
    isPinoLogger(loggerSetting)
      ? Fastify({ ...base, loggerInstance: loggerSetting })
      : Fastify({
          ...base,
          logger: loggerSetting === false ? false : loggerOptions(options.name, loggerSetting === true ? 'info' : (loggerSetting.level ?? 'info')),
        })
  ).withTypeProvider<TypeBoxTypeProvider>() as unknown as ServiceApp

  app.setValidatorCompiler(createValidatorCompiler())
  app.setErrorHandler(handleError)
  app.setNotFoundHandler(
    options.notFoundHandler ??
      ((request, reply) => {
        handleError(platformErrors.routeNotFound(request.method, request.url.split('?')[0]), request, reply)
      }),
  )
  // A POST without a body is an empty object, so routes whose fields are all optional accept it.
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && request.routeOptions.schema?.body) request.body = {}
  })
  app.addHook('onSend', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id)
  })
  return app
}

/**
 * Builds a service app: the base conventions plus bearer auth on every route not marked public,
 * /health, /status and /docs/json.
 */
export async function createServiceApp(options: ServiceAppOptions): Promise<ServiceApp> {
  const startedAt = new Date()
  const app = createBaseApp(options)

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: `Finsheet ${options.name} service`, version: options.version ?? '0.1.0', description: options.description },
      servers: options.publicPrefix ? [{ url: options.publicPrefix }] : [],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearerAuth: [] }],
    },
  })
  await app.register(authPlugin, { verifier: options.verifier })

  const probes = options.probes ?? []
  const uptimeSeconds = () => Math.round((Date.now() - startedAt.getTime()) / 100) / 10

  // /health is the spec's liveness answer; /health/live says the same for orchestrators that probe both.
  const liveness = { config: { public: true }, schema: { tags: ['health'], security: [], summary: 'Liveness: the process is up; nothing it depends on is asked', response: { 200: HealthResponse } } }
  const alive = async () => ({ status: 'ok' as const, service: options.name, uptimeSeconds: uptimeSeconds() })
  app.get('/health', liveness, alive)
  app.get(LIVENESS_PATH, liveness, alive)

  const readiness = {
    config: { public: true },
    schema: { tags: ['health'], security: [], summary: 'Which adapters serve the service and whether they answer: 503 while one does not', response: { 200: StatusResponse, 503: StatusResponse } },
  }
  const ready = async (_request: FastifyRequest, reply: FastifyReply) => {
    const adapters: AdapterStatus[] = await Promise.all(
      probes.map(async (probe) => {
        try {
          await withTimeout(probe.check(), 2_000)
          return { port: probe.port, adapter: probe.adapter, ok: true }
        } catch (error) {
          return { port: probe.port, adapter: probe.adapter, ok: false, detail: (error as Error).message.slice(0, 200) }
        }
      }),
    )
    const healthy = adapters.every((adapter) => adapter.ok)
    return reply.status(healthy ? 200 : 503).send({
      service: options.name,
      version: options.version ?? '0.1.0',
      status: healthy ? 'ok' : 'degraded',
      uptimeSeconds: uptimeSeconds(),
      startedAt: startedAt.toISOString(),
      adapters,
    })
  }
  app.get('/status', readiness, ready)
  app.get(READINESS_PATH, readiness, ready)

  app.get('/docs/json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger())

  return app
}

/** Standard error responses to spread into a route's `response` schema. */
export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  404: ErrorBody,
  500: ErrorBody,
}

function isPinoLogger(value: unknown): value is Logger {
  return typeof value === 'object' && value !== null && typeof (value as Logger).child === 'function' && typeof (value as Logger).info === 'function'
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error instanceof Error ? error : new Error(String(error)))
      },
    )
  })
}
