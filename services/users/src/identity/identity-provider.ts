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
  /** The public keys session tokens are signed with (local mode only). */
  jwks(): { keys: Array<Record<string, unknown>> } | null
  ping(): Promise<void>
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase()
