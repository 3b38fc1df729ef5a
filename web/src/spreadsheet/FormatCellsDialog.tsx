import type { Scalar } from '@finsheet/formula'
import { formatValue } from '@finsheet/formula'
import { checkFormat } from '@finsheet/workbook/model'
import { useState } from 'react'
import { Dialog } from '../ui/Dialog'
import type { FormatCategory, FormatChoice, NegativeStyle } from '../workbook/number-formats'
import {
  choiceOfFormat,
  CURRENCY_SYMBOLS,
  DATE_FORMATS,
  DEFAULT_DECIMALS,
  FORMAT_CATEGORIES,
  formatOfChoice,
  MAX_DECIMALS,
  NEGATIVE_STYLES,
} from '../workbook/number-formats'

interface FormatCellsDialogProps {
  /** the active cell's format and value when the dialog is open; null closes it */
  active: { format: string | null; value: number | string | null } | null
  onApply(format: string | null): void
  onClose(): void
}

const NEGATIVE_LABELS: Record<NegativeStyle, string> = { minus: '-1,234.10', parentheses: '(1,234.10)', red: '-1,234.10 in red' }
const HAS_DECIMALS: readonly FormatCategory[] = ['Number', 'Currency', 'Accounting', 'Percentage', 'Thousands', 'Millions', 'Multiple']
const HAS_NEGATIVES: readonly FormatCategory[] = ['Number', 'Currency', 'Thousands', 'Millions']

/** The preview of a value in a format code, or the reason the code cannot be used. */
export function previewOf(value: Scalar, format: string | null): { text: string } | { problem: string } {
  try {
    checkFormat(format)
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) }
  }
  return { text: formatValue(value, format ?? undefined) }
}

/**
 * Format → Format Cells (Ctrl+1): a category with its options (decimals, thousands separator,
 * negatives, currency symbol, date style) or a format code typed in Custom, previewed on the active
 * cell's value, applied to the selection as one undoable change.
 */
export function FormatCellsDialog({ active, onApply, onClose }: FormatCellsDialogProps) {
  const [choice, setChoice] = useState<FormatChoice>(() => choiceOfFormat(null))
  // the dialog opens on the active cell's format; while open, the choice is the user's
  const [shownFor, setShownFor] = useState<typeof active>(null)
  if ((active === null) !== (shownFor === null)) {
    setShownFor(active)
    if (active) setChoice(choiceOfFormat(active.format))
  }

  const format = formatOfChoice(choice)
  // a text or empty cell previews a number, so the code's effect is seen
  const sample: Scalar = active && active.value !== null && active.value !== '' ? active.value : 1234.5
  const preview = previewOf(sample, format)
  const change = (patch: Partial<FormatChoice>) => setChoice((now) => ({ ...now, ...patch }))
  const pickCategory = (category: FormatCategory) =>
    setChoice((now) => ({ ...now, category, decimals: DEFAULT_DECIMALS[category], custom: category === 'Custom' ? (formatOfChoice(now) ?? '') : now.custom }))

  return (
    <Dialog
      open={active !== null}
      title="Format Cells"
      onClose={onClose}
      width={520}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="format-cells-form" className="button primary" disabled={'problem' in preview}>
            OK
          </button>
        </>
      }
    >
      <form
        id="format-cells-form"
        className="format-cells"
        onSubmit={(event) => {
          event.preventDefault()
          if (!('problem' in preview)) onApply(format)
        }}
      >
        <label className="field format-cells-categories">
          <span>Category</span>
          <select size={FORMAT_CATEGORIES.length} value={choice.category} onChange={(event) => pickCategory(event.target.value as FormatCategory)} autoFocus>
            {FORMAT_CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {category}
              </option>
            ))}
          </select>
        </label>
        <div className="form format-cells-options">
          <div className="format-cells-sample" role="status" aria-label="Sample">
            <span>Sample</span>
            <output data-testid="format-preview">{'problem' in preview ? '' : preview.text}</output>
          </div>
          {choice.category === 'General' && <p className="muted">General shows numbers as typed, up to 11 digits, switching to scientific notation for very large or small ones.</p>}
          {HAS_DECIMALS.includes(choice.category) && (
            <label className="field">
              <span>Decimal places</span>
              <input
                type="number"
                min={0}
                max={MAX_DECIMALS}
                value={choice.decimals}
                onChange={(event) => change({ decimals: Math.max(0, Math.min(MAX_DECIMALS, Math.trunc(Number(event.target.value) || 0))) })}
              />
            </label>
          )}
          {choice.category === 'Number' && (
            <label className="checkbox-field">
              <input type="checkbox" checked={choice.thousands} onChange={(event) => change({ thousands: event.target.checked })} />
              <span>Use 1000 separator (,)</span>
            </label>
          )}
          {(choice.category === 'Currency' || choice.category === 'Accounting') && (
            <label className="field">
              <span>Symbol</span>
              <select value={choice.symbol} onChange={(event) => change({ symbol: event.target.value })}>
                {CURRENCY_SYMBOLS.map((symbol) => (
                  <option key={symbol}>{symbol}</option>
                ))}
              </select>
            </label>
          )}
          {HAS_NEGATIVES.includes(choice.category) && (
            <label className="field">
              <span>Negative numbers</span>
              <select value={choice.negative} onChange={(event) => change({ negative: event.target.value as NegativeStyle })}>
                {NEGATIVE_STYLES.map((style) => (
                  <option key={style} value={style}>
                    {NEGATIVE_LABELS[style]}
                  </option>
                ))}
              </select>
            </label>
          )}
          {choice.category === 'Date' && (
            <label className="field">
              <span>Type</span>
              <select value={choice.date} onChange={(event) => change({ date: event.target.value })}>
                {DATE_FORMATS.map((code) => (
                  <option key={code} value={code}>
                    {formatValue(45747, code)} ({code})
                  </option>
                ))}
              </select>
            </label>
          )}
          {choice.category === 'Custom' && (
            <label className="field">
              <span>Format code</span>
              <input
                value={choice.custom}
                placeholder='e.g. #,##0.0,,"M";(#,##0.0,,"M")'
                spellCheck={false}
                aria-invalid={'problem' in preview}
                onChange={(event) => change({ custom: event.target.value })}
              />
            </label>
          )}
          {choice.category !== 'Custom' && format !== null && <p className="muted format-cells-code">Format code: {format}</p>}
          {'problem' in preview && (
            <p role="alert" className="form-alert">
              {preview.problem}
            </p>
          )}
        </div>
      </form>
    </Dialog>
  )
}
