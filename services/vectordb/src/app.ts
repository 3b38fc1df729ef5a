import { createServiceApp, probe, type JobQueues, type VectorStore, type Logger, type ServiceApp, type TokenVerifier } from '@finsheet/platform'

export interface VectordbAppDependencies {
  verifier: TokenVerifier
  vectors: VectorStore
  jobs: JobQueues
  logger?: Logger | boolean
  /** Largest JSON body in bytes. */
  bodyLimit?: number
}

/** Embeddings, formula and cell search, workbook indexing. Builds the app from its dependencies; never listens. */
export async function buildVectordbApp(deps: VectordbAppDependencies): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'vectordb',
    description: 'Embeddings, formula and cell search, workbook indexing',
    publicPrefix: '/api/vectordb',
    verifier: deps.verifier,
    logger: deps.logger,
    bodyLimit: deps.bodyLimit,
    probes: [probe('vectors', deps.vectors), probe('jobs', deps.jobs)],
  })
  return app
}
