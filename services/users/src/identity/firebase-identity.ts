import { randomUUID } from 'node:crypto'
import { authUserFromFirebase, firebaseAuth, type AuthUser } from '@finsheet/platform'
import type { Auth } from 'firebase-admin/auth'
import { usersErrors } from '../errors.js'
import { normalizeEmail, type AnonymousUserResult, type IdentityProvider, type SessionTokenResult } from './identity-provider.js'

export interface FirebaseIdentityOptions {
  projectId: string
  /** host:port of the Auth emulator, for tests and local runs. */
  emulatorHost?: string
  /** The project's Web API key, needed for password sign-in against the real service. */
  apiKey?: string
}

interface SignInResponse {
  idToken: string
  expiresIn: string
  localId: string
  email?: string
  displayName?: string
}

/** Custom tokens are exchanged within this time, as Firebase's own custom tokens are. */
const CUSTOM_TOKEN_SECONDS = 3600

/**
 * Accounts in Firebase Authentication: firebase-admin creates users and mints custom tokens, and
 * the Identity Toolkit REST API signs in with a password or a custom token to get an ID token.
 */
export class FirebaseIdentity implements IdentityProvider {
  readonly kind = 'firebase' as const
  private readonly authLoaded: Promise<Auth>

  constructor(private readonly options: FirebaseIdentityOptions) {
    this.authLoaded = firebaseAuth({ projectId: options.projectId, emulatorHost: options.emulatorHost })
    // Each use awaits it and reports its failure; this keeps an early failure from being unhandled.
    this.authLoaded.catch(() => undefined)
  }

  private endpoint(method: string): string {
    const base = this.options.emulatorHost ? `http://${this.options.emulatorHost}/identitytoolkit.googleapis.com` : 'https://identitytoolkit.googleapis.com'
    // The emulator accepts any key; the real service needs the project's Web API key.
    return `${base}/v1/accounts:${method}?key=${encodeURIComponent(this.options.apiKey ?? 'emulator-key')}`
  }

  private async signIn(method: 'signInWithPassword' | 'signInWithCustomToken', body: object): Promise<SignInResponse> {
    let response: Response
    try {
      response = await fetch(this.endpoint(method), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, returnSecureToken: true }),
        signal: AbortSignal.timeout(10_000),
      })
    } catch {
      throw usersErrors.identityUnavailable()
    }
    const payload = (await response.json().catch(() => ({}))) as SignInResponse & { error?: { message?: string } }
    if (!response.ok) {
      const reason = payload.error?.message ?? ''
      if (method === 'signInWithCustomToken') throw usersErrors.invalidCustomToken()
      if (/EMAIL_NOT_FOUND|INVALID_PASSWORD|INVALID_LOGIN_CREDENTIALS|USER_DISABLED|INVALID_EMAIL|MISSING_PASSWORD/.test(reason)) throw usersErrors.invalidCredentials()
      throw usersErrors.identityUnavailable()
    }
    return payload
  }

  /** The user as every service will see it: read from the ID token itself. */
  private async session(signedIn: SignInResponse): Promise<SessionTokenResult> {
    const user: AuthUser = authUserFromFirebase(await (await this.authLoaded).verifyIdToken(signedIn.idToken))
    return { token: signedIn.idToken, expiresIn: Number(signedIn.expiresIn) || 3600, user }
  }

  async register(input: { email: string; password: string; fullName: string }): Promise<SessionTokenResult> {
    const email = normalizeEmail(input.email)
    try {
      await (await this.authLoaded).createUser({ uid: randomUUID().replace(/-/g, ''), email, password: input.password, displayName: input.fullName.trim() })
    } catch (error) {
      const code = (error as { code?: string }).code
      if (code === 'auth/email-already-exists') throw usersErrors.emailInUse()
      if (code === 'auth/invalid-password') throw usersErrors.passwordTooShort()
      if (code === 'auth/invalid-email') throw usersErrors.invalidEmail()
      throw error
    }
    return this.session(await this.signIn('signInWithPassword', { email, password: input.password }))
  }

  async login(email: string, password: string): Promise<SessionTokenResult> {
    return this.session(await this.signIn('signInWithPassword', { email: normalizeEmail(email), password }))
  }

  async createAnonymousUser(): Promise<AnonymousUserResult> {
    const user = await (await this.authLoaded).createUser({})
    const customToken = await (await this.authLoaded).createCustomToken(user.uid, { anonymous: true })
    return { uid: user.uid, customToken, expiresIn: CUSTOM_TOKEN_SECONDS }
  }

  async exchangeCustomToken(customToken: string): Promise<SessionTokenResult> {
    return this.session(await this.signIn('signInWithCustomToken', { token: customToken }))
  }

  /**
   * Services verify Firebase ID tokens, not custom tokens, so the worker's token is an ID token:
   * a custom token minted for the user and exchanged at once. Firebase fixes an ID token's life at
   * an hour; the worker asks for one when its job runs and keeps it in memory only. The user is
   * looked up first, as signing in with a custom token for an unknown uid would create the user.
   */
  async issueDelegatedToken(userId: string, actor: string): Promise<{ token: string; expiresIn: number }> {
    let record: Awaited<ReturnType<Auth['getUser']>>
    try {
      record = await (await this.authLoaded).getUser(userId)
    } catch (error) {
      if ((error as { code?: string }).code === 'auth/user-not-found') throw usersErrors.userNotFound()
      throw usersErrors.identityUnavailable()
    }
    if (record.disabled) throw usersErrors.userNotFound()
    const anonymous = record.providerData.length === 0 && !record.email
    const customToken = await (await this.authLoaded).createCustomToken(userId, { act: { sub: actor }, ...(anonymous ? { anonymous: true } : {}) })
    let signedIn: SignInResponse
    try {
      signedIn = await this.signIn('signInWithCustomToken', { token: customToken })
    } catch {
      throw usersErrors.identityUnavailable()
    }
    return { token: signedIn.idToken, expiresIn: Number(signedIn.expiresIn) || CUSTOM_TOKEN_SECONDS }
  }

  jwks() {
    return null
  }

  async ping(): Promise<void> {
    await (await this.authLoaded).listUsers(1)
  }
}
