import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AddressInfo } from 'node:net'
import { createTokenVerifier, createUserTokenSource, UnknownUserError, type ServiceApp } from '@finsheet/platform'
import { startFirebaseAuthEmulator, type FirebaseAuthEmulator } from '@finsheet/platform/testing'
import { loadUsersConfig } from './config.js'
import { createUsersService } from './service.js'

// The same routes, backed by Firebase Authentication: the firebase-tools emulator stands in for it.
const dir = mkdtempSync(join(tmpdir(), 'finsheet-users-firebase-'))
let emulator: FirebaseAuthEmulator
let app: ServiceApp

beforeAll(async () => {
  emulator = await startFirebaseAuthEmulator('demo-finsheet')
  app = await createUsersService(loadUsersConfig({ DATA_DIR: dir, FIREBASE_PROJECT_ID: emulator.projectId, FIREBASE_AUTH_EMULATOR_HOST: emulator.host }))
}, 90_000)
afterAll(async () => {
  await app?.close()
  await emulator?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const post = (url: string, payload: unknown, token?: string) =>
  app.inject({ method: 'POST', url, payload: payload as object, headers: token ? { authorization: `Bearer ${token}` } : {} })
const get = (url: string, token?: string) => app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} })

describe('users service in Firebase mode (Auth emulator)', () => {
  it('registers in Firebase Authentication and answers an ID token every service accepts', async () => {
    const response = await post('/register', { email: 'Fire@Example.com', password: 'amber-otter-42', fullName: 'Fi Re' })
    expect(response.statusCode).toBe(201)
    const { token, user } = response.json()
    expect(user).toMatchObject({ email: 'fire@example.com', name: 'Fi Re', anonymous: false })
    const me = await get('/me', token)
    expect(me.statusCode).toBe(200)
    expect(me.json()).toMatchObject({ uid: user.uid, fullName: 'Fi Re' })
    const duplicate = await post('/register', { email: 'fire@example.com', password: 'violet-heron-7', fullName: 'X' })
    expect(duplicate.statusCode).toBe(409)
  })

  it('logs in with the password and refuses a wrong one', async () => {
    await post('/register', { email: 'login@example.com', password: 'amber-otter-42', fullName: 'Log In' })
    const login = await post('/login', { email: 'login@example.com', password: 'amber-otter-42' })
    expect(login.statusCode).toBe(200)
    expect(login.json().user).toMatchObject({ email: 'login@example.com', name: 'Log In' })
    expect((await get('/me', login.json().token)).statusCode).toBe(200)
    const wrong = await post('/login', { email: 'login@example.com', password: 'nope123' })
    expect(wrong.statusCode).toBe(401)
    expect(wrong.json().error.message).toBe('Invalid email or password')
    expect((await post('/login', { email: 'ghost@example.com', password: 'amber-otter-42' })).statusCode).toBe(401)
  })

  it('creates an anonymous user whose Firebase custom token is exchanged for an ID token', async () => {
    const created = await post('/create-anonymous-user', { preferences: { locale: 'en-GB' } })
    expect(created.statusCode).toBe(201)
    const exchanged = await post('/token', { customToken: created.json().customToken })
    expect(exchanged.statusCode).toBe(200)
    expect(exchanged.json().user).toMatchObject({ uid: created.json().uid, anonymous: true })
    expect((await get('/me', exchanged.json().token)).json()).toMatchObject({ anonymous: true, preferences: { locale: 'en-GB' } })
    expect((await post('/token', { customToken: 'not-a-token' })).statusCode).toBe(401)
  })

  it('keeps sessions per user: load-or-create, save, and 404 for anyone else', async () => {
    const a = (await post('/register', { email: 'sa@example.com', password: 'amber-otter-42', fullName: 'A' })).json()
    const b = (await post('/register', { email: 'sb@example.com', password: 'amber-otter-42', fullName: 'B' })).json()
    const session = (await post('/spreadsheet-session/load-or-create', {}, a.token)).json().session
    expect(session).toMatchObject({ id: a.user.uid, role: 'admin', activeWorkbook: 'defaultWorkbook' })
    expect((await post('/spreadsheet-session', { session: { ...session, id: undefined } }, a.token)).statusCode).toBe(400)
    expect((await post('/spreadsheet-session', { session: { ...session, role: 'editor' } }, a.token)).json().session.role).toBe('editor')
    expect((await get(`/spreadsheet-session?userId=${a.user.uid}`, b.token)).statusCode).toBe(404)
    expect((await get('/spreadsheet-session/current', a.token)).json().session.role).toBe('editor')
  })

  it('gives a worker an ID token for the user (a custom token exchanged at once) that services verify', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' })
    const usersUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    const source = await createUserTokenSource({ DATA_DIR: dir, USERS_URL: usersUrl }, 'vectordb-worker')
    const registered = (await post('/register', { email: 'job@example.com', password: 'amber-otter-42', fullName: 'Job Owner' })).json()
    const token = await source.tokenFor(registered.user.uid)
    const verifier = createTokenVerifier(loadUsersConfig({ DATA_DIR: dir, FIREBASE_PROJECT_ID: emulator.projectId, FIREBASE_AUTH_EMULATOR_HOST: emulator.host }))
    expect(await verifier.verify(token)).toMatchObject({ uid: registered.user.uid, email: 'job@example.com', anonymous: false })
    expect((await get('/me', token)).json()).toMatchObject({ uid: registered.user.uid, fullName: 'Job Owner' })

    const anonymous = (await post('/create-anonymous-user', {})).json()
    expect(await verifier.verify(await source.tokenFor(anonymous.uid))).toMatchObject({ uid: anonymous.uid, anonymous: true })

    // An unknown uid is refused, and signing in with a custom token did not create it.
    await expect(source.tokenFor('nobody-at-all')).rejects.toBeInstanceOf(UnknownUserError)
    await expect(source.tokenFor('nobody-at-all')).rejects.toBeInstanceOf(UnknownUserError)
  })

  it('refuses tokens that are not Firebase ID tokens', async () => {
    expect((await get('/me', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.')).statusCode).toBe(401)
    expect((await get('/status')).json().adapters).toContainEqual({ port: 'identity', adapter: 'firebase', ok: true })
  })
})
