import type { CreateAnonymousUserResponse, SessionTokenResponse } from '@finsheet/contracts'
import type { Auth, User } from 'firebase/auth'
import { ApiClient } from '../api/api-client'
import { firebaseEmulatorUrl, firebaseOptions } from './firebase-config'

/** The signed-in user as the shell shows them (spec 1 §3: displayName, email, photoURL). */
export interface CurrentUser {
  uid: string
  displayName: string | null
  email: string | null
  photoURL: string | null
  anonymous: boolean
}

export type AuthState =
  | { status: 'loading' }
  | { status: 'signed-out' }
  | { status: 'signed-in'; user: CurrentUser }

/** The explanation the Google button gives when the server has no Firebase project. */
export const GOOGLE_UNAVAILABLE_MESSAGE =
  'Google sign-in needs Firebase Authentication, which this server is not set up for. Sign in with your email and password instead.'

const STORAGE_KEY = 'finsheet.auth'
/** renew a little before the token runs out rather than fail a request on the boundary */
const EXPIRY_MARGIN_MS = 30_000

interface StoredSession {
  token: string
  expiresAt: number
  user: CurrentUser
}

/**
 * Sign-in state and the bearer token. With a Firebase project configured it uses the Firebase SDK
 * (email and password, Google popup, custom tokens); otherwise the users service's local accounts
 * (`POST /api/users/login` and `/register`), keeping the token in local storage.
 */
export class AuthService {
  private state: AuthState = { status: 'loading' }
  private readonly listeners = new Set<(state: AuthState) => void>()
  private readonly api: ApiClient
  private firebaseAuth: Promise<Auth> | null = null
  private stored: StoredSession | null = null
  private started = false

  constructor(api = new ApiClient()) {
    this.api = api
  }

  get current(): AuthState {
    return this.state
  }

  get usesFirebase(): boolean {
    return firebaseOptions() !== null
  }

