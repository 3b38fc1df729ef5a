import type { TemplateSummary } from '@finsheet/contracts'
import { Eye, FilePlus2 } from 'lucide-react'

interface TemplateCardProps {
  template: TemplateSummary
  /** this card's template is being created */
  creating: boolean
  /** another template is being created */
  busy: boolean
  onPreview(): void
  onUse(): void
}

export function TemplateCard({ template, creating, busy, onPreview, onUse }: TemplateCardProps) {
  return (
    <article className="card template-card" aria-labelledby={`template-${template.id}`}>
      <div className="template-card-badges">
        <span className="badge">{template.category}</span>
        <span className={`badge difficulty-${template.difficulty.toLowerCase()}`}>{template.difficulty}</span>
      </div>
      <h2 id={`template-${template.id}`}>{template.name}</h2>
      <p className="template-description">{template.description}</p>
      <p className="template-sheets">
        {template.sheets.length} {template.sheets.length === 1 ? 'sheet' : 'sheets'}: {template.sheets.join(', ')}
      </p>
      <ul className="tag-list" aria-label="Tags">
        {template.tags.map((tag) => (
          <li key={tag} className="tag">
            {tag}
          </li>
        ))}
      </ul>
      <div className="template-card-actions">
        <button type="button" className="button" onClick={onPreview} aria-label={`Preview ${template.name}`}>
          <Eye size={15} aria-hidden="true" /> Preview
        </button>
        <button type="button" className="button primary" onClick={onUse} disabled={busy} aria-label={`Use Template ${template.name}`}>
          <FilePlus2 size={15} aria-hidden="true" /> {creating ? 'Creating…' : 'Use Template'}
        </button>
      </div>
    </article>
  )
}
