import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { TObject } from 'typebox'
import { LIVENESS_PATH, READINESS_PATH } from '@finsheet/contracts'
import { loadConfig, platformEnvProperties } from '@finsheet/platform'
import { UsersEnv } from '@finsheet/users-service'
import { SpreadsheetEnv } from '@finsheet/spreadsheet-service'
import { FilesEnv } from '@finsheet/files-service'
import { AiEnv } from '@finsheet/ai-service'
import { VectordbEnv } from '@finsheet/vectordb-service'
import { contentSecurityPolicy, GatewayEnv, SECURITY_HEADERS } from '@finsheet/gateway-service'

// No Docker engine runs in CI, so the compose file is checked statically against the config schemas
// the services validate at start-up: a typo or a missing variable here would stop a container.

interface ComposeService {
  image?: string
  build?: { context: string; dockerfile: string; args?: Record<string, string> }
  command?: string[]
  environment?: Record<string, string | number>
  healthcheck?: { test: string[] }
  depends_on?: Record<string, { condition: string }>
  ports?: string[]
  volumes?: string[]
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
  vectordb: VectordbEnv,
  gateway: GatewayEnv,
}
const nodeServices = Object.keys(schemaOf)
const serviceDockerfile = readFileSync(`${root}/infra/docker/service.Dockerfile`, 'utf8')
const nginx = readFileSync(`${root}/infra/nginx.conf`, 'utf8')

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
  it('runs the infrastructure, every service, the files worker and the web app', () => {
    // The ai worker joins when its dist/worker.js exists (see the next test).
    expect(Object.keys(services).sort()).toEqual(
      ['ai', 'ai-worker', 'files', 'files-worker', 'gateway', 'minio', 'mongo', 'qdrant', 'redis', 'spreadsheet', 'users', 'vectordb', 'vectordb-worker', 'web'].sort(),
    )
  })

  it.each(nodeServices)('%s runs code that exists: its command is built from a source file of its service', (name) => {
    const service = services[name]!
    const folder = service.build?.args?.SERVICE
    expect(folder, `${name} names its service folder`).toBeTruthy()
    // The image's command runs services/<SERVICE>/dist/server.js unless compose gives another.
    const command = service.command ?? ['node', `services/${folder}/dist/server.js`]
    const script = command.find((part) => part.endsWith('.js'))!
    const match = /^services\/([a-z]+)\/dist\/(.+)\.js$/.exec(script)
    expect(match, `${name} runs ${script}`).not.toBeNull()
    expect(match![1], `${name} runs its own service's code`).toBe(folder)
    expect(existsSync(`${root}/services/${match![1]}/src/${match![2]}.ts`), `services/${match![1]}/src/${match![2]}.ts exists`).toBe(true)
    expect(serviceDockerfile).toContain('CMD ["sh", "-c", "exec node services/${SERVICE}/dist/server.js"]')
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

  it('builds every Node service from one parametrised Dockerfile, which is all infra/docker holds besides the web image', () => {
    for (const name of nodeServices) {
      expect(services[name]!.build, name).toMatchObject({ context: '.', dockerfile: 'infra/docker/service.Dockerfile' })
    }
    const folders = nodeServices.filter((name) => !name.endsWith('-worker')).map((name) => services[name]!.build!.args!.SERVICE)
    expect(new Set(folders).size).toBe(folders.length)
    expect(readdirSync(`${root}/infra/docker`).sort()).toEqual(['service.Dockerfile', 'web.Dockerfile'])
    expect(serviceDockerfile).toMatch(/^ARG SERVICE$/m)
    expect(serviceDockerfile).toContain('COPY --from=build /app/services/${SERVICE} ./services/${SERVICE}')
  })

  it('pins every image to a version', () => {
    const pinned = /:(v?\d+\.\d+\.\d+[\w.-]*|RELEASE\.\d{4}-\d{2}-\d{2}T[\dZ-]+)$/
    const images = [
      ...Object.values(services).flatMap((service) => (service.image ? [service.image] : [])),
      ...['service.Dockerfile', 'web.Dockerfile'].flatMap((file) =>
        [...readFileSync(`${root}/infra/docker/${file}`, 'utf8').matchAll(/^(?:FROM|ARG NODE_IMAGE=)\s*(\S+)/gm)].map(([, image]) => image).filter((image) => !image.startsWith('$')),
      ),
    ]
    expect(images.length).toBeGreaterThan(6)
    for (const image of images) expect(image, `${image} is pinned`).toMatch(pinned)
  })

  it('lets the users image create and own its data folder, where the signing key is written', () => {
    expect(serviceDockerfile).toMatch(/ENV [^\n]*DATA_DIR=\/data/)
    const owned = serviceDockerfile.indexOf('RUN mkdir -p /data && chown node:node /data')
    expect(owned).toBeGreaterThan(-1)
    expect(owned).toBeLessThan(serviceDockerfile.indexOf('USER node'))
    expect(services.users!.volumes).toEqual(['users-keys:/data'])
  })

  it('keeps what machines build and store out of the build context', () => {
    const ignored = readFileSync(`${root}/.dockerignore`, 'utf8').split('\n').map((line) => line.trim())
    for (const entry of ['**/node_modules', '**/dist', '.git', 'data', 'test-output', 'packages/standalone/src']) expect(ignored, entry).toContain(entry)
  })

  it('has the gateway trust the proxy in front of it, which states the client address once, and no port that skips it', () => {
    const environment = resolveEnvironment(services.gateway!.environment)
    expect(environment.TRUST_PROXY).toBeTruthy()
    expect(environment.TRUST_PROXY).not.toBe('false')
    expect(services.gateway!.ports).toBeUndefined()
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$remote_addr;/)
    expect(nginx).not.toContain('$proxy_add_x_forwarded_for')
  })

  it('has nginx wait longer than an import does, and look the gateway up again as it moves', () => {
    const readTimeout = /proxy_read_timeout (\d+)s;/.exec(nginx)
    expect(readTimeout).not.toBeNull()
    const importWait = Number(resolveEnvironment(services.files!.environment).IMPORT_WAIT_MS || (FilesEnv.properties.IMPORT_WAIT_MS as unknown as { default: number }).default)
    expect(Number(readTimeout![1]) * 1000).toBeGreaterThan(importWait)
    expect(nginx).toMatch(/resolver 127\.0\.0\.11 valid=\d+s/)
    // A proxy_pass to a variable is resolved per request; to a fixed name, once at start.
    const targets = [...nginx.matchAll(/proxy_pass (\S+);/g)].map(([, target]) => target)
    expect(targets.length).toBeGreaterThan(0)
    for (const target of targets) expect(target).toMatch(/^\$/)
  })

  it('checks liveness of the gateway and readiness of the services, so one service down does not take the gateway out', () => {
    expect(services.gateway!.healthcheck!.test.join(' ')).toContain(`:8080${LIVENESS_PATH}`)
    for (const name of nodeServices.filter((name) => name !== 'gateway' && !name.endsWith('-worker'))) {
      expect(services[name]!.healthcheck!.test.join(' '), name).toContain(`:3000${READINESS_PATH}`)
    }
  })

  it('sets the upload limit in one place: one variable every service reads, which nginx does not second-guess', () => {
    for (const [name, schema] of Object.entries(schemaOf)) {
      const limits = Object.keys(schema.properties).filter((variable) => /UPLOAD|BODY_LIMIT/.test(variable))
      expect(limits.sort(), name).toEqual(['BODY_LIMIT_BYTES', 'UPLOAD_LIMIT_BYTES'])
      expect(schema.properties.UPLOAD_LIMIT_BYTES, name).toBe(platformEnvProperties.UPLOAD_LIMIT_BYTES)
      expect(schema.properties.BODY_LIMIT_BYTES, name).toBe(platformEnvProperties.BODY_LIMIT_BYTES)
    }
    const values = new Set(nodeServices.map((name) => String(services[name]!.environment?.UPLOAD_LIMIT_BYTES)))
    expect(values.size).toBe(1)
    expect(nginx).toMatch(/client_max_body_size 0;/)
  })

  it('sends the same security headers from nginx as the gateway does', () => {
    const headers = Object.fromEntries([...nginx.matchAll(/add_header (\S+) "([^"]*)" always;/g)].map(([, name, value]) => [name, value]))
    const normalise = (policy: string) => policy.split(';').map((directive) => directive.trim()).filter(Boolean)
    expect(normalise(headers['Content-Security-Policy'] ?? '')).toEqual(normalise(contentSecurityPolicy()))
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(headers[name], name).toBe(value)
  })

  it('writes to MongoDB as a replica set with majority acknowledgement', () => {
    const url = new URL(resolveEnvironment(services.users!.environment).MONGO_URL!)
    expect(url.searchParams.get('replicaSet')).toBe('rs0')
    expect(url.searchParams.get('w')).toBe('majority')
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
