import { useState } from 'react'
import type { DataValidationRule } from '@finsheet/contracts'
import { MAX_VALIDATION_ERROR_LENGTH, MAX_VALIDATION_INPUT_LENGTH, MAX_VALIDATION_TITLE_LENGTH } from '@finsheet/contracts'
import type { CellPosition, CellRange } from '../grid/address'
import { rangeAddress } from '../grid/address'
import { Dialog } from '../ui/Dialog'
import type { AllowChoice, FormContext, ValidationForm } from './data-validation'
import { ALLOW_CHOICES, ERROR_STYLE_CHOICES, formFromRule, needsTwoValues, OPERATOR_CHOICES, ruleFromForm } from './data-validation'

interface DataValidationDialogProps {
  open: boolean
  /** the selected range the rule is set on, and its active cell */
  range: CellRange
  active: CellPosition
  /** the active cell's rule, which the dialog opens with */
  rule: DataValidationRule | undefined
  context: FormContext
  /** sets the rule over the range; null removes validation from it */
  onApply(rule: DataValidationRule | null): void
  onClose(): void
}

const COMPARED: readonly AllowChoice[] = ['whole', 'decimal', 'date', 'time', 'textLength']

/**
 * Data → Data validation…: what the selected cells allow (a list of items or from a range, numbers,
 * dates, times, a text length or a custom formula), the message shown when one is selected, and the
 * alert shown when a value breaks the rule, as Excel's dialog has them.
 */
export function DataValidationDialog({ open, ...rest }: DataValidationDialogProps) {
  if (!open) return null
  // A new form each time the dialog opens, from the active cell's rule.
  return <ValidationDialogForm {...rest} />
}

function ValidationDialogForm({ range, active, rule, context, onApply, onClose }: Omit<DataValidationDialogProps, 'open'>) {
  const [form, setForm] = useState<ValidationForm>(() => formFromRule(rule, active))
  const [problem, setProblem] = useState<string | null>(null)
  const change = (changes: Partial<ValidationForm>) => {
    setForm((current) => ({ ...current, ...changes }))
    setProblem(null)
  }
  const submit = () => {
    const made = ruleFromForm(form, range, active, context)
    if ('error' in made) setProblem(made.error)
    else onApply(made.rule)
  }
  const compared = COMPARED.includes(form.allow)
  const two = compared && needsTwoValues(form.operator)
  const text = (label: string, key: 'value1' | 'value2' | 'items' | 'source' | 'formula', placeholder: string) => (
    <label className="field">
      <span>{label}</span>
      <input value={form[key]} spellCheck={false} placeholder={placeholder} aria-invalid={problem !== null} onChange={(event) => change({ [key]: event.target.value })} />
    </label>
  )
  return (
    <Dialog
      open
      title="Data validation"
      onClose={onClose}
      width={520}
      footer={
        <>
          <button type="button" className="button" onClick={() => onApply(null)} style={{ marginRight: 'auto' }}>
            Remove validation
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="data-validation-form" className="button primary">
            OK
          </button>
        </>
      }
    >
      <form
        id="data-validation-form"
        className="form validation-form"
        onSubmit={(event) => {
          event.preventDefault()
          submit()
        }}
      >
        <p className="validation-range">
          Applies to <strong>{rangeAddress(range)}</strong>
        </p>
        <fieldset>
          <legend>Criteria</legend>
          <label className="field">
            <span>Allow</span>
            <select autoFocus aria-label="Allow" value={form.allow} onChange={(event) => change({ allow: event.target.value as AllowChoice })}>
              {ALLOW_CHOICES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          {compared && (
            <label className="field">
              <span>Data</span>
              <select aria-label="Data" value={form.operator} onChange={(event) => change({ operator: event.target.value as ValidationForm['operator'] })}>
                {OPERATOR_CHOICES.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
          )}
          {compared && text(two ? 'Minimum' : 'Value', 'value1', form.allow === 'date' ? 'e.g. 2025-01-01 or =$B$1' : 'e.g. 0 or =$B$1')}
          {two && text('Maximum', 'value2', form.allow === 'date' ? 'e.g. 2025-12-31' : 'e.g. 100')}
          {form.allow === 'list-items' && text('Items', 'items', 'e.g. Low, Base, High')}
          {form.allow === 'list-range' && text('Source range', 'source', 'e.g. =$F$1:$F$5 or =Lists!$A$1:$A$9')}
          {form.allow === 'custom' && text('Formula', 'formula', 'e.g. =B2>0')}
          {form.allow !== 'none' && (
            <label className="checkbox-field">
              <input type="checkbox" checked={form.allowBlank} onChange={(event) => change({ allowBlank: event.target.checked })} />
              Ignore blank
            </label>
          )}
          {(form.allow === 'list-items' || form.allow === 'list-range') && (
            <label className="checkbox-field">
              <input type="checkbox" checked={form.showDropdown} onChange={(event) => change({ showDropdown: event.target.checked })} />
              Show dropdown list in cell
            </label>
          )}
        </fieldset>
        <fieldset>
          <legend>Input message</legend>
          <label className="checkbox-field">
            <input type="checkbox" checked={form.showInputMessage} onChange={(event) => change({ showInputMessage: event.target.checked })} />
            Show input message when cell is selected
          </label>
          <label className="field">
            <span>Title</span>
            <input value={form.inputTitle} maxLength={MAX_VALIDATION_TITLE_LENGTH} onChange={(event) => change({ inputTitle: event.target.value })} />
          </label>
          <label className="field">
            <span>Input message</span>
            <textarea rows={2} value={form.inputMessage} maxLength={MAX_VALIDATION_INPUT_LENGTH} onChange={(event) => change({ inputMessage: event.target.value })} />
          </label>
        </fieldset>
        <fieldset>
          <legend>Error alert</legend>
          <label className="checkbox-field">
            <input type="checkbox" checked={form.showErrorMessage} onChange={(event) => change({ showErrorMessage: event.target.checked })} />
            Show error alert after invalid data is entered
          </label>
          <label className="field">
            <span>Style</span>
            <select aria-label="Style" value={form.errorStyle} onChange={(event) => change({ errorStyle: event.target.value as ValidationForm['errorStyle'] })}>
              {ERROR_STYLE_CHOICES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>Title</span>
            <input value={form.errorTitle} maxLength={MAX_VALIDATION_TITLE_LENGTH} onChange={(event) => change({ errorTitle: event.target.value })} />
          </label>
          <label className="field">
            <span>Error message</span>
            <textarea rows={2} value={form.errorMessage} maxLength={MAX_VALIDATION_ERROR_LENGTH} onChange={(event) => change({ errorMessage: event.target.value })} />
          </label>
        </fieldset>
        {problem && (
          <p role="alert" className="form-alert">
            {problem}
          </p>
        )}
      </form>
    </Dialog>
  )
}
