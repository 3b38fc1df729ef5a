import { SIGN_IN_LOCKED_CODE, signInLockedMessage } from '@finsheet/contracts'
import { ApiError } from '../api/api-client'

/** A lockout whose length the server did not give is shown for a minute. */
const UNSTATED_LOCKOUT_SECONDS = 60

/**
 * When the sign-in lockout an error reports ends, in ms since the epoch, or null when the error is
 * not a lockout. The users service locks an account or an address out after repeated failures and
 * says for how long in Retry-After.
 */
export function lockoutEnd(error: unknown, now: number): number | null {
  if (!(error instanceof ApiError) || error.code !== SIGN_IN_LOCKED_CODE) return null
  return now + (error.retryAfterSeconds ?? UNSTATED_LOCKOUT_SECONDS) * 1000
}

/** The notice the login page shows while locked out, counting down; null once the lockout is over. */
export function lockoutNotice(endsAt: number | null, now: number): string | null {
  if (endsAt === null) return null
  const secondsLeft = Math.ceil((endsAt - now) / 1000)
  return secondsLeft > 0 ? signInLockedMessage(secondsLeft) : null
}
