import { decodeJwt } from 'jose'
import type { AuthUser, TokenVerifier } from './token-verifier.js'

export interface VerifiedTokenCacheOptions {
  /** Most tokens remembered; the least recently used goes first. */
  maxEntries?: number
  /** Longest a verified token is trusted without checking its signature again, in ms. */
  maxAgeMs?: number
  now?: () => number
}

interface Entry {
  user: AuthUser
  /** When the entry stops counting: the token's expiry or the cache's own limit, whichever is first. */
  until: number
}

/**
 * Remembers tokens whose signature has been checked, until they expire. A client sends the same
 * session token with every request, and checking an Ed25519 signature (a crypto job on the thread
 * pool) costs more than the rest of the gateway's work on a cell edit, twice over since the service
 * behind it checks again. Only successful verifications are kept: a bad or expired token is checked
 * in full every time, and a token stops being accepted from the cache the moment it expires.
 */
export class VerifiedTokenCache implements TokenVerifier {
  private readonly entries = new Map<string, Entry>()
  private readonly maxEntries: number
  private readonly maxAgeMs: number
  private readonly now: () => number

  constructor(
    private readonly verifier: TokenVerifier,
    options: VerifiedTokenCacheOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 10_000
    this.maxAgeMs = options.maxAgeMs ?? 5 * 60_000
    this.now = options.now ?? Date.now
  }

  get kind() {
    return this.verifier.kind
  }

  async verify(token: string): Promise<AuthUser> {
    const now = this.now()
    const cached = this.entries.get(token)
    if (cached) {
      this.entries.delete(token)
      if (cached.until > now) {
        this.entries.set(token, cached)
        return cached.user
      }
    }
    const user = await this.verifier.verify(token)
    const expiresAt = expiryOf(token)
    if (expiresAt !== null && expiresAt > now) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string)
      this.entries.set(token, { user, until: Math.min(expiresAt, now + this.maxAgeMs) })
    }
    return user
  }
}

/** The `exp` of a token already verified, in ms; null when it has none, so it is never cached. */
function expiryOf(token: string): number | null {
  try {
    const { exp } = decodeJwt(token)
    return typeof exp === 'number' ? exp * 1000 : null
  } catch {
    return null
  }
}
