import { Type } from 'typebox'
import {
  CreateAnonymousUserBody,
  CreateAnonymousUserResponse,
  ErrorBody,
  LoginBody,
  MIN_PASSWORD_LENGTH,
  RegisterBody,
  SessionTokenResponse,
  TokenExchangeBody,
  UserProfile,
} from '@finsheet/contracts'
import { currentUser, errorResponses, isAppError, type ServiceApp } from '@finsheet/platform'
import { usersErrors } from '../errors.js'
import { normalizeEmail, type IdentityProvider } from '../identity/identity-provider.js'
import { weakPasswordReason } from '../identity/password-policy.js'
import type { ProfileRepository } from '../repositories/profile-repository.js'
import type { SignInAttemptLimiter } from '../sign-in/attempt-limiter.js'
import { CredentialQueueRefused, type CredentialPriority, type CredentialQueue } from '../sign-in/credential-queue.js'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const blank = (value: string | undefined) => value === undefined || value.trim() === ''

export interface AccountRoutesDependencies {
  identity: IdentityProvider
  profiles: ProfileRepository
  attempts: SignInAttemptLimiter
  credentials: CredentialQueue
}

export function accountRoutes(app: ServiceApp, deps: AccountRoutesDependencies) {
  const { identity, profiles, attempts, credentials } = deps
  const open = { public: true }

  /** Runs password work in its turn; a full queue answers at once instead of waiting without end. */
  const inTurn = async <T>(address: string, priority: CredentialPriority, work: () => Promise<T>): Promise<T> => {
    try {
      return await credentials.run(address, priority, work)
    } catch (error) {
      if (error instanceof CredentialQueueRefused) throw error.reason === 'tooMany' ? usersErrors.tooManySignInsAtOnce() : usersErrors.signInBusy()
      throw error
    }
  }

  /** The account's and the address's standing; a lockout refuses the attempt before any password is checked. */
  const admit = async (email: string, address: string) => {
    const gate = await attempts.gate(email, address)
    if (gate.lockedForMs !== null) throw usersErrors.signInLocked(gate.lockedForMs)
    return gate
  }

  app.post(
    '/register',
    {
      config: open,
      schema: {
        tags: ['accounts'],
        summary: 'Create an account with email and password; answers with a session token',
        security: [],
        body: Type.Partial(RegisterBody),
        response: { 201: SessionTokenResponse, 400: ErrorBody, 409: ErrorBody, 429: ErrorBody, 503: ErrorBody },
      },
    },
    async (request, reply) => {
      const { email, password, fullName } = request.body
      if (blank(email) || blank(password) || blank(fullName)) throw usersErrors.missingFields()
      if (!EMAIL.test(email!.trim())) throw usersErrors.invalidEmail()
      if (password!.length < MIN_PASSWORD_LENGTH) throw usersErrors.passwordTooShort()
      const weakness = weakPasswordReason(password!, [email!, fullName!])
      if (weakness) throw usersErrors.passwordTooWeak(weakness)
      // Hashing the new password is the same scrypt work as checking one, so it waits in the same line.
      const session = await inTurn(request.ip, 'first', () => identity.register({ email: email!, password: password!, fullName: fullName! }))
      await profiles.put({ uid: session.user.uid, email: session.user.email, fullName: fullName!.trim(), anonymous: false, preferences: {}, createdAt: new Date().toISOString() })
      return reply.status(201).send(session)
    },
  )

  app.post(
    '/login',
    {
      config: open,
      schema: {
        tags: ['accounts'],
        summary: 'Sign in with email and password; answers with a session token',
        security: [],
        body: Type.Partial(LoginBody),
        response: { 200: SessionTokenResponse, 400: ErrorBody, 401: ErrorBody, 429: ErrorBody, 503: ErrorBody },
      },
    },
    async (request) => {
      const { email, password } = request.body
      if (blank(email) || blank(password)) throw usersErrors.missingFields()
      const account = normalizeEmail(email!)
      const { suspect } = await admit(account, request.ip)
      return inTurn(request.ip, suspect ? 'later' : 'first', async () => {
        // A lockout may have begun while this attempt waited for its turn.
        await admit(account, request.ip)
        try {
          const session = await identity.login(account, password!)
          await attempts.succeeded(account)
          return session
        } catch (error) {
          if (isAppError(error) && error.code === usersErrors.invalidCredentials().code) {
            const lockedForMs = await attempts.failed(account, request.ip)
            if (lockedForMs !== null) throw usersErrors.signInLocked(lockedForMs)
          }
          throw error
        }
      })
    },
  )

  app.post(
    '/create-anonymous-user',
    {
      config: open,
      schema: {
        tags: ['accounts'],
        summary: 'Create an anonymous user; the custom token it returns is exchanged at POST /token for a session token',
        security: [],
        body: CreateAnonymousUserBody,
        response: { 201: CreateAnonymousUserResponse, 400: ErrorBody, 503: ErrorBody },
      },
    },
    async (request, reply) => {
      const created = await identity.createAnonymousUser()
      await profiles.put({ uid: created.uid, email: null, fullName: null, anonymous: true, preferences: request.body.preferences ?? {}, createdAt: new Date().toISOString() })
      return reply.status(201).send(created)
    },
  )

  app.post(
    '/token',
    {
      config: open,
      schema: {
        tags: ['accounts'],
        summary: 'Exchange a custom token (from create-anonymous-user) for a session token',
        description: 'The custom token is short-lived and only good for this exchange; it is not accepted as a bearer token.',
        security: [],
        body: TokenExchangeBody,
        response: { 200: SessionTokenResponse, 400: ErrorBody, 401: ErrorBody, 503: ErrorBody },
      },
    },
    async (request) => identity.exchangeCustomToken(request.body.customToken),
  )

  app.get(
    '/me',
    { schema: { tags: ['accounts'], summary: "The signed-in user's profile", response: { 200: UserProfile, ...errorResponses } } },
    async (request) => {
      const user = currentUser(request)
      const profile = await profiles.get(user.uid)
      if (profile) return profile
      // Signed up elsewhere (the Firebase SDK): the profile starts from the token.
      const created = { uid: user.uid, email: user.email, fullName: user.name, anonymous: user.anonymous, preferences: {}, createdAt: new Date().toISOString() }
      await profiles.put(created)
      return created
    },
  )

  const jwks = identity.jwks()
  if (jwks) {
    app.get(
      '/.well-known/jwks.json',
      {
        config: open,
        schema: {
          tags: ['accounts'],
          summary: 'Public keys session tokens are signed with, for services that verify them',
          security: [],
          response: { 200: Type.Object({ keys: Type.Array(Type.Record(Type.String(), Type.Unknown())) }) },
        },
      },
      async () => jwks,
    )
  }
}
