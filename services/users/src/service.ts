import {
  createDocumentStore,
  createTokenVerifier,
  dataDir,
  ensureSigningKeys,
  LocalTokenIssuer,
  loadServiceSecret,
  probe,
  signingKeysFromJwk,
  trustProxySetting,
  type Logger,
  type ServiceApp,
} from '@finsheet/platform'
import { buildUsersApp } from './app.js'
import { supportAdminEmails, type UsersConfig } from './config.js'
import { FirebaseIdentity } from './identity/firebase-identity.js'
import type { IdentityProvider } from './identity/identity-provider.js'
import { LocalIdentity } from './identity/local-identity.js'

/** Builds the users service from config: adapters chosen by env, closed with the app. */
export async function createUsersService(config: UsersConfig, options: { logger?: Logger | boolean } = {}): Promise<ServiceApp> {
  const store = await createDocumentStore(config, 'users')
  let identity: IdentityProvider
  if (config.FIREBASE_PROJECT_ID) {
    identity = new FirebaseIdentity({ projectId: config.FIREBASE_PROJECT_ID, emulatorHost: config.FIREBASE_AUTH_EMULATOR_HOST, apiKey: config.FIREBASE_API_KEY })
  } else {
    const keys = config.USERS_SIGNING_JWK ? await signingKeysFromJwk(config.USERS_SIGNING_JWK) : await ensureSigningKeys(dataDir(config))
    const issuer = new LocalTokenIssuer(keys, { issuer: config.TOKEN_ISSUER, audience: config.TOKEN_AUDIENCE, sessionTtlSeconds: config.TOKEN_TTL_SECONDS })
    identity = new LocalIdentity(store, issuer)
  }
  const app = await buildUsersApp({
    verifier: createTokenVerifier(config),
    identity,
    store,
    logger: options.logger,
    bodyLimit: config.BODY_LIMIT_BYTES,
    serviceSecret: await loadServiceSecret(config),
    supportAdminEmails: supportAdminEmails(config),
    trustProxy: trustProxySetting(config.TRUST_PROXY),
    signInLimits: {
      accountFailures: config.SIGN_IN_ACCOUNT_FAILURES,
      addressFailures: config.SIGN_IN_ADDRESS_FAILURES,
      windowMs: config.SIGN_IN_FAILURE_WINDOW_MS,
      lockoutMs: config.SIGN_IN_LOCKOUT_MS,
      maxLockoutMs: config.SIGN_IN_MAX_LOCKOUT_MS,
    },
    credentialQueue: {
      concurrency: config.SIGN_IN_CONCURRENCY,
      maxWaiting: config.SIGN_IN_MAX_WAITING,
      maxWaitingPerClient: config.SIGN_IN_MAX_WAITING_PER_ADDRESS,
      maxWaitMs: config.SIGN_IN_MAX_WAIT_MS,
    },
    probes: [probe('documents', store), { port: 'identity', adapter: identity.kind, check: () => identity.ping() }],
  })
  app.addHook('onClose', async () => {
    await store.close()
  })
  return app
}
