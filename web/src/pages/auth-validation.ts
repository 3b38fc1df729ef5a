import { MIN_PASSWORD_LENGTH, MISSING_FIELDS_MESSAGE, PASSWORD_TOO_SHORT_MESSAGE, SIGN_IN_LOCKED_CODE } from '@finsheet/contracts'

/** Spec 1 §5 and §9: registration needs every field, matching passwords of at least 6 characters. */
export function registrationProblem(fields: { fullName: string; email: string; password: string; confirmPassword: string }): string | null {
  if (fields.fullName.trim() === '' || fields.email.trim() === '' || fields.password === '') return MISSING_FIELDS_MESSAGE
  if (fields.password !== fields.confirmPassword) return 'Passwords do not match'
  if (fields.password.length < MIN_PASSWORD_LENGTH) return PASSWORD_TOO_SHORT_MESSAGE
  return null
}

/** Login needs both fields; the browser checks the email's form through the email input type. */
export function loginProblem(fields: { email: string; password: string }): string | null {
  if (fields.email.trim() === '' || fields.password === '') return MISSING_FIELDS_MESSAGE
  return null
}

/** Turns a sign-in failure into the reason shown in 'invalid login: … try again later'. */
export function signInFailureReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const code = (error as { code?: unknown })?.code
  if (code === 'auth/invalid-credential' || code === 'auth/wrong-password' || code === 'auth/user-not-found' || /\b401\b/.test(message)) {
    return 'the email or password is incorrect'
  }
  if (code === SIGN_IN_LOCKED_CODE) return 'too many failed sign-in attempts'
  if (/\b429\b/.test(message) || code === 'auth/too-many-requests') return 'too many attempts'
  if (/Network error|Failed to fetch|after retries/.test(message)) return 'the server cannot be reached'
  return message.replace(/^API Error \d+: /, '')
}
