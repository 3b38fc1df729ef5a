import type { ConditionalFormatRule, WorkbookCommand } from '@finsheet/contracts'
import { useState } from 'react'
import { useOpening } from '../ui/use-opening'
import { Dialog } from '../ui/Dialog'
import type { RuleForm, RuleKind } from './conditional-format-rules'
import { BAR_PRESETS, describeRule, emptyForm, FORMAT_PRESETS, formFromRule, movedRule, RULE_KINDS, ruleFromForm, SCALE_PRESETS, withoutRule, withRule } from './conditional-format-rules'

interface ConditionalFormatDialogProps {
  open: boolean
  sheet: string
  /** the sheet's rules in priority order */
  rules: readonly ConditionalFormatRule[]
  /** the selection, the cells a new rule applies to at first */
  selectionRange: string
  /** applies one undoable change of the rules; throws when the workbook refuses it */
  onChange(command: WorkbookCommand): void
  onClose(): void
}

const presetsFor = (kind: RuleKind) =>
  kind === 'colorScale'
    ? SCALE_PRESETS.map(({ id, label }) => ({ id, label }))
    : kind === 'dataBar'
      ? BAR_PRESETS.map(({ id, label }) => ({ id, label }))
      : FORMAT_PRESETS.map(({ id, label }) => ({ id, label }))

/**
 * Excel's Conditional Formatting Rules Manager for the active sheet: its rules in priority order with
 * the cells each applies to; a new rule for the selection (cell value greater than, less than,
 * between or equal to, text contains, a custom formula, a colour scale, a data bar) with a preset
 * format; edit, delete and move up or down, each one undoable change.
 */
