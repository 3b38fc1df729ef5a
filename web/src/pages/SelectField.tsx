import type { ReactNode } from 'react'
import { useId } from 'react'

interface SelectFieldProps {
  label: string
  value: string
  onChange(value: string): void
  children: ReactNode
}

/** A labelled select whose accessible name is its label alone, not the label and the options. */
export function SelectField({ label, value, onChange, children }: SelectFieldProps) {
  const id = useId()
  return (
    <div className="select-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {children}
      </select>
    </div>
  )
}
