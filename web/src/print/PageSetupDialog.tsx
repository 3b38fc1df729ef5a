import { PAPER_SIZES, type PageSetup, type PaperSize } from '@finsheet/contracts'
import { useEffect, useState } from 'react'
import { Dialog } from '../ui/Dialog'
import { fieldsOf, readFields, type PageSetupFields } from './page-setup-form'
import type { SheetChoice } from './print-job'

const PAPER_LABELS: Record<PaperSize, string> = { letter: 'Letter (8.5 × 11 in)', legal: 'Legal (8.5 × 14 in)', a4: 'A4 (210 × 297 mm)', a3: 'A3 (297 × 420 mm)' }

interface PageSetupDialogProps {
  /** the sheet whose setup is edited; the dialog is closed without it */
  sheet: string | null
  current: PageSetup
  /** the selection, for "Use selection" ('B2:F40') */
  selection: string
  sheetNames: readonly string[]
  choice: SheetChoice
  onChoice(choice: SheetChoice): void
  /** writes the sheet's page setup (one undoable change) and, when asked, prints or exports next */
  onApply(setup: PageSetup, then: 'close' | 'print' | 'export-pdf'): void
  onClose(): void
}

/**
 * Page setup (File menu), as Excel's dialog: paper and orientation, fit to width or a scale, the print
 * area and the rows repeated at the top, gridlines and headings; kept with the sheet. Which sheets print
 * (this one, chosen ones or all) is the print's own choice, as in Excel's Print dialog.
 */
export function PageSetupDialog({ sheet, current, selection, sheetNames, choice, onChoice, onApply, onClose }: PageSetupDialogProps) {
  const [fields, setFields] = useState<PageSetupFields>(fieldsOf(current))
  const [problem, setProblem] = useState<string | null>(null)

  useEffect(() => {
    if (sheet === null) return
    setFields(fieldsOf(current))
    setProblem(null)
  }, [sheet, current])

  const set = <K extends keyof PageSetupFields>(key: K, value: PageSetupFields[K]) => setFields((before) => ({ ...before, [key]: value }))
  const apply = (then: 'close' | 'print' | 'export-pdf') => {
    const read = readFields(fields)
    if ('problem' in read) return setProblem(read.problem)
    onApply(read.setup, then)
  }
  const chosen = choice.kind === 'chosen' ? choice.sheets : []

  return (
    <Dialog
      open={sheet !== null}
      title={`Page setup: ${sheet ?? ''}`}
      onClose={onClose}
      width={520}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button" onClick={() => apply('export-pdf')}>
            Export PDF
          </button>
          <button type="button" className="button" onClick={() => apply('print')}>
            Print…
          </button>
          <button type="submit" form="page-setup-form" className="button primary">
            OK
          </button>
        </>
      }
    >
      <form
        id="page-setup-form"
        className="form"
        onSubmit={(event) => {
          event.preventDefault()
          apply('close')
        }}
      >
        <fieldset className="field">
          <legend>Orientation</legend>
          <label className="checkbox-field">
            <input type="radio" name="orientation" checked={fields.orientation === 'portrait'} onChange={() => set('orientation', 'portrait')} />
            <span>Portrait</span>
          </label>
          <label className="checkbox-field">
            <input type="radio" name="orientation" checked={fields.orientation === 'landscape'} onChange={() => set('orientation', 'landscape')} />
            <span>Landscape</span>
          </label>
        </fieldset>
        <label className="field">
          <span>Paper size</span>
          <select aria-label="Paper size" value={fields.paperSize} onChange={(event) => set('paperSize', event.target.value as PaperSize)}>
            {PAPER_SIZES.map((size) => (
              <option key={size} value={size}>
                {PAPER_LABELS[size]}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="field">
          <legend>Scaling</legend>
          <label className="checkbox-field">
            <input type="radio" name="fit" checked={fields.fit === 'width'} onChange={() => set('fit', 'width')} />
            <span>Fit all columns on one page</span>
          </label>
          <label className="checkbox-field">
            <input type="radio" name="fit" checked={fields.fit === 'scale'} onChange={() => set('fit', 'scale')} />
            <span>Adjust to</span>
            <input aria-label="Scale (% of normal size)" inputMode="numeric" size={4} value={fields.scale} disabled={fields.fit !== 'scale'} onChange={(event) => set('scale', event.target.value)} />
            <span>% of normal size</span>
          </label>
        </fieldset>
        <label className="field">
          <span>Print area</span>
          <input value={fields.printArea} placeholder="The used cells" onChange={(event) => set('printArea', event.target.value)} />
        </label>
        <div className="form-actions">
          <button type="button" className="button" onClick={() => set('printArea', selection)}>
            Use selection
          </button>
          <button type="button" className="button" onClick={() => set('printArea', '')}>
            Whole sheet
          </button>
        </div>
        <label className="field">
          <span>Rows to repeat at top</span>
          <input value={fields.titleRows} placeholder="$1:$1" onChange={(event) => set('titleRows', event.target.value)} />
        </label>
        <label className="checkbox-field">
          <input type="checkbox" checked={fields.gridlines} onChange={(event) => set('gridlines', event.target.checked)} />
          <span>Gridlines</span>
        </label>
        <label className="checkbox-field">
          <input type="checkbox" checked={fields.headings} onChange={(event) => set('headings', event.target.checked)} />
          <span>Row and column headings</span>
        </label>
        <label className="field">
          <span>Print</span>
          <select
            aria-label="Sheets to print"
            value={choice.kind}
            onChange={(event) => {
              const kind = event.target.value as SheetChoice['kind']
              onChoice(kind === 'chosen' ? { kind, sheets: sheet ? [sheet] : [] } : { kind })
            }}
          >
            <option value="active">This sheet</option>
            <option value="chosen">Selected sheets</option>
            <option value="all">All sheets</option>
          </select>
        </label>
        {choice.kind === 'chosen' && (
          <fieldset className="field">
            <legend>Print these sheets</legend>
            {sheetNames.map((name) => (
              <label key={name} className="checkbox-field">
                <input
                  type="checkbox"
                  checked={chosen.includes(name)}
                  onChange={(event) => onChoice({ kind: 'chosen', sheets: event.target.checked ? [...chosen, name] : chosen.filter((other) => other !== name) })}
                />
                <span>{name}</span>
              </label>
            ))}
          </fieldset>
        )}
        {problem && (
          <p role="alert" className="alert error">
            {problem}
          </p>
        )}
      </form>
    </Dialog>
  )
}
