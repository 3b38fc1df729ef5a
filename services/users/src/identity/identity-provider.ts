import type { AuthUser } from '@finsheet/platform'

export interface SessionTokenResult {
  token: string
  /** Seconds until the token expires. */
  expiresIn: number
  user: AuthUser
}

export interface AnonymousUserResult {
  uid: string
  customToken: string
  expiresIn: number
}

/**
 * Accounts and tokens. Local: accounts in the users database, scrypt hashes, EdDSA JWTs.
 * Firebase: Firebase Authentication holds the accounts and issues the tokens.
 */
export interface IdentityProvider {
  readonly kind: 'local' | 'firebase'
  register(input: { email: string; password: string; fullName: string }): Promise<SessionTokenResult>
  login(email: string, password: string): Promise<SessionTokenResult>
  createAnonymousUser(): Promise<AnonymousUserResult>
  exchangeCustomToken(customToken: string): Promise<SessionTokenResult>
  /**
   * A token every service accepts for this user, for a worker acting for them (named by `actor`);
   * it lives DELEGATED_TOKEN_SECONDS where the provider lets us choose. Throws USER_NOT_FOUND for
   * an unknown user.
   */
  issueDelegatedToken(userId: string, actor: string): Promise<{ token: string; expiresIn: number }>
  /** The public keys session tokens are signed with (local mode only). */
  jwks(): { keys: Array<Record<string, unknown>> } | null
  ping(): Promise<void>
}

/** How long a worker's token for a user lives: long enough for one job's calls, short enough to be worthless later. */
export const DELEGATED_TOKEN_SECONDS = 300

export const normalizeEmail = (email: string) => email.trim().toLowerCase()
