import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { INTERNAL_USER_TOKEN_PATH } from '@finsheet/contracts'
import {
  createTokenVerifier,
  createUserTokenSource,
  HttpUserTokenSource,
  loadServiceSecret,
  signServiceToken,
  UnknownUserError,
  USER_TOKEN_AUDIENCE,
  UserTokenUnavailableError,
  type ServiceApp,
} from '@finsheet/platform'
import { loadUsersConfig } from './config.js'
import { createUsersService } from './service.js'
import { DELEGATED_TOKEN_SECONDS } from './identity/identity-provider.js'

const dir = mkdtempSync(join(tmpdir(), 'finsheet-users-internal-'))
let app: ServiceApp
let usersUrl: string

beforeAll(async () => {
  app = await createUsersService(loadUsersConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  usersUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await app?.close()
  rmSync(dir, { recursive: true, force: true })
})

async function register(email: string) {
  const response = await app.inject({ method: 'POST', url: '/register', payload: { email, password: 'amber-otter-42', fullName: 'Worker Owner' } })
  expect(response.statusCode).toBe(201)
  return response.json() as { token: string; user: { uid: string } }
}

const askForToken = (userId: string, authorization?: string) =>
  app.inject({ method: 'POST', url: INTERNAL_USER_TOKEN_PATH, payload: { userId }, headers: authorization ? { authorization } : {} })

describe('the internal user-token route', () => {
  it('gives a worker on the same DATA_DIR a five-minute token that every service accepts, naming the worker', async () => {
    const { user } = await register('owner@example.com')
    const source = await createUserTokenSource({ DATA_DIR: dir, USERS_URL: usersUrl }, 'files-worker')
    const token = await source.tokenFor(user.uid)
    const verified = await createTokenVerifier(loadUsersConfig({ DATA_DIR: dir })).verify(token)
    expect(verified).toEqual({ uid: user.uid, email: 'owner@example.com', name: 'Worker Owner', anonymous: false })
    const claims = decodeJwt(token)
    expect(claims.exp! - claims.iat!).toBe(DELEGATED_TOKEN_SECONDS)
    expect(claims.act).toEqual({ sub: 'files-worker' })
    // kept in memory while it has time left: the second job of the same user asks nothing
    expect(await source.tokenFor(user.uid)).toBe(token)
  })

  it('asks again once the kept token is near its end', async () => {
    const { user } = await register('clock@example.com')
    let now = Date.now()
    const source = new HttpUserTokenSource({ usersUrl, secret: await loadServiceSecret({ DATA_DIR: dir }), service: 'vectordb-worker', now: () => now })
    const first = await source.tokenFor(user.uid)
    now += (DELEGATED_TOKEN_SECONDS - 30) * 1000
    await new Promise((resolve) => setTimeout(resolve, 1100)) // a new iat, so a new token
    expect(await source.tokenFor(user.uid)).not.toBe(first)
  })

  it('refuses callers without a valid service token for that user', async () => {
    const { token: userToken, user } = await register('victim@example.com')
    const secret = await loadServiceSecret({ DATA_DIR: dir })
    const wrongSecret = new TextEncoder().encode('an-attacker-guessed-this-secret-of-forty-chars')
    const forOther = await signServiceToken(secret, { service: 'files-worker', audience: USER_TOKEN_AUDIENCE, userId: 'someone-else' })
    const wrongAudience = await signServiceToken(secret, { service: 'files-worker', audience: 'finsheet', userId: user.uid })
    const forged = await signServiceToken(wrongSecret, { service: 'files-worker', audience: USER_TOKEN_AUDIENCE, userId: user.uid })
    for (const authorization of [undefined, `Bearer ${userToken}`, `Bearer ${forOther}`, `Bearer ${wrongAudience}`, `Bearer ${forged}`, 'Basic abc']) {
      const response = await askForToken(user.uid, authorization)
      expect(response.statusCode, authorization).toBe(401)
      expect(response.json().error.code).toBe('SERVICE_UNAUTHENTICATED')
      expect(response.body).not.toMatch(/eyJ/)
    }
    const source = new HttpUserTokenSource({ usersUrl, secret: wrongSecret, service: 'files-worker' })
    await expect(source.tokenFor(user.uid)).rejects.toBeInstanceOf(UserTokenUnavailableError)
  })

  it('answers 404 for a user that does not exist, which fails a job for good', async () => {
    const source = await createUserTokenSource({ DATA_DIR: dir, USERS_URL: usersUrl }, 'files-worker')
    await expect(source.tokenFor('no-such-user')).rejects.toBeInstanceOf(UnknownUserError)
    const bad = await askForToken('', `Bearer ${await signServiceToken(await loadServiceSecret({ DATA_DIR: dir }), { service: 'x', audience: USER_TOKEN_AUDIENCE, userId: 'x' })}`)
    expect(bad.statusCode).toBe(400)
  })

  it('uses SERVICE_SECRET from the environment when services share no DATA_DIR', async () => {
    const otherDir = mkdtempSync(join(tmpdir(), 'finsheet-users-secret-'))
    const secret = 'a-service-secret-shared-through-the-environment'
    const users = await createUsersService(loadUsersConfig({ DATA_DIR: otherDir, SERVICE_SECRET: secret, LOG_LEVEL: 'silent' }))
    try {
      await users.listen({ port: 0, host: '127.0.0.1' })
      const url = `http://127.0.0.1:${(users.server.address() as AddressInfo).port}`
      const registered = (await users.inject({ method: 'POST', url: '/register', payload: { email: 'env@example.com', password: 'amber-otter-42', fullName: 'E' } })).json()
      const workerDir = mkdtempSync(join(tmpdir(), 'finsheet-worker-'))
      const shared = await createUserTokenSource({ DATA_DIR: workerDir, SERVICE_SECRET: secret, USERS_URL: url }, 'files-worker')
      expect(decodeJwt(await shared.tokenFor(registered.user.uid)).sub).toBe(registered.user.uid)
      // a worker with its own generated secret is not trusted
      const stranger = await createUserTokenSource({ DATA_DIR: workerDir, USERS_URL: url }, 'files-worker')
      await expect(stranger.tokenFor(registered.user.uid)).rejects.toBeInstanceOf(UserTokenUnavailableError)
      rmSync(workerDir, { recursive: true, force: true })
    } finally {
      await users.close()
      rmSync(otherDir, { recursive: true, force: true })
    }
  })
})
