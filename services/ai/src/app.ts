import { DEFAULT_UPLOAD_LIMIT_BYTES } from '@finsheet/contracts'
import { createServiceApp, probe, type DocumentStore, type JobQueues, type Logger, type ServiceApp, type TokenVerifier } from '@finsheet/platform'
import type { AssistantServices, ChatToolsFactory } from './chat/chat-service.js'
import { createFilesClient } from './clients/files-client.js'
import { createSpreadsheetClient } from './clients/spreadsheet-client.js'
import { loadAiConfig } from './config.js'
import { RetryLaterError } from './errors.js'
import { modelRegistryFromConfig, type ModelRegistry } from './providers/model-registry.js'
import { chatRoutes } from './routes/chat-routes.js'
import { documentRoutes } from './routes/document-routes.js'
import { formulaRoutes } from './routes/formula-routes.js'
import { createUsageStore } from './usage/usage-store.js'

export interface AiAppDependencies {
  verifier: TokenVerifier
  store: DocumentStore
  jobs: JobQueues
  logger?: Logger | boolean
  /** Largest document processDocument and analyze-document take, in bytes. Default 50 MB. */
  documentLimitBytes?: number
  /** The models offered and their providers, or how to make them with the app's logger; default: none configured (only the offline assistant answers). */
  models?: ModelRegistry | ((logger: Logger) => ModelRegistry)
  /** The spreadsheet service's base URL (formula evaluation, workbook ownership). */
  spreadsheetUrl?: string
  /** The files service's base URL (figures of uploaded PDFs). */
  filesUrl?: string
  /** Tokens a user may spend per UTC day; undefined for no limit. */
  dailyTokenLimit?: number
  /** Offers tools to chat when a workbook is open (the read-only workbook tools). */
  chatTools?: ChatToolsFactory
  /** The clock the daily limit reads (tests). */
  clock?: () => Date
  /** Largest JSON body in bytes. */
  bodyLimit?: number
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The ai service's parts, for tests and the agent built on them. */
    assistant: AssistantServices
  }
}

/** Chat with the configured models or offline, the model list, formula suggestions and PDF analysis. Builds the app from its dependencies; never listens. */
export async function buildAiApp(deps: AiAppDependencies): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'ai',
    description: 'Chat with the configured models (OpenAI, Anthropic, Vertex AI, OpenAI-compatible servers) or offline, the model list, formula suggestions and PDF analysis',
    publicPrefix: '/api/ai',
    verifier: deps.verifier,
    logger: deps.logger,
    bodyLimit: deps.bodyLimit,
    probes: [probe('documents', deps.store), probe('jobs', deps.jobs)],
  })
  // What an empty environment gives: no provider configured, the other services at their default ports.
  const defaults = loadAiConfig({})
  const services: AssistantServices = {
    registry: typeof deps.models === 'function' ? deps.models(app.log as Logger) : (deps.models ?? modelRegistryFromConfig(defaults)),
    usage: createUsageStore(deps.store, { dailyTokenLimit: deps.dailyTokenLimit, clock: deps.clock }),
    spreadsheet: createSpreadsheetClient(deps.spreadsheetUrl ?? defaults.SPREADSHEET_URL),
    files: createFilesClient(deps.filesUrl ?? defaults.FILES_URL),
    chatTools: deps.chatTools,
    logger: app.log,
  }
  app.decorate('assistant', services)
  // Answers that ask the client to come back later say when.
  app.addHook('onError', async (_request, reply, error) => {
    if (error instanceof RetryLaterError) void reply.header('retry-after', String(error.retryAfterSeconds))
  })

  await app.register(documentRoutes, { limitBytes: deps.documentLimitBytes ?? DEFAULT_UPLOAD_LIMIT_BYTES })
  chatRoutes(app, services)
  formulaRoutes(app, services)
  return app
}
