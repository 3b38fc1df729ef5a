import { describe, expect, it } from 'vitest'
import { ApiError } from '../api/api-client'
import { loginProblem, registrationProblem, signInFailureReason } from './auth-validation'

const valid = { fullName: 'Ada Lovelace', email: 'ada@example.com', password: 'secret1', confirmPassword: 'secret1' }

describe('registration validation', () => {
  it('accepts a complete form', () => expect(registrationProblem(valid)).toBeNull())
  it('asks for every field', () => {
    expect(registrationProblem({ ...valid, fullName: ' ' })).toBe('Please fill all required fields')
    expect(registrationProblem({ ...valid, email: '' })).toBe('Please fill all required fields')
    expect(registrationProblem({ ...valid, password: '', confirmPassword: '' })).toBe('Please fill all required fields')
  })
  it('checks the passwords match, then their length', () => {
    expect(registrationProblem({ ...valid, confirmPassword: 'secret2' })).toBe('Passwords do not match')
    expect(registrationProblem({ ...valid, password: '12345', confirmPassword: '12345' })).toBe('Password must be at least 6 characters')
    expect(registrationProblem({ ...valid, password: '123456', confirmPassword: '123456' })).toBeNull()
  })
})

describe('login validation and failures', () => {
  it('needs both fields', () => {
    expect(loginProblem({ email: 'a@b.c', password: '' })).toBe('Please fill all required fields')
    expect(loginProblem({ email: 'a@b.c', password: 'x' })).toBeNull()
  })
  it('explains failures without leaking status codes', () => {
    expect(signInFailureReason(new ApiError(401, 'Unauthorized', { error: { code: 'INVALID_CREDENTIALS', message: 'Invalid email or password' } }))).toBe(
      'the email or password is incorrect',
    )
    expect(signInFailureReason(Object.assign(new Error('Firebase: Error'), { code: 'auth/invalid-credential' }))).toBe('the email or password is incorrect')
    expect(signInFailureReason(new Error('Request failed after retries'))).toBe('the server cannot be reached')
    const locked = new ApiError(429, 'Too Many Requests', { error: { code: 'SIGN_IN_LOCKED', message: 'Too many failed sign-in attempts. Try again in 30 seconds.' } }, 30)
    expect(signInFailureReason(locked)).toBe('too many failed sign-in attempts')
    expect(signInFailureReason(new ApiError(400, 'Bad Request', { error: { code: 'X', message: 'Email is not valid' } }))).toBe('Email is not valid')
  })
})
