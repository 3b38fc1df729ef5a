import { createServiceApp, type DocumentStore, type Logger, type ServiceApp, type StatusProbe, type TokenVerifier, type TrustProxy } from '@finsheet/platform'
import type { IdentityProvider } from './identity/identity-provider.js'
import { SignInAttemptLimiter, type SignInLimits } from './sign-in/attempt-limiter.js'
import { CredentialQueue, type CredentialQueueOptions } from './sign-in/credential-queue.js'
import { createProfileRepository } from './repositories/profile-repository.js'
import { createSessionRepository } from './repositories/session-repository.js'
import { accountRoutes } from './routes/account-routes.js'
import { sessionRoutes } from './routes/session-routes.js'
import { internalRoutes } from './routes/internal-routes.js'
import { createSupportRepository } from './repositories/support-repository.js'
import { supportRoutes } from './routes/support-routes.js'

export interface UsersAppDependencies {
  verifier: TokenVerifier
  identity: IdentityProvider
  store: DocumentStore
  logger?: Logger | boolean
  bodyLimit?: number
  /** Who may state the client's address (the gateway): sign-in limits are kept per address. */
  trustProxy?: TrustProxy
  /** Failed sign-in limits and lockouts; defaults in DEFAULT_SIGN_IN_LIMITS. */
  signInLimits?: Partial<SignInLimits>
  /** Bounds of the password-check queue; defaults in DEFAULT_CREDENTIAL_QUEUE. */
  credentialQueue?: Partial<CredentialQueueOptions>
  probes?: StatusProbe[]
  /** The secret other services sign their calls to the internal routes with. */
  serviceSecret: Uint8Array
  /** Emails of the people who may list Help & Support requests. */
  supportAdminEmails?: readonly string[]
}

/** Accounts, tokens, anonymous users and spreadsheet sessions. Builds the app; never listens. */
export async function buildUsersApp(deps: UsersAppDependencies): Promise<ServiceApp> {
  const app = await createServiceApp({
    name: 'users',
    description: 'Accounts, sign-in, anonymous users and spreadsheet sessions',
    publicPrefix: '/api/users',
    verifier: deps.verifier,
    logger: deps.logger,
    bodyLimit: deps.bodyLimit,
    trustProxy: deps.trustProxy,
    probes: deps.probes,
  })
  const profiles = createProfileRepository(deps.store)
  const sessions = createSessionRepository(deps.store)
  const attempts = new SignInAttemptLimiter(deps.store, deps.signInLimits)
  const credentials = new CredentialQueue(deps.credentialQueue)
  accountRoutes(app, { identity: deps.identity, profiles, attempts, credentials })
  sessionRoutes(app, { sessions, profiles })
  internalRoutes(app, { identity: deps.identity, serviceSecret: deps.serviceSecret })
  supportRoutes(app, { support: createSupportRepository(deps.store), adminEmails: new Set((deps.supportAdminEmails ?? []).map((email) => email.trim().toLowerCase())) })
  return app
}
