import type { FirebaseOptions } from 'firebase/app'

/**
 * Firebase Authentication is used when the build is given a project (VITE_FIREBASE_API_KEY and
 * VITE_FIREBASE_PROJECT_ID, or the services' FIREBASE_API_KEY and FIREBASE_PROJECT_ID, which the
 * Vite config passes on); otherwise the app signs in through the users service's routes.
 */
export function firebaseOptions(): FirebaseOptions | null {
  const env = import.meta.env
  const apiKey = env.VITE_FIREBASE_API_KEY as string | undefined
  const projectId = env.VITE_FIREBASE_PROJECT_ID as string | undefined
  if (!apiKey || !projectId) return null
  return {
    apiKey,
    projectId,
    authDomain: (env.VITE_FIREBASE_AUTH_DOMAIN as string | undefined) ?? `${projectId}.firebaseapp.com`,
    appId: env.VITE_FIREBASE_APP_ID as string | undefined,
  }
}

/** The Authentication emulator's URL, for local development against firebase-tools. */
export function firebaseEmulatorUrl(): string | null {
  return (import.meta.env.VITE_FIREBASE_AUTH_EMULATOR_URL as string | undefined) ?? null
}
