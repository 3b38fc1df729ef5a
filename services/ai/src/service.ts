import { createPlannerProvider } from './planner/index.js'
import { createTokenVerifier, createDocumentStore, createJobQueues, createUserTokenSource, type JobWorker, type Logger, type ServiceApp } from '@finsheet/platform'
import { buildAiApp } from './app.js'
import type { FinancialModelGenerator as ModelGeneratorSeam } from './agent/model-generator.js'
import { createSpreadsheetClient } from './clients/spreadsheet-client.js'
import { runsWorker, type AiConfig } from './config.js'
import { FinancialModelGenerator } from './models/financial-model-generator.js'
import { createModelProcessor, startModelWorker } from './models/model-jobs.js'
import type { ChatProvider } from './providers/conversation.js'
import { createWorkflowProcessor, startWorkflowWorker } from './workflows/workflow-runner.js'
import { createWorkflowStore } from './workflows/workflow-store.js'
import { modelRegistryFromConfig, type ProviderOverrides } from './providers/model-registry.js'

export interface AiServiceOptions {
  logger?: Logger | boolean
  providers?: Omit<ProviderOverrides, 'logger'>
  /** Builds new financial models; default the ai.generate-model jobs of this service. */
  modelGenerator?: ModelGeneratorSeam
  /** Runs agent mode for model `local`. */
  localAgentProvider?: ChatProvider
}

/**
 * Builds the ai service from config: adapters and model providers chosen by env, closed with the app.
 * With the embedded queue (or RUN_WORKER=true) it runs the ai.generate-model worker itself.
 */
export async function createAiService(config: AiConfig, options: AiServiceOptions = {}): Promise<ServiceApp> {
  const store = await createDocumentStore(config, 'ai')
  const jobs = await createJobQueues(config)
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
    modelGenerator: options.modelGenerator ?? ((parts) => new FinancialModelGenerator({ ...parts, waitMs: config.AI_MODEL_WAIT_MS })),
    // Agent mode with the model `local` runs the offline planner unless a test gives another.
    localAgentProvider: options.localAgentProvider ?? createPlannerProvider(),
    documentLimitBytes: config.UPLOAD_LIMIT_BYTES,
    bodyLimit: config.BODY_LIMIT_BYTES,
  })
  const workers: JobWorker[] = []
  if (runsWorker(config)) {
    const userTokens = await createUserTokenSource(config, 'ai-worker')
    const processor = createModelProcessor({ spreadsheet: createSpreadsheetClient(config.SPREADSHEET_URL), userTokens })
    const workflowProcessor = createWorkflowProcessor({ workflows: createWorkflowStore(store), services: app.assistant, userTokens })
    app.addHook('onReady', async () => {
      workers.push(startModelWorker(jobs, processor, { concurrency: config.WORKER_CONCURRENCY, logger: app.log.child({ worker: 'ai.generate-model' }) }))
      workers.push(startWorkflowWorker(jobs, workflowProcessor, { concurrency: config.WORKER_CONCURRENCY, logger: app.log.child({ worker: 'ai.workflow-run' }) }))
    })
  }
  app.addHook('onClose', async () => {
    await Promise.all(workers.map((worker) => worker.close()))
    await store.close()
    await jobs.close()
  })
  return app
}
