import { createTokenVerifier, createDocumentStore, createJobQueues, type Logger, type ServiceApp } from '@finsheet/platform'
import { buildAiApp } from './app.js'
import type { FinancialModelGenerator } from './agent/model-generator.js'
import type { AiConfig } from './config.js'
import type { ChatProvider } from './providers/conversation.js'
import { modelRegistryFromConfig, type ProviderOverrides } from './providers/model-registry.js'

/** Builds the ai service from config: adapters and model providers chosen by env, closed with the app. */
export interface AiServiceOptions {
  logger?: Logger | boolean
  providers?: Omit<ProviderOverrides, 'logger'>
  /** Builds new financial models; without one, model creation answers 503. */
  modelGenerator?: FinancialModelGenerator
  /** Runs agent mode for model `local`. */
  localAgentProvider?: ChatProvider
}

export async function createAiService(config: AiConfig, options: AiServiceOptions = {}): Promise<ServiceApp> {
  const store = await createDocumentStore(config, 'ai')
  const jobs = createJobQueues(config)
  const app = await buildAiApp({
    verifier: createTokenVerifier(config),
    store,
    jobs,
    logger: options.logger,
    models: (logger) => modelRegistryFromConfig(config, { ...options.providers, logger }),
    spreadsheetUrl: config.SPREADSHEET_URL,
    filesUrl: config.FILES_URL,
    dailyTokenLimit: config.AI_DAILY_TOKEN_LIMIT,
    agentDeadlineMs: config.AI_AGENT_DEADLINE_MS,
    agentTokenBudget: config.AI_AGENT_TOKEN_BUDGET,
    modelGenerator: options.modelGenerator,
    localAgentProvider: options.localAgentProvider,
    documentLimitBytes: config.UPLOAD_LIMIT_BYTES,
    bodyLimit: config.BODY_LIMIT_BYTES,
  })
  app.addHook('onClose', async () => {
    await store.close()
    await jobs.close()
  })
  return app
}
