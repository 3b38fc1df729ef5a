import { AGENT_TOOLS, DEFAULT_UPLOAD_LIMIT_BYTES, READ_ONLY_AGENT_TOOLS } from '@finsheet/contracts'
import { createServiceApp, probe, type DocumentStore, type JobQueues, type Logger, type ServiceApp, type TokenVerifier } from '@finsheet/platform'
import { DEFAULT_AGENT_DEADLINE_MS, DEFAULT_AGENT_TOKEN_BUDGET } from './agent/agent-limits.js'
import type { AgentServices } from './agent/agent-service.js'
import type { FinancialModelGenerator } from './agent/model-generator.js'
import { WorkbookToolset } from './agent/workbook-toolset.js'
import type { ChatToolsFactory } from './chat/chat-service.js'
import { createFilesClient } from './clients/files-client.js'
import { createSpreadsheetClient } from './clients/spreadsheet-client.js'
import { loadAiConfig } from './config.js'
import { RetryLaterError } from './errors.js'
import type { ChatProvider } from './providers/conversation.js'
import { modelRegistryFromConfig, type ModelRegistry } from './providers/model-registry.js'
import { agentRoutes } from './routes/agent-routes.js'
import { auditRoutes } from './routes/audit-routes.js'
import { chatRoutes } from './routes/chat-routes.js'
import { documentRoutes } from './routes/document-routes.js'
import { formulaRoutes } from './routes/formula-routes.js'
import { modelRoutes } from './routes/model-routes.js'
import { workflowRoutes } from './routes/workflow-routes.js'
import { createWorkflowStore } from './workflows/workflow-store.js'
import { createUsageStore, type UsageStore } from './usage/usage-store.js'

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
  /** Offers tools to chat when a workbook is open; default the read-only workbook tools through the spreadsheet service. */
  chatTools?: ChatToolsFactory
  /**
   * Builds new financial models (agent mode's model-creation commands, generate-financial-model), or
   * how to make one from the app's model registry and usage store; without one they answer 503.
   */
  modelGenerator?: FinancialModelGenerator | ((parts: { jobs: JobQueues; registry: ModelRegistry; usage: UsageStore; logger: Logger }) => FinancialModelGenerator)
  /** Runs agent mode for model `local` (the offline planner); without one, `local` in agent mode explains what it needs. */
  localAgentProvider?: ChatProvider
  /** How long an agent-mode command may run; default 90 s. */
  agentDeadlineMs?: number
  /** Tokens one agent-mode command may spend. */
  agentTokenBudget?: number
  /** The clock the daily limit reads (tests). */
  clock?: () => Date
  /** Largest JSON body in bytes. */
  bodyLimit?: number
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The ai service's parts, for tests and the agent built on them. */
    assistant: AgentServices
  }
}

/**
 * What chat and agent mode work with: the models, the usage store, the other services' clients, the
 * model generator and the agent's limits. The app builds it; so does the ai-worker, whose workflow
 * runs carry out agent-mode commands.
 */
export function createAgentServices(
  deps: Pick<AiAppDependencies, 'store' | 'jobs' | 'models' | 'spreadsheetUrl' | 'filesUrl' | 'dailyTokenLimit' | 'chatTools' | 'modelGenerator' | 'localAgentProvider' | 'agentDeadlineMs' | 'agentTokenBudget' | 'clock'>,
  logger: Logger,
): AgentServices {
  // What an empty environment gives: no provider configured, the other services at their default ports.
  const defaults = loadAiConfig({})
  const spreadsheet = createSpreadsheetClient(deps.spreadsheetUrl ?? defaults.SPREADSHEET_URL)
  const readOnlyTools = AGENT_TOOLS.filter((tool) => READ_ONLY_AGENT_TOOLS.includes(tool.name))
  const registry = typeof deps.models === 'function' ? deps.models(logger) : (deps.models ?? modelRegistryFromConfig(defaults))
  const usage = createUsageStore(deps.store, { dailyTokenLimit: deps.dailyTokenLimit, clock: deps.clock })
  return {
    registry,
    usage,
    spreadsheet,
    files: createFilesClient(deps.filesUrl ?? defaults.FILES_URL),
    chatTools: deps.chatTools ?? (({ token, workbook }) => new WorkbookToolset({ spreadsheet, token, workbookId: workbook.id, tools: readOnlyTools, logger })),
    logger,
    modelGenerator: typeof deps.modelGenerator === 'function' ? deps.modelGenerator({ jobs: deps.jobs, registry, usage, logger }) : deps.modelGenerator,
    localAgentProvider: deps.localAgentProvider,
    agentLimits: { deadlineMs: deps.agentDeadlineMs ?? DEFAULT_AGENT_DEADLINE_MS, tokenBudget: deps.agentTokenBudget ?? DEFAULT_AGENT_TOKEN_BUDGET },
    agentLogger: logger,
  }
}

/** Chat with the configured models or offline, agent mode, the model list, formula suggestions and PDF analysis. Builds the app from its dependencies; never listens. */
export async function buildAiApp(deps: AiAppDependencies): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'ai',
    description:
      'Chat with the configured models (OpenAI, Anthropic, Vertex AI, OpenAI-compatible servers) or offline, agent mode on workbooks, the model list, formula suggestions and PDF analysis',
    publicPrefix: '/api/ai',
    verifier: deps.verifier,
    logger: deps.logger,
    bodyLimit: deps.bodyLimit,
    probes: [probe('documents', deps.store), probe('jobs', deps.jobs)],
  })
  const services = createAgentServices(deps, app.log as Logger)
  app.decorate('assistant', services)
  // Answers that ask the client to come back later say when.
  app.addHook('onError', async (_request, reply, error) => {
    if (error instanceof RetryLaterError) void reply.header('retry-after', String(error.retryAfterSeconds))
  })

  await app.register(documentRoutes, { limitBytes: deps.documentLimitBytes ?? DEFAULT_UPLOAD_LIMIT_BYTES })
  chatRoutes(app, services)
  formulaRoutes(app, services)
  agentRoutes(app, services)
  modelRoutes(app, { jobs: deps.jobs })
  auditRoutes(app, services)
  workflowRoutes(app, { workflows: createWorkflowStore(deps.store), services, jobs: deps.jobs })
  return app
}
