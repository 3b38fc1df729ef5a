import type { FormulaSuggestion } from '@finsheet/contracts'
import { useState } from 'react'
import { Dialog } from '../ui/Dialog'

interface FormulaCardsProps {
  formulas: readonly FormulaSuggestion[]
  /** writes the formula into the selected cell; null when there is no workbook to write into */
  onInsert(formula: string): string | null
}

function resultText(suggestion: FormulaSuggestion): string {
  const { result } = suggestion
  return result.error ? `${result.display} (${result.error})` : result.display
}

/**
 * Formula cards: each formula with its result, and a detail dialog with the function's Syntax,
 * Description, Example Usage and the Result, whose Insert Formula writes it into the selected cell.
 */
export function FormulaCards({ formulas, onInsert }: FormulaCardsProps) {
  const [open, setOpen] = useState<FormulaSuggestion | null>(null)
  const [inserted, setInserted] = useState<string | null>(null)

  const insert = (formula: string) => {
    const where = onInsert(formula)
    setInserted(where ? `Inserted into ${where}` : 'Open a workbook to insert the formula')
    if (where) setOpen(null)
  }

  return (
    <div className="formula-cards">
      {formulas.map((suggestion) => (
        <article key={suggestion.formula} className="formula-card" aria-label={`Formula ${suggestion.formula}`}>
          <code className="formula-card-formula">{suggestion.formula}</code>
          <span className="formula-card-result">= {resultText(suggestion)}</span>
          <div className="formula-card-actions">
            <button type="button" className="button small" onClick={() => setOpen(suggestion)}>
              Details
            </button>
            <button type="button" className="button small" onClick={() => insert(suggestion.formula)}>
              Insert
            </button>
          </div>
        </article>
      ))}
      {inserted && (
        <p className="formula-card-inserted" role="status">
          {inserted}
        </p>
      )}
      <Dialog open={open !== null} title={open?.formula ?? ''} onClose={() => setOpen(null)} width={480} className="formula-dialog">
        {open && (
          <dl className="formula-details">
            <dt>Syntax</dt>
            <dd>
              <code>{open.syntax}</code>
            </dd>
            <dt>Description</dt>
            <dd>{open.description}</dd>
            <dt>Example Usage</dt>
            <dd>
              <code>{open.example}</code>
            </dd>
            <dt>Result</dt>
            <dd>{resultText(open)}</dd>
          </dl>
        )}
        {open && (
          <div className="form-actions">
            <button type="button" className="button primary" onClick={() => insert(open.formula)}>
              Insert Formula
            </button>
          </div>
        )}
      </Dialog>
    </div>
  )
}
