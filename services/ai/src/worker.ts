// The ai.generate-model and ai.workflow-run workers on their own (docker compose's ai-worker): the
// same processors the embedded service runs in-process, fed by BullMQ when REDIS_URL is set.
import { utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { GENERATE_MODEL_QUEUE, WORKFLOW_RUN_QUEUE } from '@finsheet/contracts'
import { createDocumentStore, createJobQueues, createLogger, createUserTokenSource, exitOnConfigError } from '@finsheet/platform'
import { createAgentServices } from './app.js'
import { createSpreadsheetClient } from './clients/spreadsheet-client.js'
import { loadAiConfig, type AiConfig } from './config.js'
import { FinancialModelGenerator } from './models/financial-model-generator.js'
import { createModelProcessor, startModelWorker } from './models/model-jobs.js'
import { createPlannerProvider } from './planner/index.js'
import { modelRegistryFromConfig } from './providers/model-registry.js'
import { createWorkflowProcessor, startWorkflowWorker } from './workflows/workflow-runner.js'
import { createWorkflowStore } from './workflows/workflow-store.js'

let config: AiConfig
try {
  config = loadAiConfig()
} catch (error) {
  exitOnConfigError(error)
}
const logger = createLogger('ai-worker', config.LOG_LEVEL)
const jobs = await createJobQueues(config)
const store = await createDocumentStore(config, 'ai')
const userTokens = await createUserTokenSource(config, 'ai-worker')
const processor = createModelProcessor({ spreadsheet: createSpreadsheetClient(config.SPREADSHEET_URL), userTokens })
// Workflow runs carry out agent-mode commands: the same services the ai service builds for them.
const services = createAgentServices(
  {
    store,
    jobs,
    models: (serviceLogger) => modelRegistryFromConfig(config, { logger: serviceLogger }),
    spreadsheetUrl: config.SPREADSHEET_URL,
    filesUrl: config.FILES_URL,
    dailyTokenLimit: config.AI_DAILY_TOKEN_LIMIT,
    agentDeadlineMs: config.AI_AGENT_DEADLINE_MS,
    agentTokenBudget: config.AI_AGENT_TOKEN_BUDGET,
    modelGenerator: (parts) => new FinancialModelGenerator({ ...parts, waitMs: config.AI_MODEL_WAIT_MS }),
    localAgentProvider: createPlannerProvider(),
  },
  logger,
)
const workers = [
  startModelWorker(jobs, processor, { concurrency: config.WORKER_CONCURRENCY, logger }),
  startWorkflowWorker(jobs, createWorkflowProcessor({ workflows: createWorkflowStore(store), services, userTokens }), { concurrency: config.WORKER_CONCURRENCY, logger }),
]
logger.info({ queues: [GENERATE_MODEL_QUEUE, WORKFLOW_RUN_QUEUE], adapter: jobs.adapter }, 'ai worker started')

// The container health check reads this file's age: it is touched while the queue answers.
const heartbeatFile = config.WORKER_HEARTBEAT_FILE ?? join(tmpdir(), 'worker-heartbeat')
const beat = async () => {
  try {
    await jobs.ping()
    const now = new Date()
    await utimes(heartbeatFile, now, now).catch(() => writeFile(heartbeatFile, ''))
  } catch (error) {
    logger.warn({ err: error }, 'job queue did not answer')
  }
}
await beat()
const heartbeat = setInterval(() => void beat(), 10_000)

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (stopping) return
    stopping = true
    clearInterval(heartbeat)
    logger.info('ai worker stopping')
    const force = setTimeout(() => process.exit(1), 30_000)
    force.unref()
    void (async () => {
      await Promise.all(workers.map((worker) => worker.close()))
      await jobs.close()
      await store.close()
      process.exit(0)
    })()
  })
}
