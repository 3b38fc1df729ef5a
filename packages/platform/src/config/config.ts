import envSchema from 'env-schema'
import { Type, type Static, type TObject, type TProperties } from 'typebox'
import { DEFAULT_BODY_LIMIT_BYTES, DEFAULT_UPLOAD_LIMIT_BYTES } from '@finsheet/contracts'

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`)
    this.name = 'ConfigError'
  }
}

const httpUrl = (description: string) => Type.String({ pattern: '^https?://[^\\s]+$', description })

/** Variables every service reads. Services spread these into their own schema and add theirs. */
export const platformEnvProperties = {
  NODE_ENV: Type.Optional(Type.String()),
  HOST: Type.String({ default: '0.0.0.0', description: 'Interface to listen on' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
    { default: 'info' },
  ),
  DATA_DIR: Type.String({ default: './data', minLength: 1, description: 'Where embedded adapters keep their files' }),
  MONGO_URL: Type.Optional(Type.String({ pattern: '^mongodb(\\+srv)?://[^\\s]+$', description: 'Documents in MongoDB instead of SQLite' })),
  MONGO_DB_PREFIX: Type.String({ default: 'finsheet_', pattern: '^[A-Za-z0-9_-]*$' }),
  S3_ENDPOINT: Type.Optional(httpUrl('Blobs in MinIO/S3 instead of files under DATA_DIR')),
  S3_PUBLIC_ENDPOINT: Type.Optional(httpUrl('Where browsers reach MinIO/S3 for download links, when not at S3_ENDPOINT')),
  S3_ACCESS_KEY: Type.Optional(Type.String({ minLength: 1 })),
  S3_SECRET_KEY: Type.Optional(Type.String({ minLength: 1 })),
  S3_BUCKET: Type.String({ default: 'finsheet', pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$' }),
  S3_REGION: Type.String({ default: 'us-east-1' }),
  QDRANT_URL: Type.Optional(httpUrl('Vectors in Qdrant instead of SQLite')),
  QDRANT_API_KEY: Type.Optional(Type.String()),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://[^\\s]+$', description: 'Jobs on BullMQ instead of the in-process queue' })),
  FIREBASE_PROJECT_ID: Type.Optional(Type.String({ pattern: '^[a-z0-9-]{4,40}$', description: 'Identity from Firebase Authentication' })),
  FIREBASE_API_KEY: Type.Optional(Type.String({ description: 'Web API key used for password sign-in in Firebase mode' })),
  FIREBASE_AUTH_EMULATOR_HOST: Type.Optional(Type.String({ pattern: '^[^\\s/]+:\\d+$' })),
  USERS_JWKS_URL: Type.Optional(httpUrl("The users service's JWKS, for services that do not share DATA_DIR with it")),
  TOKEN_ISSUER: Type.String({ default: 'finsheet-users' }),
  TOKEN_AUDIENCE: Type.String({ default: 'finsheet' }),
  TOKEN_TTL_SECONDS: Type.Integer({ default: 86_400, minimum: 60, maximum: 2_592_000 }),
  TRUST_PROXY: Type.String({
    default: 'loopback',
    pattern: '^[A-Za-z0-9.:/, ]*$',
    description:
      'Which peers may state the client address in X-Forwarded-For: "loopback", "uniquelocal" (private networks), addresses or CIDR ranges separated by commas, a number of hops, "true" or "false"',
  }),
  BODY_LIMIT_BYTES: Type.Integer({ default: DEFAULT_BODY_LIMIT_BYTES, minimum: 1024, description: 'Largest JSON request body; larger answers 413' }),
  UPLOAD_LIMIT_BYTES: Type.Integer({ default: DEFAULT_UPLOAD_LIMIT_BYTES, minimum: 1024, description: 'Largest uploaded file; larger answers 413' }),
  SERVICE_SECRET: Type.Optional(
    Type.String({ minLength: 32, description: 'Shared by every service to sign service-to-service calls; by default generated into DATA_DIR' }),
  ),
}

/** Where a service reaches the users service, for workers that act for a user (see UserTokenSource). */
export const usersUrlProperty = {
  USERS_URL: Type.String({ pattern: '^https?://[^\\s]+$', default: 'http://127.0.0.1:3001', description: 'The users service, which gives workers short-lived user tokens' }),
}

export const PlatformEnv = Type.Object({
  ...platformEnvProperties,
  PORT: Type.Integer({ default: 3000, minimum: 0, maximum: 65_535 }),
})
export type PlatformConfig = Static<typeof PlatformEnv>

/** Validates env against a schema; every bad or missing variable is named in one error. */
export function loadConfig<Properties extends TProperties>(
  schema: TObject<Properties>,
  env: Record<string, string | undefined> = process.env,
): Static<TObject<Properties>> {
  // An empty variable means "not set", as shells and compose files often leave them.
  const data = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''))
  let config: Record<string, unknown>
  try {
    config = envSchema({ schema, data, dotenv: false }) as Record<string, unknown>
  } catch (error) {
    const ajvErrors = (error as { errors?: Array<{ instancePath: string; message?: string; params?: Record<string, unknown> }> }).errors
    if (!ajvErrors) throw error
    const problems = ajvErrors.map((e) => {
      if (e.params && typeof e.params.missingProperty === 'string') return `${e.params.missingProperty} is required`
      const variable = e.instancePath.replace(/^\//, '')
      const value = data[variable]
      const shown = value === undefined || /KEY|SECRET|PASSWORD|TOKEN/.test(variable) ? '' : ` (got ${JSON.stringify(value)})`
      return `${variable} ${e.message ?? 'is invalid'}${shown}`
    })
    throw new ConfigError([...new Set(problems)])
  }
  const problems = crossFieldProblems(config)
  if (problems.length > 0) throw new ConfigError(problems)
  return config as Static<TObject<Properties>>
}

function crossFieldProblems(config: Record<string, unknown>): string[] {
  const problems: string[] = []
  if (config.S3_ENDPOINT) {
    if (!config.S3_ACCESS_KEY) problems.push('S3_ACCESS_KEY is required when S3_ENDPOINT is set')
    if (!config.S3_SECRET_KEY) problems.push('S3_SECRET_KEY is required when S3_ENDPOINT is set')
  }
  return problems
}

/**
 * The TRUST_PROXY setting in the form Fastify's `trustProxy` takes: whom to believe about the
 * client's address. The gateway trusts the proxy in front of it (nginx), and the services trust
 * the gateway, which passes the address on; anything else may not state an address.
 */
export function trustProxySetting(value: string): TrustProxy {
  const trimmed = value.trim()
  if (trimmed === '' || trimmed === 'false') return false
  if (trimmed === 'true') return true
  if (/^\d+$/.test(trimmed)) {
    // A count of hops: the nearest `hops` peers are proxies, as Fastify reads a number.
    const hops = Number(trimmed)
    return (_address: string, hop: number) => hop < hops
  }
  return trimmed.split(',').map((entry) => entry.trim()).filter(Boolean)
}

/** Whom to believe about the client's address, in the forms Fastify's `trustProxy` takes. */
export type TrustProxy = boolean | string[] | ((address: string, hop: number) => boolean)

/** Prints a configuration error naming the variables and exits; for server entry points. */
export function exitOnConfigError(error: unknown): never {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`)
    process.exit(78)
  }
  throw error
}
