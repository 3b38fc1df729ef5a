import { Link, Navigate, useNavigate } from '@tanstack/react-router'
import type { ChangeEvent } from 'react'
import { useState } from 'react'
import { useAuth } from '../auth/auth-context'
import { toast } from '../toasts/toast-store'
import { AuthLayout } from './AuthLayout'
import { errorText } from './error-text'
import { registrationProblem } from './auth-validation'

export function RegisterPage() {
  const { state, service } = useAuth()
  const navigate = useNavigate()
  const [fields, setFields] = useState({ fullName: '', email: '', password: '', confirmPassword: '' })
  const [busy, setBusy] = useState(false)
  const [alert, setAlert] = useState<string | null>(null)

  if (state.status === 'signed-in' && !busy) return <Navigate to="/" replace />

  const set = (name: keyof typeof fields) => (e: ChangeEvent<HTMLInputElement>) => setFields((f) => ({ ...f, [name]: e.target.value }))

  const submit = async () => {
    const problem = registrationProblem(fields)
    if (problem) {
      setAlert(problem)
      return
    }
    setBusy(true)
    setAlert(null)
    try {
      await service.register(fields.fullName.trim(), fields.email.trim(), fields.password)
      toast({ title: 'Success', description: 'Account created successfully!', variant: 'success' })
      await navigate({ to: '/' })
    } catch (error) {
      const message = errorText(error, 'Failed to create account')
      setAlert(message)
      toast({ title: 'Error', description: message, variant: 'destructive' })
    } finally {
      setBusy(false)
    }
  }

  return (
    <AuthLayout title="Create your account" subtitle="Start building models in minutes">
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          void submit()
        }}
      >
        <label className="field">
          <span>Full name</span>
          <input name="fullName" autoComplete="name" value={fields.fullName} onChange={set('fullName')} placeholder="Ada Lovelace" />
        </label>
        <label className="field">
          <span>Email</span>
          <input type="email" name="email" autoComplete="email" value={fields.email} onChange={set('email')} placeholder="you@company.com" />
        </label>
        <label className="field">
          <span>Password</span>
          <input type="password" name="password" autoComplete="new-password" value={fields.password} onChange={set('password')} />
        </label>
        <label className="field">
          <span>Confirm password</span>
          <input type="password" name="confirmPassword" autoComplete="new-password" value={fields.confirmPassword} onChange={set('confirmPassword')} />
        </label>
        {alert && (
          <p role="alert" className="form-alert">
            {alert}
          </p>
        )}
        <button type="submit" className="button primary wide" disabled={busy}>
          {busy ? 'Creating account…' : 'Create Account'}
        </button>
      </form>
      <p className="auth-switch">
        Already have an account? <Link to="/login">Sign in</Link>
      </p>
    </AuthLayout>
  )
}
