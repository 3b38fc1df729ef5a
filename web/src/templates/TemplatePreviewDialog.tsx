import type { TemplateSummary } from '@finsheet/contracts'
import { TEMPLATE_PREVIEW_ROWS } from '@finsheet/contracts'
import { Dialog } from '../ui/Dialog'
import { isNumericText, PREVIEW_COLUMNS, previewCell } from './template-filters'

interface TemplatePreviewDialogProps {
  template: TemplateSummary | null
  creating: boolean
  onCancel(): void
  onUse(template: TemplateSummary): void
}

/** Spec 1 §2: the template's first 15 rows (columns A to F) as calculated, with Cancel and Use This Template. */
export function TemplatePreviewDialog({ template, creating, onCancel, onUse }: TemplatePreviewDialogProps) {
  const rows = template?.preview.slice(0, TEMPLATE_PREVIEW_ROWS) ?? []
  return (
    <Dialog
      open={template !== null}
      title={template?.name ?? ''}
      onClose={onCancel}
      width={920}
      footer={
        <>
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="button primary" disabled={creating} onClick={() => template && onUse(template)}>
            {creating ? 'Creating…' : 'Use This Template'}
          </button>
        </>
      }
    >
      {template && (
        <>
          <p className="preview-caption">
            First {TEMPLATE_PREVIEW_ROWS} rows of {template.sheets[0]}, as calculated. Hover a value to see its formula.
          </p>
          <div className="preview-scroller">
            <table className="preview-table" aria-label={`${template.name} preview`}>
              <thead>
                <tr>
                  <th scope="col" aria-label="Row" />
                  {PREVIEW_COLUMNS.map((column) => (
                    <th key={column} scope="col">
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((row, index) => {
                  const typed = template.template[index]
                  return (
                    <tr key={row.rowIndex}>
                      <th scope="row">{row.rowIndex + 1}</th>
                      {PREVIEW_COLUMNS.map((column) => {
                        const input = typed?.[column]
                        const formula = typeof input === 'string' && input.startsWith('=') ? input : undefined
                        const shown = previewCell(row[column])
                        return (
                          <td key={column} title={formula} className={`${formula ? 'formula-cell' : ''} ${isNumericText(shown) ? 'number-cell' : ''}`}>
                            {shown}
                          </td>
                        )
                      })}
                    </tr>
                  )
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
    </Dialog>
  )
}
