import { describe, expect, it } from 'vitest'
import { ApiError } from '../api/api-client'
import { lockoutEnd, lockoutNotice } from './sign-in-lockout'

const locked = (retryAfter: number | null) =>
  new ApiError(429, 'Too Many Requests', { error: { code: 'SIGN_IN_LOCKED', message: 'Too many failed sign-in attempts. Try again in 30 seconds.' } }, retryAfter)

describe('sign-in lockout', () => {
  it("ends when the server's Retry-After says, and only for a lockout", () => {
    expect(lockoutEnd(locked(30), 1_000)).toBe(31_000)
    expect(lockoutEnd(locked(null), 1_000)).toBe(61_000)
    expect(lockoutEnd(new ApiError(429, 'Too Many Requests', { error: { code: 'RATE_LIMITED', message: 'Too many requests' } }, 30), 1_000)).toBeNull()
    expect(lockoutEnd(new ApiError(401, 'Unauthorized', { error: { code: 'INVALID_CREDENTIALS', message: 'Invalid email or password' } }), 1_000)).toBeNull()
    expect(lockoutEnd(new Error('offline'), 1_000)).toBeNull()
  })

  it('counts down in seconds, then minutes, and disappears when the lockout is over', () => {
    const endsAt = 10 * 60_000
    expect(lockoutNotice(endsAt, 0)).toBe('Too many failed sign-in attempts. Try again in 10 minutes.')
    expect(lockoutNotice(endsAt, endsAt - 61_000)).toBe('Too many failed sign-in attempts. Try again in 2 minutes.')
    expect(lockoutNotice(endsAt, endsAt - 45_500)).toBe('Too many failed sign-in attempts. Try again in 46 seconds.')
    expect(lockoutNotice(endsAt, endsAt - 1)).toBe('Too many failed sign-in attempts. Try again in 1 second.')
    expect(lockoutNotice(endsAt, endsAt)).toBeNull()
    expect(lockoutNotice(null, 0)).toBeNull()
  })
})
