import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createServer, type AddressInfo } from 'node:net'
import type { ServiceArea } from '@finsheet/contracts'
import { createLogger, type Logger, type ServiceApp } from '@finsheet/platform'
import { createUsersService, loadUsersConfig } from '@finsheet/users-service'
import { loadSpreadsheetConfig, startSpreadsheetService } from '@finsheet/spreadsheet-service'
import { createFilesService, loadFilesConfig } from '@finsheet/files-service'
import { createAiService, loadAiConfig } from '@finsheet/ai-service'
import { createGatewayService, loadGatewayConfig } from '@finsheet/gateway-service'
import { vectordbThread, type ThreadedService } from './threaded-service.js'

type Env = Record<string, string | undefined>

export interface AllInOneOptions {
  /** Gateway port; 0 picks a free one. Default: PORT from env, else 8080. */
  port?: number
  /** Gateway interface. Default: HOST from env, else 127.0.0.1. */
  host?: string
  /** Where the embedded adapters keep their data. Default: DATA_DIR from env, else ./data. */
  dataDir?: string
  /** Environment the services read their config from; default process.env. */
  env?: Env
  /** A pino logger, or false for silence. Default: info-level logs to stdout. */
  logger?: Logger | false
  /** The built web app. Default: web/dist of this repository. */
  webRoot?: string
}

export interface AllInOne {
  /** The gateway, such as http://127.0.0.1:8080 */
  url: string
  port: number
  dataDir: string
  /** Loopback URL of each service behind the gateway. */
  services: Record<ServiceArea, string>
  close(): Promise<void>
}

const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../../web/dist', import.meta.url))

type Starter = (env: Env, logger: Logger | false) => Promise<ServiceApp | ThreadedService>

const starters: Array<[ServiceArea, Starter]> = [
  // users first: it writes the signing keys the other services verify with
  ['users', (env, logger) => createUsersService(loadUsersConfig(env), { logger })],
  ['spreadsheet', (env, logger) => startSpreadsheetService(loadSpreadsheetConfig(env), env, { logger })],
  ['files', (env, logger) => createFilesService(loadFilesConfig(env), { logger })],
  ['ai', (env, logger) => createAiService(loadAiConfig(env), { logger })],
  // in a thread of its own: indexing a large workbook would hold this thread, and the gateway with it
  ['vectordb', async (env, logger) => vectordbThread(env, logger)],
]

/**
 * Every service in this process on its own loopback port, behind the gateway: what `npm start`
 * runs, and what cross-service tests start on free ports with a temporary DATA_DIR.
 */
export async function startAllInOne(options: AllInOneOptions = {}): Promise<AllInOne> {
  // A service's port is held from the moment it is chosen until the service listens on it, yet another
  // process may still take it in between; then the whole stack starts again on new ports.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options)
    } catch (error) {
      if (!(error instanceof InternalPortTaken) || attempt === 3) throw error
    }
  }
}

class InternalPortTaken extends Error {}

async function startOnce(options: AllInOneOptions): Promise<AllInOne> {
  const baseEnv = options.env ?? process.env
  const dataDir = resolve(options.dataDir ?? baseEnv.DATA_DIR ?? './data')
  mkdirSync(dataDir, { recursive: true })
  const env: Env = { ...baseEnv, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0' }
  const root = options.logger === false ? false : (options.logger ?? createLogger(null, baseEnv.LOG_LEVEL ?? 'info'))
  const loggerFor = (name: string) => (root === false ? false : root.child({ service: name }))

  const started: Array<ServiceApp | ThreadedService> = []
  const closeAll = async () => {
    for (const app of started.reverse()) await app.close().catch(() => undefined)
  }
  const held = {} as Record<ServiceArea, HeldPort>
  try {
    // Ports are chosen up front so every service knows every other's URL (USERS_URL, FILES_URL, …).
    const services = {} as Record<ServiceArea, string>
    for (const [area] of starters) {
      held[area] = await holdLoopbackPort()
      services[area] = `http://127.0.0.1:${held[area].port}`
      env[`${area.toUpperCase()}_URL`] = services[area]
    }
    for (const [area, start] of starters) {
      const { port } = held[area]
      const app = await start({ ...env, PORT: String(port) }, loggerFor(area))
      started.push(app)
      await held[area].release()
      await app.listen({ port, host: '127.0.0.1' }).catch((error: NodeJS.ErrnoException) => {
        throw error.code === 'EADDRINUSE' ? new InternalPortTaken(`port ${port} was taken before the ${area} service listened`) : error
      })
    }
    const gatewayConfig = loadGatewayConfig(env)
    const gateway = await createGatewayService(gatewayConfig, { logger: loggerFor('gateway'), webRoot: options.webRoot ?? baseEnv.WEB_ROOT ?? DEFAULT_WEB_ROOT })
    started.push(gateway)
    const host = options.host ?? baseEnv.HOST ?? '127.0.0.1'
    await gateway.listen({ port: options.port ?? Number(baseEnv.PORT ?? 8080), host })
    const port = (gateway.server.address() as AddressInfo).port
    return {
      url: `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}`,
      port,
      dataDir,
      services,
      close: closeAll,
    }
  } catch (error) {
    await closeAll()
    await Promise.all(Object.values(held).map((port) => port.release()))
    throw error
  }
}

interface HeldPort {
  port: number
  /** Frees the port (once; later calls do nothing). */
  release(): Promise<void>
}

function holdLoopbackPort(): Promise<HeldPort> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer()
    probe.on('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      let released: Promise<void> | null = null
      const release = () => (released ??= new Promise<void>((done) => probe.close(() => done())))
      resolvePort({ port, release })
    })
  })
}
