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
