import { createLocalJWKSet, createRemoteJWKSet, errors as joseErrors, jwtVerify, SignJWT, type JWTPayload, type JWTVerifyGetKey } from 'jose'
import { readPublicJwks, type SigningKeys } from './local-keys.js'
import { authErrors, type AuthUser, type TokenVerifier } from './token-verifier.js'

export interface LocalTokenOptions {
  issuer: string
  /** Audience of session tokens; custom tokens use `${audience}-custom-token` so neither passes for the other. */
  audience: string
  sessionTtlSeconds: number
  customTokenTtlSeconds?: number
}

const customAudience = (audience: string) => `${audience}-custom-token`

/** Signs session and custom tokens with the users service's Ed25519 key. */
export class LocalTokenIssuer {
  constructor(
    private readonly keys: SigningKeys,
    private readonly options: LocalTokenOptions,
  ) {}

  get jwks() {
    return { keys: [this.keys.publicJwk] }
  }

  get sessionTtlSeconds() {
    return this.options.sessionTtlSeconds
  }

  get customTokenTtlSeconds() {
    return this.options.customTokenTtlSeconds ?? 3600
  }

  async issueSessionToken(user: AuthUser): Promise<string> {
    return this.sign(user, this.options.audience, this.options.sessionTtlSeconds)
  }

  /** A short-lived token for one exchange at POST /token, like Firebase's custom tokens. */
  async issueCustomToken(user: AuthUser): Promise<string> {
    return this.sign(user, customAudience(this.options.audience), this.customTokenTtlSeconds)
  }

  /**
   * A short-lived session token for a worker acting for the user; the `act` claim names the worker,
   * as RFC 8693's actor claim does, so logs can tell its calls from the user's own.
   */
  async issueDelegatedToken(user: AuthUser, actor: string, ttlSeconds: number): Promise<string> {
    return this.sign(user, this.options.audience, ttlSeconds, { act: { sub: actor } })
  }

  /** Checks a custom token and returns the user it was issued for. */
  async verifyCustomToken(token: string): Promise<AuthUser> {
    return verifyLocalJwt(token, createLocalJWKSet(this.jwks), this.options.issuer, customAudience(this.options.audience))
  }

  private async sign(user: AuthUser, audience: string, ttlSeconds: number, extraClaims: Record<string, unknown> = {}): Promise<string> {
    return new SignJWT({ ...extraClaims, email: user.email, name: user.name, anonymous: user.anonymous })
      .setProtectedHeader({ alg: 'EdDSA', kid: this.keys.kid, typ: 'JWT' })
      .setIssuer(this.options.issuer)
      .setAudience(audience)
      .setSubject(user.uid)
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(this.keys.privateKey)
  }
}

async function verifyLocalJwt(token: string, getKey: JWTVerifyGetKey, issuer: string, audience: string): Promise<AuthUser> {
  let payload: JWTPayload
  try {
    // Only EdDSA: `alg: none` and HMAC tokens signed with the public key are refused here; and a
    // token without an expiry would be a credential for ever, so `exp` must be there.
    ;({ payload } = await jwtVerify(token, getKey, { issuer, audience, algorithms: ['EdDSA'], clockTolerance: 5, requiredClaims: ['exp'] }))
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw authErrors.expiredToken()
    throw authErrors.invalidToken()
  }
  if (typeof payload.sub !== 'string' || payload.sub === '') throw authErrors.invalidToken()
  return {
    uid: payload.sub,
    email: typeof payload.email === 'string' ? payload.email : null,
    name: typeof payload.name === 'string' ? payload.name : null,
    anonymous: payload.anonymous === true,
  }
}

export type LocalKeySource = { dataDir: string } | { jwksUrl: string }

/**
 * Verifies session tokens signed by the users service. Embedded, it reads the public key that
 * the users service wrote into DATA_DIR; scaled out, it fetches the service's JWKS over HTTP.
 */
export class LocalTokenVerifier implements TokenVerifier {
  readonly kind = 'local' as const
  private getKey: JWTVerifyGetKey | null = null

  constructor(
    private readonly source: LocalKeySource,
    private readonly options: Pick<LocalTokenOptions, 'issuer' | 'audience'>,
  ) {
    if ('jwksUrl' in source) this.getKey = createRemoteJWKSet(new URL(source.jwksUrl), { cooldownDuration: 30_000 })
  }

  async verify(token: string): Promise<AuthUser> {
    const getKey = await this.keyResolver()
    try {
      return await verifyLocalJwt(token, getKey, this.options.issuer, this.options.audience)
    } catch (error) {
      // The users service may have been given new keys since we read them: re-read once.
      if ('dataDir' in this.source && (error as { code?: string }).code === 'INVALID_TOKEN' && Date.now() - this.lastReloadAt > 5_000) {
        this.lastReloadAt = Date.now()
        const fresh = await this.keyResolver(true)
        if (fresh !== getKey) return verifyLocalJwt(token, fresh, this.options.issuer, this.options.audience)
      }
      throw error
    }
  }

  private async keyResolver(reload = false): Promise<JWTVerifyGetKey> {
    if ('jwksUrl' in this.source) return this.getKey as JWTVerifyGetKey
    if (this.getKey && !reload) return this.getKey
    const jwks = await readPublicJwks(this.source.dataDir)
    if (!jwks) {
      // No users service has started on this DATA_DIR yet, so no token can be valid.
      throw authErrors.invalidToken()
    }
    const serialized = JSON.stringify(jwks)
    if (reload && this.loadedJwks === serialized && this.getKey) return this.getKey
    this.loadedJwks = serialized
    this.getKey = createLocalJWKSet(jwks)
    return this.getKey
  }

  private loadedJwks: string | null = null
  private lastReloadAt = 0
}
