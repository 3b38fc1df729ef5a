import type { TemplateSummary } from '@finsheet/contracts'
import { Search } from 'lucide-react'
import { useMemo, useState } from 'react'
import { useSession } from '../app/app-context'
import { api } from '../app/services'
import { TemplateCard } from '../templates/TemplateCard'
import { TemplatePreviewDialog } from '../templates/TemplatePreviewDialog'
import { ALL, filterTemplates, NO_FILTERS, NO_MODELS_MESSAGE, popularTags } from '../templates/template-filters'
import type { TemplateFilters } from '../templates/template-filters'
import { createFromTemplate, loadTemplates } from '../templates/templates-api'
import { toast } from '../toasts/toast-store'
import { LoadProblem } from './LoadProblem'
import { SelectField } from './SelectField'
import { useRemote } from './use-remote'
import './screens.css'

/** Spec 1 §2 Templates screen: the built-in models, filtered, previewed and turned into workbooks. */
export function ModelsPage() {
  const [, controller] = useSession()
  const [library, reload] = useRemote((signal) => loadTemplates(api, signal), [])
  const [filters, setFilters] = useState<TemplateFilters>(NO_FILTERS)
  const [previewing, setPreviewing] = useState<TemplateSummary | null>(null)
  const [creating, setCreating] = useState<string | null>(null)

  const templates = library.data?.templates ?? []
  const shown = useMemo(() => filterTemplates(templates, filters), [templates, filters])
  const chips = useMemo(() => popularTags(templates, library.data?.tags ?? []), [templates, library.data])
  const set = (patch: Partial<TemplateFilters>) => setFilters((current) => ({ ...current, ...patch }))

  const useTemplate = async (template: TemplateSummary) => {
    if (creating) return
    setCreating(template.id)
    try {
      const workbook = await createFromTemplate(api, template)
      setPreviewing(null)
      await controller.openWorkbook(workbook.id, workbook.name)
    } catch (error) {
      console.error('Failed to create a workbook from a template', error)
      toast({ title: 'Error', description: 'Failed to create workbook. Please try again.', variant: 'destructive' })
    } finally {
      setCreating(null)
    }
  }

  return (
    <div className="page wide-page">
      <header className="page-header">
        <h1>Financial Model Templates Library</h1>
        <p>Start from a working model: every template calculates from its inputs, ready for your numbers.</p>
      </header>

      <div className="filter-bar" role="search">
        <label className="search-field">
          <Search size={16} aria-hidden="true" />
          <input type="search" placeholder="Search models..." aria-label="Search models" value={filters.search} onChange={(e) => set({ search: e.target.value })} />
        </label>
        <SelectField label="Category" value={filters.category} onChange={(category) => set({ category })}>
          <option value={ALL}>All Categories</option>
          {(library.data?.categories ?? []).map((category) => (
            <option key={category}>{category}</option>
          ))}
        </SelectField>
        <SelectField label="Difficulty" value={filters.difficulty} onChange={(difficulty) => set({ difficulty })}>
          <option value={ALL}>All Levels</option>
          {(library.data?.difficulties ?? []).map((difficulty) => (
            <option key={difficulty}>{difficulty}</option>
          ))}
        </SelectField>
      </div>

      <div className="chip-row" role="group" aria-label="Popular tags">
        {[ALL, ...chips].map((tag) => (
          <button key={tag} type="button" className={`chip ${filters.tag === tag ? 'selected' : ''}`} aria-pressed={filters.tag === tag} onClick={() => set({ tag })}>
            {tag}
          </button>
        ))}
      </div>

      {library.status === 'error' && <LoadProblem message="The templates could not be loaded." onRetry={() => void reload()} />}
      {library.status === 'loading' && templates.length === 0 && (
        <p className="muted" role="status">
          Loading templates…
        </p>
      )}
      {library.status === 'ready' && shown.length === 0 && <p className="empty-state">{NO_MODELS_MESSAGE}</p>}

      <div className="template-grid">
        {shown.map((template) => (
          <TemplateCard
            key={template.id}
            template={template}
            creating={creating === template.id}
            busy={creating !== null}
            onPreview={() => setPreviewing(template)}
            onUse={() => void useTemplate(template)}
          />
        ))}
      </div>

      <TemplatePreviewDialog template={previewing} creating={creating !== null} onCancel={() => setPreviewing(null)} onUse={(template) => void useTemplate(template)} />
    </div>
  )
}
