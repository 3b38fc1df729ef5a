import { INTERNAL_USER_TOKEN_PATH, type UserTokenResponse } from '@finsheet/contracts'
import { UnrecoverableJobError } from '../jobs/port.js'
import { loadServiceSecret, signServiceToken, type ServiceSecretConfig } from './service-credentials.js'

/**
 * Where a worker gets a bearer token for the user a job belongs to. Jobs carry the user id only:
 * a token stored with a job would be a credential at rest in Redis or SQLite, and would expire
 * (a Firebase ID token after an hour) before a retried job runs. The worker asks when the job runs.
 */
export interface UserTokenSource {
  /** A token for this user, valid for a few minutes at least. */
  tokenFor(userId: string): Promise<string>
}

/** The audience of the service tokens the users service's internal token route accepts. */
export const USER_TOKEN_AUDIENCE = 'finsheet-users:user-token'

/** The user no longer exists: a job acting for them cannot succeed, however often it is retried. */
export class UnknownUserError extends UnrecoverableJobError {
  constructor(userId: string) {
    super(`The user ${userId} no longer exists`)
    this.name = 'UnknownUserError'
  }
}

/** The users service did not answer or failed: the job is retried later. */
export class UserTokenUnavailableError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UserTokenUnavailableError'
  }
}

export interface HttpUserTokenSourceOptions {
  /** The users service's base URL (USERS_URL). */
  usersUrl: string
  /** The shared service secret (see loadServiceSecret). */
  secret: Uint8Array
  /** The calling service's name, for the users service's logs: files-worker, vectordb-worker, ... */
  service: string
  /** A cached token is handed out while it has at least this long to live. Default 60 s. */
  minRemainingMs?: number
  timeoutMs?: number
  now?: () => number
}

/**
 * Asks the users service's internal route for a user's token, proving it is a Finsheet service with
 * a service token, and keeps each answer in memory (never on disk) while it has time left, so a
 * worker running many jobs for one user asks once every few minutes.
 */
export class HttpUserTokenSource implements UserTokenSource {
  private readonly cache = new Map<string, { token: string; expiresAt: number }>()
  private readonly pending = new Map<string, Promise<string>>()
  private readonly minRemainingMs: number
  private readonly now: () => number

  constructor(private readonly options: HttpUserTokenSourceOptions) {
    this.minRemainingMs = options.minRemainingMs ?? 60_000
    this.now = options.now ?? Date.now
  }

  async tokenFor(userId: string): Promise<string> {
    const cached = this.cache.get(userId)
    if (cached && cached.expiresAt - this.now() > this.minRemainingMs) return cached.token
    let request = this.pending.get(userId)
    if (!request) {
      request = this.fetchToken(userId).finally(() => this.pending.delete(userId))
      this.pending.set(userId, request)
    }
    return request
  }

  private async fetchToken(userId: string): Promise<string> {
    const serviceToken = await signServiceToken(this.options.secret, { service: this.options.service, audience: USER_TOKEN_AUDIENCE, userId })
    let response: Response
    try {
      response = await fetch(new URL(INTERNAL_USER_TOKEN_PATH, this.options.usersUrl), {
        method: 'POST',
        headers: { authorization: `Bearer ${serviceToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ userId }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
      })
    } catch (error) {
      throw new UserTokenUnavailableError(`The users service could not be reached: ${(error as Error).message}`)
    }
    const answer = (await response.json().catch(() => null)) as (Partial<UserTokenResponse> & { error?: { message?: string } }) | null
    if (response.status === 404) throw new UnknownUserError(userId)
    if (!response.ok || typeof answer?.token !== 'string' || typeof answer.expiresIn !== 'number') {
      // A 401 means the services disagree on the secret: a configuration fault that retrying may outlast.
      throw new UserTokenUnavailableError(`The users service gave no token (status ${response.status}${answer?.error?.message ? `: ${answer.error.message}` : ''})`)
    }
    this.cache.set(userId, { token: answer.token, expiresAt: this.now() + answer.expiresIn * 1000 })
    if (this.cache.size > 10_000) this.cache.delete(this.cache.keys().next().value as string)
    return answer.token
  }
}

/** The token source a worker of `service` uses: USERS_URL and the shared secret from config. */
export async function createUserTokenSource(config: ServiceSecretConfig & { USERS_URL: string }, service: string): Promise<UserTokenSource> {
  return new HttpUserTokenSource({ usersUrl: config.USERS_URL, secret: await loadServiceSecret(config), service })
}
