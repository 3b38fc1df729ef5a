import { HELP_CATEGORIES, type SupportRequestBody, type SupportRequestResponse } from '@finsheet/contracts'
import { useEffect, useState } from 'react'
import { api } from '../app/services'
import { errorText } from '../pages/error-text'
import { Dialog } from '../ui/Dialog'

type HelpState = 'idle' | 'submitting' | 'submitted'

/**
 * Help & Support: name, email, category and description, all required; the request goes to the
 * support requests route, where support admins read it. A failed send keeps the form and says why.
 */
export function HelpDialog({ open, onClose, defaultName, defaultEmail }: { open: boolean; onClose(): void; defaultName?: string; defaultEmail?: string }) {
  const [name, setName] = useState(defaultName ?? '')
  const [email, setEmail] = useState(defaultEmail ?? '')
  const [category, setCategory] = useState('')
  const [description, setDescription] = useState('')
  const [state, setState] = useState<HelpState>('idle')
  const [failure, setFailure] = useState<string | null>(null)

  useEffect(() => {
    if (!open) return
    setState('idle')
    setName(defaultName ?? '')
    setEmail(defaultEmail ?? '')
    setCategory('')
    setDescription('')
    setFailure(null)
  }, [open, defaultName, defaultEmail])

  const submit = async () => {
    setState('submitting')
    setFailure(null)
    const body: SupportRequestBody = { name: name.trim(), email: email.trim(), category: category as SupportRequestBody['category'], description: description.trim() }
    try {
      await api.post<SupportRequestResponse>('/users/support-requests', body)
      setState('submitted')
    } catch (error) {
      setFailure(`Your request could not be sent: ${errorText(error)}`)
      setState('idle')
    }
  }

  const incomplete = [name, email, category, description].some((v) => v.trim() === '')
  const disabled = incomplete || state === 'submitting'

  return (
    <Dialog open={open} title="Help & Support" onClose={onClose} width={480}>
      {state === 'submitted' ? (
        <div className="help-done" role="status">
          <h3>Request Submitted</h3>
          <p>Thank you for contacting us. Our support team will get back to you by email as soon as possible.</p>
          <button type="button" className="button primary" onClick={onClose}>
            Close
          </button>
        </div>
      ) : (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault()
            if (!disabled) void submit()
          }}
        >
          <label className="field">
            <span>Name</span>
            <input value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" />
          </label>
          <label className="field">
            <span>Email</span>
            <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />
          </label>
          <label className="field">
            <span>Issue Category</span>
            <select value={category} onChange={(e) => setCategory(e.target.value)}>
              <option value="" disabled>
                Select a category
              </option>
              {HELP_CATEGORIES.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>Describe the Issue</span>
            <textarea rows={5} value={description} onChange={(e) => setDescription(e.target.value)} />
          </label>
          {failure && (
            <p role="alert" className="alert error">
              {failure}
            </p>
          )}
          <div className="form-actions">
            <button type="button" className="button" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="button primary" disabled={disabled}>
              {state === 'submitting' ? 'Submitting…' : 'Submit'}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  )
}
