import { randomUUID } from 'node:crypto'
import { DuplicateKeyError, type AuthUser, type DocumentStore, type LocalTokenIssuer } from '@finsheet/platform'
import { usersErrors } from '../errors.js'
import { decoyHash, hashPassword, verifyPassword } from './passwords.js'
import { DELEGATED_TOKEN_SECONDS, normalizeEmail, type AnonymousUserResult, type IdentityProvider, type SessionTokenResult } from './identity-provider.js'

interface Account {
  id: string
  /** Lower-cased; null for anonymous users. */
  email: string | null
  passwordHash: string | null
  fullName: string | null
  anonymous: boolean
  createdAt: string
}

export const ACCOUNTS = 'accounts'

export class LocalIdentity implements IdentityProvider {
  readonly kind = 'local' as const

  constructor(
    private readonly store: DocumentStore,
    private readonly issuer: LocalTokenIssuer,
  ) {}

  private get accounts() {
    return this.store.collection<Account>(ACCOUNTS, { indexes: [{ fields: ['email'], unique: true, sparse: true }] })
  }

  private async session(user: AuthUser): Promise<SessionTokenResult> {
    return { token: await this.issuer.issueSessionToken(user), expiresIn: this.issuer.sessionTtlSeconds, user }
  }

  async register(input: { email: string; password: string; fullName: string }): Promise<SessionTokenResult> {
    const email = normalizeEmail(input.email)
    const account: Account = {
      id: randomUUID(),
      email,
      passwordHash: await hashPassword(input.password),
      fullName: input.fullName.trim(),
      anonymous: false,
      createdAt: new Date().toISOString(),
    }
    try {
      await this.accounts.insert(account)
    } catch (error) {
      if (error instanceof DuplicateKeyError) throw usersErrors.emailInUse()
      throw error
    }
    return this.session({ uid: account.id, email, name: account.fullName, anonymous: false })
  }

  async login(email: string, password: string): Promise<SessionTokenResult> {
    const account = await this.accounts.findOne({ email: normalizeEmail(email), anonymous: false })
    const matches = await verifyPassword(password, account?.passwordHash ?? (await decoyHash()))
    if (!account || !matches) throw usersErrors.invalidCredentials()
    return this.session({ uid: account.id, email: account.email, name: account.fullName, anonymous: false })
  }

  async createAnonymousUser(): Promise<AnonymousUserResult> {
    const account: Account = { id: randomUUID(), email: null, passwordHash: null, fullName: null, anonymous: true, createdAt: new Date().toISOString() }
    await this.accounts.insert(account)
    const customToken = await this.issuer.issueCustomToken({ uid: account.id, email: null, name: null, anonymous: true })
    return { uid: account.id, customToken, expiresIn: this.issuer.customTokenTtlSeconds }
  }

  async exchangeCustomToken(customToken: string): Promise<SessionTokenResult> {
    let claimed: AuthUser
    try {
      claimed = await this.issuer.verifyCustomToken(customToken)
    } catch {
      throw usersErrors.invalidCustomToken()
    }
    const account = await this.accounts.get(claimed.uid)
    if (!account) throw usersErrors.invalidCustomToken()
    return this.session({ uid: account.id, email: account.email, name: account.fullName, anonymous: account.anonymous })
  }

  async issueDelegatedToken(userId: string, actor: string): Promise<{ token: string; expiresIn: number }> {
    const account = await this.accounts.get(userId)
    if (!account) throw usersErrors.userNotFound()
    const user: AuthUser = { uid: account.id, email: account.email, name: account.fullName, anonymous: account.anonymous }
    return { token: await this.issuer.issueDelegatedToken(user, actor, DELEGATED_TOKEN_SECONDS), expiresIn: DELEGATED_TOKEN_SECONDS }
  }

  jwks() {
    return this.issuer.jwks as { keys: Array<Record<string, unknown>> }
  }

  async ping(): Promise<void> {
    await this.store.ping()
  }
}
