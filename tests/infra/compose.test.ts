import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { TObject } from 'typebox'
import { loadConfig } from '@finsheet/platform'
import { UsersEnv } from '@finsheet/users-service'
import { SpreadsheetEnv } from '@finsheet/spreadsheet-service'
import { FilesEnv } from '@finsheet/files-service'
import { AiEnv } from '@finsheet/ai-service'
import { VectordbEnv } from '@finsheet/vectordb-service'
import { GatewayEnv } from '@finsheet/gateway-service'

// No Docker engine runs in CI, so the compose file is checked statically against the config schemas
// the services validate at start-up: a typo or a missing variable here would stop a container.

interface ComposeService {
  image?: string
  build?: { context: string; dockerfile: string }
  command?: string[]
  environment?: Record<string, string | number>
  healthcheck?: { test: string[] }
  depends_on?: Record<string, { condition: string }>
}

const root = fileURLToPath(new URL('../..', import.meta.url))
const compose = parse(readFileSync(`${root}/docker-compose.yml`, 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>
}
const services = compose.services

const schemaOf: Record<string, TObject> = {
  users: UsersEnv,
  spreadsheet: SpreadsheetEnv,
  files: FilesEnv,
  'files-worker': FilesEnv,
  ai: AiEnv,
  'ai-worker': AiEnv,
  vectordb: VectordbEnv,
  'vectordb-worker': VectordbEnv,
  gateway: GatewayEnv,
}

/** Resolves `${NAME:-default}` the way compose does when NAME is not set in the shell. */
function resolveEnvironment(environment: Record<string, string | number> = {}): Record<string, string> {
  return Object.fromEntries(
    Object.entries(environment).map(([key, value]) => [
      key,
      String(value).replace(/\$\{[A-Z0-9_]+(?::?-([^}]*))?\}/g, (_match, fallback: string | undefined) => fallback ?? ''),
    ]),
  )
}

function requiredVariables(schema: TObject): string[] {
  const required = new Set(schema.required ?? [])
  return Object.entries(schema.properties)
    .filter(([name, property]) => required.has(name) && (property as { default?: unknown }).default === undefined)
    .map(([name]) => name)
}

describe('docker-compose.yml', () => {
  it('runs the infrastructure, every service, the workers and the web app', () => {
    expect(Object.keys(services).sort()).toEqual(
      [
        'ai', 'ai-worker', 'files', 'files-worker', 'gateway', 'minio', 'mongo', 'qdrant', 'redis',
        'spreadsheet', 'users', 'vectordb', 'vectordb-worker', 'web',
      ].sort(),
    )
  })

  it.each(Object.keys(services))('%s has a build or an image, and a healthcheck', (name) => {
    const service = services[name]!
    expect(service.build ?? service.image, `${name} needs build or image`).toBeTruthy()
    expect(service.healthcheck?.test?.length, `${name} needs a healthcheck`).toBeGreaterThan(0)
    if (service.build) {
      expect(() => readFileSync(`${root}/${service.build!.dockerfile}`), `${service.build.dockerfile} exists`).not.toThrow()
    }
  })

  it.each(Object.keys(services))('%s depends only on services that report health', (name) => {
    for (const [dependency, { condition }] of Object.entries(services[name]!.depends_on ?? {})) {
      expect(services[dependency], `${name} depends on unknown ${dependency}`).toBeDefined()
      expect(condition).toBe('service_healthy')
      expect(services[dependency]!.healthcheck).toBeDefined()
    }
  })

  it.each(Object.keys(schemaOf))('%s gets every variable its config schema requires, and only known ones', (name) => {
    const schema = schemaOf[name]!
    const environment = resolveEnvironment(services[name]!.environment)
    for (const variable of requiredVariables(schema)) expect(environment, `${name} requires ${variable}`).toHaveProperty(variable)
    const unknown = Object.keys(environment).filter((variable) => !(variable in schema.properties))
    expect(unknown, `${name} sets variables its schema does not know`).toEqual([])
    // The same validation the service runs at start-up.
    expect(() => loadConfig(schema, environment)).not.toThrow()
  })

  it.each(Object.keys(schemaOf))('%s sets every service URL whose default points at this machine', (name) => {
    // A loopback default is right for `npm start`, where services share one machine, and wrong in a container.
    const environment = resolveEnvironment(services[name]!.environment)
    const loopbackDefaults = Object.entries(schemaOf[name]!.properties)
      .filter(([variable]) => variable.endsWith('_URL'))
      .filter(([, property]) => /\/\/(127\.0\.0\.1|localhost)[:/]/.test(String((property as { default?: unknown }).default ?? '')))
      .map(([variable]) => variable)
    for (const variable of loopbackDefaults) {
      expect(environment[variable], `${name} needs ${variable}`).toBeTruthy()
      expect(environment[variable]).not.toMatch(/127\.0\.0\.1|localhost/)
    }
  })

  it.each(Object.keys(schemaOf))('%s runs scaled out: MongoDB, Redis, MinIO and Qdrant adapters', (name) => {
    const environment = resolveEnvironment(services[name]!.environment)
    for (const variable of ['MONGO_URL', 'REDIS_URL', 'S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'QDRANT_URL']) {
      expect(environment[variable], `${name} needs ${variable}`).toBeTruthy()
    }
  })

  it('points the gateway at every service', () => {
    const environment = resolveEnvironment(services.gateway!.environment)
    for (const [variable, service] of [
      ['USERS_URL', 'users'], ['SPREADSHEET_URL', 'spreadsheet'], ['FILES_URL', 'files'], ['AI_URL', 'ai'], ['VECTORDB_URL', 'vectordb'],
    ] as const) {
      expect(new URL(environment[variable]!).hostname).toBe(service)
    }
  })
})
