import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureSigningKeys, type SigningKeys } from './local-keys.js'
import { LocalTokenIssuer, LocalTokenVerifier } from './local-tokens.js'

const dir = mkdtempSync(join(tmpdir(), 'finsheet-local-tokens-'))
const options = { issuer: 'finsheet-users', audience: 'finsheet' }
const ada = { uid: 'ada', email: 'ada@example.com', name: 'Ada', anonymous: false }
let keys: SigningKeys
let verifier: LocalTokenVerifier

beforeAll(async () => {
  keys = await ensureSigningKeys(dir)
  verifier = new LocalTokenVerifier({ dataDir: dir }, options)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A token signed with the service's own key, with the claims given and nothing else. */
function signed(claims: { exp?: number; sub?: string }): Promise<string> {
  const jwt = new SignJWT({}).setProtectedHeader({ alg: 'EdDSA', kid: keys.kid }).setIssuer(options.issuer).setAudience(options.audience).setIssuedAt()
  if (claims.sub !== undefined) jwt.setSubject(claims.sub)
  if (claims.exp !== undefined) jwt.setExpirationTime(claims.exp)
  return jwt.sign(keys.privateKey)
}

describe('LocalTokenVerifier', () => {
  it('accepts the session tokens the issuer signs', async () => {
    const token = await new LocalTokenIssuer(keys, { ...options, sessionTtlSeconds: 600 }).issueSessionToken(ada)
    expect(await verifier.verify(token)).toEqual(ada)
  })

  it('refuses a correctly signed token without an expiry: it would be a credential for ever', async () => {
    const forever = await signed({ sub: 'ada' })
    await expect(verifier.verify(forever)).rejects.toMatchObject({ statusCode: 401, code: 'INVALID_TOKEN' })
    // The same token with an expiry passes, so it is the missing exp that is refused.
    expect((await verifier.verify(await signed({ sub: 'ada', exp: Math.floor(Date.now() / 1000) + 60 }))).uid).toBe('ada')
  })

  it('refuses a custom token without an expiry at the exchange as well', async () => {
    const issuer = new LocalTokenIssuer(keys, { ...options, sessionTtlSeconds: 600 })
    const forever = await new SignJWT({})
      .setProtectedHeader({ alg: 'EdDSA', kid: keys.kid })
      .setIssuer(options.issuer)
      .setAudience(`${options.audience}-custom-token`)
      .setSubject('ada')
      .sign(keys.privateKey)
    await expect(issuer.verifyCustomToken(forever)).rejects.toMatchObject({ code: 'INVALID_TOKEN' })
    expect((await issuer.verifyCustomToken(await issuer.issueCustomToken(ada))).uid).toBe('ada')
  })

  it('refuses a token without a subject, and an expired one as expired', async () => {
    await expect(verifier.verify(await signed({ exp: Math.floor(Date.now() / 1000) + 60 }))).rejects.toMatchObject({ code: 'INVALID_TOKEN' })
    await expect(verifier.verify(await signed({ sub: 'ada', exp: Math.floor(Date.now() / 1000) - 60 }))).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' })
  })
})
