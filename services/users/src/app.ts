import { createServiceApp, type DocumentStore, type Logger, type ServiceApp, type StatusProbe, type TokenVerifier } from '@finsheet/platform'
import type { IdentityProvider } from './identity/identity-provider.js'
import { createProfileRepository } from './repositories/profile-repository.js'
import { createSessionRepository } from './repositories/session-repository.js'
import { accountRoutes } from './routes/account-routes.js'
import { sessionRoutes } from './routes/session-routes.js'
import { internalRoutes } from './routes/internal-routes.js'

export interface UsersAppDependencies {
  verifier: TokenVerifier
  identity: IdentityProvider
  store: DocumentStore
  logger?: Logger | boolean
  bodyLimit?: number
  probes?: StatusProbe[]
  /** The secret other services sign their calls to the internal routes with. */
  serviceSecret: Uint8Array
}

/** Accounts, tokens, anonymous users and spreadsheet sessions. Builds the app; never listens. */
export async function buildUsersApp(deps: UsersAppDependencies): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'users',
    description: 'Accounts, sign-in, anonymous users and spreadsheet sessions',
    publicPrefix: '/api/users',
    verifier: deps.verifier,
    logger: deps.logger,
    bodyLimit: deps.bodyLimit ?? 10 * 1024 * 1024,
    probes: deps.probes,
  })
  const profiles = createProfileRepository(deps.store)
  const sessions = createSessionRepository(deps.store)
  accountRoutes(app, { identity: deps.identity, profiles })
  sessionRoutes(app, { sessions, profiles })
  internalRoutes(app, { identity: deps.identity, serviceSecret: deps.serviceSecret })
  return app
}
