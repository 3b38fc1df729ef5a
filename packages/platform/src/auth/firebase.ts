import type { App } from 'firebase-admin/app'
import type { Auth, DecodedIdToken } from 'firebase-admin/auth'
import { authErrors, type AuthUser, type TokenVerifier } from './token-verifier.js'

export interface FirebaseOptions {
  projectId: string
  /** host:port of the Auth emulator; firebase-admin then accepts the emulator's unsigned tokens. */
  emulatorHost?: string
}

/**
 * One firebase-admin app per project id, shared by the verifier and the users service. firebase-admin
 * is loaded here, on first use: a run without Firebase never pays for it.
 */
export async function firebaseAuth(options: FirebaseOptions): Promise<Auth> {
  const [{ applicationDefault, getApp, initializeApp }, { getAuth }] = await Promise.all([import('firebase-admin/app'), import('firebase-admin/auth')])
  if (options.emulatorHost) {
    // firebase-admin reads the emulator address from the environment only.
    process.env.FIREBASE_AUTH_EMULATOR_HOST = options.emulatorHost
  }
  const appName = `finsheet-${options.projectId}`
  let app: App
  try {
    app = getApp(appName)
  } catch {
    app = initializeApp(
      options.emulatorHost ? { projectId: options.projectId } : { projectId: options.projectId, credential: applicationDefault() },
      appName,
    )
  }
  return getAuth(app)
}

export function authUserFromFirebase(decoded: DecodedIdToken): AuthUser {
  const provider = decoded.firebase?.sign_in_provider
  return {
    uid: decoded.uid,
    email: decoded.email ?? null,
    name: typeof decoded.name === 'string' ? decoded.name : null,
    anonymous: provider === 'anonymous' || decoded.anonymous === true,
  }
}

/** Verifies Firebase ID tokens (FIREBASE_PROJECT_ID set). */
export class FirebaseTokenVerifier implements TokenVerifier {
  readonly kind = 'firebase' as const
  private auth: Promise<Auth> | undefined

  constructor(private readonly options: FirebaseOptions) {}

  async verify(token: string): Promise<AuthUser> {
    // A failure to load firebase-admin is tried again by the next request, not remembered.
    this.auth ??= firebaseAuth(this.options).catch((error: unknown) => {
      this.auth = undefined
      throw error
    })
    const auth = await this.auth
    try {
      return authUserFromFirebase(await auth.verifyIdToken(token))
    } catch (error) {
      if ((error as { code?: string }).code === 'auth/id-token-expired') throw authErrors.expiredToken()
      throw authErrors.invalidToken()
    }
  }
}
