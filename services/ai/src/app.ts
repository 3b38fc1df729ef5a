import { DEFAULT_UPLOAD_LIMIT_BYTES } from '@finsheet/contracts'
import { documentRoutes } from './routes/document-routes.js'
import { createServiceApp, probe, type DocumentStore, type JobQueues, type Logger, type ServiceApp, type TokenVerifier } from '@finsheet/platform'

export interface AiAppDependencies {
  verifier: TokenVerifier
  store: DocumentStore
  jobs: JobQueues
  logger?: Logger | boolean
  /** Largest document processDocument and analyze-document take, in bytes. Default 50 MB. */
  documentLimitBytes?: number
  /** Largest JSON body in bytes. */
  bodyLimit?: number
}

/** Chat, agent tool calls, model list, formula help, document analysis and model generation. Builds the app from its dependencies; never listens. */
export async function buildAiApp(deps: AiAppDependencies): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'ai',
    description: 'Chat, agent tool calls, model list, formula help, document analysis and model generation',
    publicPrefix: '/api/ai',
    verifier: deps.verifier,
    logger: deps.logger,
    bodyLimit: deps.bodyLimit,
    probes: [probe('documents', deps.store), probe('jobs', deps.jobs)],
  })
  await app.register(documentRoutes, { limitBytes: deps.documentLimitBytes ?? DEFAULT_UPLOAD_LIMIT_BYTES })
  return app
}
