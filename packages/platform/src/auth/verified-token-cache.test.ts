import { generateKeyPair, SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { authErrors, type AuthUser, type TokenVerifier } from './token-verifier.js'
import { VerifiedTokenCache } from './verified-token-cache.js'

const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' })

async function tokenFor(uid: string, expiresAtSeconds?: number): Promise<string> {
  const jwt = new SignJWT({}).setProtectedHeader({ alg: 'EdDSA' }).setSubject(uid)
  if (expiresAtSeconds !== undefined) jwt.setExpirationTime(expiresAtSeconds)
  return jwt.sign(privateKey)
}

/** A verifier that counts its calls and accepts the tokens it is told to. */
class CountingVerifier implements TokenVerifier {
  readonly kind = 'local' as const
  calls = 0
  readonly accepted = new Map<string, AuthUser>()

  async verify(token: string): Promise<AuthUser> {
    this.calls++
    const user = this.accepted.get(token)
    if (!user) throw authErrors.invalidToken()
    return user
  }
}

const user = (uid: string): AuthUser => ({ uid, email: `${uid}@example.com`, name: uid, anonymous: false })

describe('VerifiedTokenCache', () => {
  it('checks a token once and answers its user from memory until it expires', async () => {
    let now = 1_000_000_000_000
    const inner = new CountingVerifier()
    const cache = new VerifiedTokenCache(inner, { now: () => now })
    const token = await tokenFor('ada', now / 1000 + 60)
    inner.accepted.set(token, user('ada'))

    expect(await cache.verify(token)).toEqual(user('ada'))
    expect(await cache.verify(token)).toEqual(user('ada'))
    expect(inner.calls).toBe(1)

    // Past its expiry the token goes back to the verifier, which decides (here: refuses).
    now += 61_000
    inner.accepted.delete(token)
    await expect(cache.verify(token)).rejects.toMatchObject({ statusCode: 401 })
    expect(inner.calls).toBe(2)
  })

  it('never keeps a refusal: a token that failed is checked in full every time', async () => {
    const inner = new CountingVerifier()
    const cache = new VerifiedTokenCache(inner)
    const token = await tokenFor('eve', Math.floor(Date.now() / 1000) + 60)
    await expect(cache.verify(token)).rejects.toMatchObject({ code: 'INVALID_TOKEN' })
    await expect(cache.verify(token)).rejects.toMatchObject({ code: 'INVALID_TOKEN' })
    expect(inner.calls).toBe(2)
  })

  it('re-checks a token after its own age limit, and keeps nothing for a token without an expiry', async () => {
    let now = 1_000_000_000_000
    const inner = new CountingVerifier()
    const cache = new VerifiedTokenCache(inner, { maxAgeMs: 1_000, now: () => now })
    const longLived = await tokenFor('ada', now / 1000 + 3600)
    const noExpiry = await tokenFor('bob')
    inner.accepted.set(longLived, user('ada')).set(noExpiry, user('bob'))

    await cache.verify(longLived)
    await cache.verify(longLived)
    expect(inner.calls).toBe(1)
    now += 1_001
    await cache.verify(longLived)
    expect(inner.calls).toBe(2)

    await cache.verify(noExpiry)
    await cache.verify(noExpiry)
    expect(inner.calls).toBe(4)
  })

  it('holds at most maxEntries tokens, dropping the least recently used', async () => {
    const inner = new CountingVerifier()
    const cache = new VerifiedTokenCache(inner, { maxEntries: 2 })
    const expiry = Math.floor(Date.now() / 1000) + 60
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((uid) => tokenFor(uid, expiry)))
    for (const [token, uid] of [[a, 'a'], [b, 'b'], [c, 'c']] as const) inner.accepted.set(token, user(uid))

    await cache.verify(a)
    await cache.verify(b)
    await cache.verify(a) // a is now the most recently used
    await cache.verify(c) // evicts b
    expect(inner.calls).toBe(3)
    await cache.verify(a)
    expect(inner.calls).toBe(3)
    await cache.verify(b)
    expect(inner.calls).toBe(4)
  })
})
