import { Link, Navigate, useNavigate } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { GOOGLE_UNAVAILABLE_MESSAGE } from '../auth/auth-service'
import { useAuth } from '../auth/auth-context'
import { toast } from '../toasts/toast-store'
import { AuthLayout } from './AuthLayout'
import { loginProblem, signInFailureReason } from './auth-validation'
import { lockoutEnd, lockoutNotice } from './sign-in-lockout'

export function LoginPage() {
  const { state, service } = useAuth()
  const navigate = useNavigate()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [busy, setBusy] = useState(false)
  const [alert, setAlert] = useState<string | null>(null)
  const [googleNote, setGoogleNote] = useState<string | null>(null)
  /** When a lockout after repeated failed attempts ends; Sign In waits for it. */
  const [lockedUntil, setLockedUntil] = useState<number | null>(null)
  const [now, setNow] = useState(() => Date.now())
  const lockout = lockoutNotice(lockedUntil, now)

  useEffect(() => {
    if (lockedUntil === null) return
    const timer = setInterval(() => {
      const current = Date.now()
      setNow(current)
      if (current >= lockedUntil) setLockedUntil(null)
    }, 1000)
    return () => clearInterval(timer)
  }, [lockedUntil])

  if (state.status === 'signed-in') return <Navigate to="/" replace />

  const fail = (error: unknown) => {
    const reason = signInFailureReason(error)
    toast({ title: 'invalid login', description: reason, variant: 'destructive' })
    setAlert(`invalid login: ${reason}, try again later`)
    const current = Date.now()
    setNow(current)
    setLockedUntil(lockoutEnd(error, current))
  }

  const submit = async () => {
    const problem = loginProblem({ email, password })
    if (problem) {
      setAlert(problem)
      return
    }
    setBusy(true)
    setAlert(null)
    try {
      await service.signIn(email.trim(), password)
      await navigate({ to: '/' })
    } catch (error) {
      fail(error)
    } finally {
      setBusy(false)
    }
  }

  const google = async () => {
    if (!service.usesFirebase) {
      setGoogleNote(GOOGLE_UNAVAILABLE_MESSAGE)
      return
    }
    setBusy(true)
    try {
      await service.signInWithGoogle()
      await navigate({ to: '/' })
    } catch (error) {
      fail(error)
    } finally {
      setBusy(false)
    }
  }

  const guest = async () => {
    setBusy(true)
    setAlert(null)
    try {
      await service.signInAsGuest()
      await navigate({ to: '/' })
    } catch (error) {
      fail(error)
    } finally {
      setBusy(false)
    }
  }

  return (
    <AuthLayout title="Sign in" subtitle="Welcome back to your financial models">
      <form
        className="form"
        noValidate={false}
        onSubmit={(e) => {
          e.preventDefault()
          void submit()
        }}
      >
        <label className="field">
          <span>Email</span>
          <input type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} placeholder="you@company.com" />
        </label>
        <label className="field">
          <span>Password</span>
          <input type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        {alert && (
          <p role="alert" className="form-alert">
            {alert}
          </p>
        )}
        {lockout && (
          <p role="status" className="form-note lockout-notice">
            {lockout}
          </p>
        )}
        <button type="submit" className="button primary wide" disabled={busy || lockout !== null}>
          {busy ? 'Signing in…' : 'Sign In'}
        </button>
      </form>
      <div className="auth-divider">
        <span>or</span>
      </div>
      <button type="button" className="button wide google-button" onClick={() => void google()} disabled={busy} aria-describedby={googleNote ? 'google-note' : undefined}>
        <GoogleMark /> Continue with Google
      </button>
      {googleNote && (
        <p id="google-note" role="status" className="form-note">
          {googleNote}
        </p>
      )}
      <button type="button" className="button wide guest-button" onClick={() => void guest()} disabled={busy}>
        Continue as guest
      </button>
      <p className="auth-switch">
        Don&apos;t have an account? <Link to="/register">Create one</Link>
      </p>
    </AuthLayout>
  )
}

function GoogleMark() {
  return (
    <svg width="16" height="16" viewBox="0 0 48 48" aria-hidden="true">
      <path fill="#FFC107" d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z" />
      <path fill="#FF3D00" d="M6.3 14.7l6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z" />
      <path fill="#4CAF50" d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z" />
      <path fill="#1976D2" d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z" />
    </svg>
  )
}
