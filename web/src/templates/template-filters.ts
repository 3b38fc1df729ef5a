import type { TemplateSummary } from '@finsheet/contracts'

/** Spec 1 §2: what the library shows when no template passes the filters. */
export const NO_MODELS_MESSAGE = 'No models found. Try adjusting your filters or search terms'
/** The value of the category and difficulty selects, and the chip, that lets everything through. */
export const ALL = 'All'
/** How many popular-tag chips follow 'All'. */
export const POPULAR_TAG_COUNT = 8

export interface TemplateFilters {
  search: string
  category: string
  difficulty: string
  /** one tag, or 'All' */
  tag: string
}

export const NO_FILTERS: TemplateFilters = { search: '', category: ALL, difficulty: ALL, tag: ALL }

/**
 * Spec 1 §4: the filters combine — a case-insensitive search over name, description and tags,
 * then the category, the difficulty and one tag.
 */
export function filterTemplates(templates: readonly TemplateSummary[], filters: TemplateFilters): TemplateSummary[] {
  const search = filters.search.trim().toLowerCase()
  return templates.filter(
    (template) =>
      (search === '' || [template.name, template.description, ...template.tags].some((field) => field.toLowerCase().includes(search))) &&
      (filters.category === ALL || template.category === filters.category) &&
      (filters.difficulty === ALL || template.difficulty === filters.difficulty) &&
      (filters.tag === ALL || template.tags.includes(filters.tag)),
  )
}

/**
 * The tags most templates carry, most used first; ties keep the order of the catalogue's tag
 * list, so the chips do not shuffle between visits.
 */
export function popularTags(templates: readonly TemplateSummary[], catalogue: readonly string[], count = POPULAR_TAG_COUNT): string[] {
  const uses = new Map<string, number>()
  for (const template of templates) for (const tag of template.tags) uses.set(tag, (uses.get(tag) ?? 0) + 1)
  const rank = (tag: string) => {
    const index = catalogue.indexOf(tag)
    return index < 0 ? catalogue.length : index
  }
  return [...uses.keys()].sort((a, b) => (uses.get(b) ?? 0) - (uses.get(a) ?? 0) || rank(a) - rank(b) || a.localeCompare(b)).slice(0, count)
}

export const PREVIEW_COLUMNS = ['A', 'B', 'C', 'D', 'E', 'F'] as const

/** A preview cell as text: formulas as typed, numbers and text as the template calculates them. */
export function previewCell(value: string | number | boolean | null): string {
  if (value === null) return ''
  return String(value)
}

/** Whether a displayed value reads as a number (1,000 · 8.0% · (12.5) · $3.2), to align it right. */
export function isNumericText(text: string): boolean {
  return /^[-+]?[($€£]?\s?-?[\d,]*\.?\d+(%|[kKmMbB]|x)?\)?$/.test(text.trim())
}
