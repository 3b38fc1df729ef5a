import { createServiceApp, probe, type DocumentStore, type JobQueues, type Logger, type ServiceApp, type TokenVerifier } from '@finsheet/platform'

export interface AiAppDependencies {
  verifier: TokenVerifier
  store: DocumentStore
  jobs: JobQueues
  logger?: Logger | boolean
}

/** Chat, agent tool calls, model list, formula help, document analysis and model generation. Builds the app from its dependencies; never listens. */
export async function buildAiApp(deps: AiAppDependencies): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'ai',
    description: 'Chat, agent tool calls, model list, formula help, document analysis and model generation',
    publicPrefix: '/api/ai',
    verifier: deps.verifier,
    logger: deps.logger,
    probes: [probe('documents', deps.store), probe('jobs', deps.jobs)],
  })
  return app
}