export function ConditionalFormatDialog({ open, sheet, rules, selectionRange, onChange, onClose }: ConditionalFormatDialogProps) {
  const [form, setForm] = useState<RuleForm | null>(null)
  /** the rule being edited; undefined for a new one */
  const [editing, setEditing] = useState<number | undefined>(undefined)
  const [problem, setProblem] = useState<string | null>(null)

  // the form starts from the selection when the dialog opens, not as it moves afterwards
  useOpening(open, () => {
    setForm(rules.length === 0 ? emptyForm(selectionRange) : null)
    setEditing(undefined)
    setProblem(null)
  })

  const apply = (command: WorkbookCommand | null): boolean => {
    if (!command) return false
    try {
      onChange(command)
      setProblem(null)
      return true
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error))
      return false
    }
  }

  const save = () => {
    if (!form) return
    const made = ruleFromForm(form)
    if ('problem' in made) return setProblem(made.problem)
    if (apply(withRule(sheet, rules, made.rule, editing))) {
      setForm(null)
      setEditing(undefined)
    }
  }

  const change = (patch: Partial<RuleForm>) => setForm((current) => (current ? { ...current, ...patch } : current))
  const kind = form?.kind
  const presets = kind ? presetsFor(kind) : []
  const needsValue = kind !== undefined && kind !== 'colorScale' && kind !== 'dataBar'

  return (
    <Dialog
      open={open}
      title="Conditional formatting"
      onClose={onClose}
      width={560}
      footer={
        <button type="button" className="button primary" onClick={onClose}>
          Done
        </button>
      }
    >
      <p className="tool-message">{`Rules on ${sheet}, the first applied first:`}</p>
      {rules.length === 0 ? (
        <p role="status">This sheet has no conditional formats.</p>
      ) : (
        <ol className="conditional-rules" aria-label="Conditional format rules">
          {rules.map((rule, index) => {
            const text = describeRule(rule)
            const editable = formFromRule(rule)
            return (
              <li key={index} className="conditional-rule">
                <span className="conditional-swatch" style={{ background: rule.style?.fill ?? rule.colors?.[0] ?? 'transparent', color: rule.style?.color, fontWeight: rule.style?.bold ? 700 : undefined }}>
                  Aa
                </span>
                <span className="conditional-text">{text}</span>
                <span className="conditional-ranges">{rule.ranges.join(', ')}</span>
                <span className="conditional-buttons">
                  <button type="button" className="button small" aria-label={`Move up: ${text}`} disabled={index === 0} onClick={() => apply(movedRule(sheet, rules, index, -1))}>
                    ↑
                  </button>
                  <button type="button" className="button small" aria-label={`Move down: ${text}`} disabled={index === rules.length - 1} onClick={() => apply(movedRule(sheet, rules, index, 1))}>
                    ↓
                  </button>
                  {editable && (
                    <button
                      type="button"
                      className="button small"
                      aria-label={`Edit: ${text}`}
                      onClick={() => {
                        setForm(editable)
                        setEditing(index)
                        setProblem(null)
                      }}
                    >
                      Edit
                    </button>
                  )}
                  <button
                    type="button"
                    className="button small"
                    aria-label={`Delete: ${text}`}
                    onClick={() => {
                      if (apply(withoutRule(sheet, rules, index)) && editing === index) setForm(null)
                    }}
                  >
                    Delete
                  </button>
                </span>
              </li>
            )
          })}
        </ol>
      )}
      {form ? (
        <form
          className="form conditional-form"
          aria-label={editing === undefined ? 'New rule' : 'Edit rule'}
          onSubmit={(event) => {
            event.preventDefault()
            save()
          }}
        >
          <label className="field">
            <span>Apply to</span>
            <input value={form.ranges} spellCheck={false} placeholder="e.g. B2:B10" onChange={(event) => change({ ranges: event.target.value })} />
          </label>
          <label className="field">
            <span>Format cells if</span>
            <select
              value={form.kind}
              onChange={(event) => {
                const next = event.target.value as RuleKind
                change({ kind: next, preset: presetsFor(next)[0].id })
              }}
            >
              {RULE_KINDS.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.label}
                </option>
              ))}
            </select>
          </label>
          {needsValue && (
            <label className="field">
              <span>{kind === 'expression' ? 'Formula' : kind === 'containsText' ? 'Text' : kind === 'between' ? 'From' : 'Value'}</span>
              <input autoFocus value={form.first} spellCheck={false} placeholder={kind === 'expression' ? 'e.g. =$B2>100' : ''} onChange={(event) => change({ first: event.target.value })} />
            </label>
          )}
          {kind === 'between' && (
            <label className="field">
              <span>To</span>
              <input value={form.second} spellCheck={false} onChange={(event) => change({ second: event.target.value })} />
            </label>
          )}
          <label className="field">
            <span>{kind === 'colorScale' ? 'Colours' : kind === 'dataBar' ? 'Bar colour' : 'Format with'}</span>
            <select value={form.preset} onChange={(event) => change({ preset: event.target.value })}>
              {presets.map((preset) => (
                <option key={preset.id} value={preset.id}>
                  {preset.label}
                </option>
              ))}
            </select>
          </label>
          {needsValue && (
            <label className="check">
              <input type="checkbox" checked={form.stopIfTrue} onChange={(event) => change({ stopIfTrue: event.target.checked })} />
              <span>Stop if true</span>
            </label>
          )}
          {problem && (
            <p role="alert" className="form-alert">
              {problem}
            </p>
          )}
          <div className="conditional-form-buttons">
            <button
              type="button"
              className="button"
              onClick={() => {
                setForm(null)
                setEditing(undefined)
                setProblem(null)
              }}
            >
              Cancel
            </button>
            <button type="submit" className="button primary">
              {editing === undefined ? 'Add rule' : 'Save rule'}
            </button>
          </div>
        </form>
      ) : (
        <>
          {problem && (
            <p role="alert" className="form-alert">
              {problem}
            </p>
          )}
          <button
            type="button"
            className="button"
            onClick={() => {
              setForm(emptyForm(selectionRange))
              setEditing(undefined)
              setProblem(null)
            }}
          >
            New rule
          </button>
        </>
      )}
    </Dialog>
  )
}
