import { useEffect, useState } from 'react'
import { Dialog } from '../ui/Dialog'

export const HELP_CATEGORIES = ['Technical Issue', 'Account Management', 'Feature Request', 'Billing Query', 'Other'] as const
/** Spec 1 §4: the help form submits for about a second and makes no call. */
const HELP_SUBMIT_DELAY_MS = 1000

type HelpState = 'idle' | 'submitting' | 'submitted'

/** Help & Support: name, email, category and description, all required. */
export function HelpDialog({ open, onClose, defaultName, defaultEmail }: { open: boolean; onClose(): void; defaultName?: string; defaultEmail?: string }) {
  const [name, setName] = useState(defaultName ?? '')
  const [email, setEmail] = useState(defaultEmail ?? '')
  const [category, setCategory] = useState('')
  const [description, setDescription] = useState('')
  const [state, setState] = useState<HelpState>('idle')

  useEffect(() => {
    if (!open) return
    setState('idle')
    setName(defaultName ?? '')
    setEmail(defaultEmail ?? '')
    setCategory('')
    setDescription('')
  }, [open, defaultName, defaultEmail])

  useEffect(() => {
    if (state !== 'submitting') return
    const timer = setTimeout(() => setState('submitted'), HELP_SUBMIT_DELAY_MS)
    return () => clearTimeout(timer)
  }, [state])

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
            if (!disabled) setState('submitting')
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
