import { mkdir, open, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { exportJWK, generateKeyPair, importJWK, type JWK, type CryptoKey } from 'jose'

export interface SigningKeys {
  kid: string
  privateKey: CryptoKey
  publicJwk: JWK
}

interface StoredKeyFile {
  kid: string
  privateJwk: JWK
  publicJwk: JWK
}

export const identityDir = (dataDir: string) => join(dataDir, 'identity')
const keyFile = (dataDir: string) => join(identityDir(dataDir), 'signing-key.json')
export const jwksFile = (dataDir: string) => join(identityDir(dataDir), 'jwks.json')

/**
 * Loads the users service's Ed25519 signing key from DATA_DIR, generating it on first start.
 * The key file is created exclusively, so two processes starting together agree on one key.
 */
export async function ensureSigningKeys(dataDir: string): Promise<SigningKeys> {
  await mkdir(identityDir(dataDir), { recursive: true, mode: 0o700 })
  let stored = await readKeyFile(dataDir)
  if (!stored) {
    const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true })
    const kid = randomUUID()
    const candidate: StoredKeyFile = {
      kid,
      privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'EdDSA', use: 'sig' },
      publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' },
    }
    try {
      const handle = await open(keyFile(dataDir), 'wx', 0o600)
      await handle.writeFile(JSON.stringify(candidate))
      await handle.sync()
      await handle.close()
      stored = candidate
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      stored = await waitForKeyFile(dataDir)
    }
  }
  await writePublicJwks(dataDir, stored.publicJwk)
  return { kid: stored.kid, privateKey: (await importJWK(stored.privateJwk, 'EdDSA')) as CryptoKey, publicJwk: stored.publicJwk }
}

/**
 * Keys from a private Ed25519 JWK given in config, for replicas of the users service that must
 * sign with one key without sharing a DATA_DIR.
 */
export async function signingKeysFromJwk(privateJwkJson: string): Promise<SigningKeys> {
  let jwk: JWK
  try {
    jwk = JSON.parse(privateJwkJson) as JWK
  } catch {
    throw new Error('The signing key is not valid JSON')
  }
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.d !== 'string' || typeof jwk.x !== 'string') {
    throw new Error('The signing key must be a private Ed25519 JWK (kty OKP, crv Ed25519, with d and x)')
  }
  const kid = jwk.kid ?? 'configured'
  const publicJwk: JWK = { kty: 'OKP', crv: 'Ed25519', x: jwk.x, kid, alg: 'EdDSA', use: 'sig' }
  return { kid, privateKey: (await importJWK({ ...jwk, kid }, 'EdDSA')) as CryptoKey, publicJwk }
}

/** The public keys other services verify with, as a JSON Web Key Set. */
export async function readPublicJwks(dataDir: string): Promise<{ keys: JWK[] } | null> {
  try {
    return JSON.parse(await readFile(jwksFile(dataDir), 'utf8')) as { keys: JWK[] }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

async function writePublicJwks(dataDir: string, publicJwk: JWK): Promise<void> {
  const temporary = `${jwksFile(dataDir)}.${process.pid}.${randomUUID()}.tmp`
  await writeFile(temporary, JSON.stringify({ keys: [publicJwk] }))
  await rename(temporary, jwksFile(dataDir))
}

async function readKeyFile(dataDir: string): Promise<StoredKeyFile | null> {
  try {
    const text = await readFile(keyFile(dataDir), 'utf8')
    if (text === '') return null
    return JSON.parse(text) as StoredKeyFile
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

async function waitForKeyFile(dataDir: string): Promise<StoredKeyFile> {
  // Another process created the file a moment ago and may still be writing it.
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      const stored = await readKeyFile(dataDir)
      if (stored) return stored
    } catch {
      // half-written JSON: try again
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`Signing key file ${keyFile(dataDir)} exists but cannot be read`)
}
