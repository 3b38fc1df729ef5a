import type { PlatformConfig } from '../config/config.js'
import { FirebaseTokenVerifier } from './firebase.js'
import { LocalTokenVerifier } from './local-tokens.js'
import type { TokenVerifier } from './token-verifier.js'
import { VerifiedTokenCache } from './verified-token-cache.js'

type VerifierConfig = Pick<
  PlatformConfig,
  'DATA_DIR' | 'FIREBASE_PROJECT_ID' | 'FIREBASE_AUTH_EMULATOR_HOST' | 'USERS_JWKS_URL' | 'TOKEN_ISSUER' | 'TOKEN_AUDIENCE'
>

/**
 * The same verifier in every service: Firebase when configured, else the users service's own keys;
 * tokens already verified are remembered until they expire.
 */
export function createTokenVerifier(config: VerifierConfig): TokenVerifier {
  if (config.FIREBASE_PROJECT_ID) {
    return new VerifiedTokenCache(new FirebaseTokenVerifier({ projectId: config.FIREBASE_PROJECT_ID, emulatorHost: config.FIREBASE_AUTH_EMULATOR_HOST }))
  }
  const source = config.USERS_JWKS_URL ? { jwksUrl: config.USERS_JWKS_URL } : { dataDir: config.DATA_DIR }
  return new VerifiedTokenCache(new LocalTokenVerifier(source, { issuer: config.TOKEN_ISSUER, audience: config.TOKEN_AUDIENCE }))
}
