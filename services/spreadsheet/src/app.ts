import { createServiceApp, probe, type DocumentStore, type Logger, type ServiceApp, type TokenVerifier } from '@finsheet/platform'

export interface SpreadsheetAppDependencies {
  verifier: TokenVerifier
  store: DocumentStore
  logger?: Logger | boolean
}

/** Workbooks, sheets, cells, recalculation, history, undo/redo, export, versions and charts. Builds the app from its dependencies; never listens. */
export async function buildSpreadsheetApp(deps: SpreadsheetAppDependencies): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'spreadsheet',
    description: 'Workbooks, sheets, cells, recalculation, history, undo/redo, export, versions and charts',
    publicPrefix: '/api/spreadsheet',
    verifier: deps.verifier,
    logger: deps.logger,
    probes: [probe('documents', deps.store)],
  })
  return app
}