  subscribe(listener: (state: AuthState) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Reads the saved sign-in; 'loading' until it is known. Once: the app starts it before its first render, the provider on mount. */
  start(): void {
    if (this.started) return
    this.started = true
    if (this.usesFirebase) {
      void this.firebase().then(async (auth) => {
        const { onAuthStateChanged } = await import('firebase/auth')
        onAuthStateChanged(auth, (user) => this.set(user ? { status: 'signed-in', user: fromFirebase(user) } : { status: 'signed-out' }))
      })
      return
    }
    this.stored = readStored()
    this.set(this.stored ? { status: 'signed-in', user: this.stored.user } : { status: 'signed-out' })
  }

  async getToken(): Promise<string | null> {
    if (this.usesFirebase) {
      const auth = await this.firebase()
      return auth.currentUser ? auth.currentUser.getIdToken() : null
    }
    if (this.stored && this.stored.expiresAt - EXPIRY_MARGIN_MS < Date.now()) this.expire()
    return this.stored?.token ?? null
  }

  async signIn(email: string, password: string): Promise<CurrentUser> {
    if (this.usesFirebase) {
      const { signInWithEmailAndPassword } = await import('firebase/auth')
      const credential = await signInWithEmailAndPassword(await this.firebase(), email, password)
      return fromFirebase(credential.user)
    }
    const answer = await this.api.post<SessionTokenResponse>('/users/login', { email, password }, { anonymous: true })
    return this.keep(answer)
  }

  async register(fullName: string, email: string, password: string): Promise<CurrentUser> {
    if (this.usesFirebase) {
      const { createUserWithEmailAndPassword, updateProfile } = await import('firebase/auth')
      const credential = await createUserWithEmailAndPassword(await this.firebase(), email, password)
      await updateProfile(credential.user, { displayName: fullName })
      const user = { ...fromFirebase(credential.user), displayName: fullName }
      this.set({ status: 'signed-in', user })
      return user
    }
    const answer = await this.api.post<SessionTokenResponse>('/users/register', { email, password, fullName }, { anonymous: true })
    return this.keep(answer)
  }

  /** Google popup sign-in; throws GOOGLE_UNAVAILABLE_MESSAGE without a Firebase project. */
  async signInWithGoogle(): Promise<CurrentUser> {
    if (!this.usesFirebase) throw new Error(GOOGLE_UNAVAILABLE_MESSAGE)
    const { GoogleAuthProvider, signInWithPopup } = await import('firebase/auth')
    const credential = await signInWithPopup(await this.firebase(), new GoogleAuthProvider())
    return fromFirebase(credential.user)
  }

  /**
   * A guest account (spec 2 §1, §6): the users service creates an anonymous user and answers a
   * custom token, with which the app signs in.
   */
  async signInAsGuest(preferences: Record<string, unknown> = {}): Promise<CurrentUser> {
    const created = await this.api.post<CreateAnonymousUserResponse>('/users/create-anonymous-user', { preferences }, { anonymous: true })
    return this.signInWithCustomToken(created.customToken)
  }

  /** Signs in with a custom token from `POST /api/users/create-anonymous-user`. */
  async signInWithCustomToken(customToken: string): Promise<CurrentUser> {
    if (this.usesFirebase) {
      const { signInWithCustomToken } = await import('firebase/auth')
      const credential = await signInWithCustomToken(await this.firebase(), customToken)
      return fromFirebase(credential.user)
    }
    const answer = await this.api.post<SessionTokenResponse>('/users/token', { customToken }, { anonymous: true })
    return this.keep(answer)
  }

  async signOut(): Promise<void> {
    if (this.usesFirebase) {
      const { signOut } = await import('firebase/auth')
      await signOut(await this.firebase())
      return
    }
    this.expire()
  }

  /** The token was refused or ran out: forget it. */
  expire(): void {
    this.stored = null
    try {
      localStorage.removeItem(STORAGE_KEY)
    } catch {
      // storage can be unavailable (private mode); the in-memory state is what counts
    }
    this.set({ status: 'signed-out' })
  }

  private keep(answer: SessionTokenResponse): CurrentUser {
    const user: CurrentUser = {
      uid: answer.user.uid,
      displayName: answer.user.name,
      email: answer.user.email,
      photoURL: null,
      anonymous: answer.user.anonymous,
    }
    this.stored = { token: answer.token, expiresAt: Date.now() + answer.expiresIn * 1000, user }
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(this.stored))
    } catch {
      // without storage the sign-in lasts until the page reloads
    }
    this.set({ status: 'signed-in', user })
    return user
  }

  private set(state: AuthState): void {
    this.state = state
    for (const listener of this.listeners) listener(state)
  }

  private firebase(): Promise<Auth> {
    if (!this.firebaseAuth) {
      this.firebaseAuth = (async () => {
        const [{ initializeApp }, { getAuth, connectAuthEmulator }] = await Promise.all([import('firebase/app'), import('firebase/auth')])
        const auth = getAuth(initializeApp(firebaseOptions()!))
        const emulator = firebaseEmulatorUrl()
        if (emulator) connectAuthEmulator(auth, emulator, { disableWarnings: true })
        return auth
      })()
    }
    return this.firebaseAuth
  }
}

function readStored(): StoredSession | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY)
    if (!raw) return null
    const parsed = JSON.parse(raw) as StoredSession
    if (typeof parsed.token !== 'string' || typeof parsed.expiresAt !== 'number' || !parsed.user?.uid) return null
    return parsed.expiresAt - EXPIRY_MARGIN_MS > Date.now() ? parsed : null
  } catch {
    return null
  }
}

function fromFirebase(user: User): CurrentUser {
  return {
    uid: user.uid,
    displayName: user.displayName,
    email: user.email,
    photoURL: user.photoURL,
    anonymous: user.isAnonymous,
  }
}
