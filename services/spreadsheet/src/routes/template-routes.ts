import { ListTemplatesQuery, ListTemplatesResponse, TemplateParams, TemplateResponse, type TemplateSummary } from '@finsheet/contracts'
import { errorResponses, type ServiceApp } from '@finsheet/platform'
import { BUILTIN_TEMPLATES, summarizeTemplate, TEMPLATE_CATEGORIES, TEMPLATE_DIFFICULTIES, TEMPLATE_TAGS } from '@finsheet/workbook'
import { spreadsheetErrors } from '../errors.js'

const tags = ['templates']

/** Spec 1 §4: filters combine — search over name, description and tags; category; difficulty; one tag. */
export function filterTemplates(templates: readonly TemplateSummary[], query: ListTemplatesQuery): TemplateSummary[] {
  const search = query.search?.trim().toLowerCase() ?? ''
  return templates.filter(
    (template) =>
      (search === '' || [template.name, template.description, ...template.tags].some((field) => field.toLowerCase().includes(search))) &&
      (!query.category || query.category === 'All' || template.category === query.category) &&
      (!query.difficulty || query.difficulty === 'All' || template.difficulty === query.difficulty) &&
      (!query.tag || query.tag === 'All' || template.tags.includes(query.tag)),
  )
}

export function templateRoutes(app: ServiceApp) {
  let summaries: TemplateSummary[] | undefined
  // Calculated once: the templates are code, their previews do not change while the service runs.
  const all = () => (summaries ??= BUILTIN_TEMPLATES.map(summarizeTemplate))

  app.get(
    '/templates',
    {
      schema: {
        tags,
        summary: 'The built-in financial model templates with their first 15 rows (columns A to F) for preview',
        querystring: ListTemplatesQuery,
        response: { 200: ListTemplatesResponse, ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      templates: filterTemplates(all(), request.query),
      categories: [...TEMPLATE_CATEGORIES],
      difficulties: [...TEMPLATE_DIFFICULTIES],
      tags: [...TEMPLATE_TAGS],
    }),
  )

  app.get(
    '/templates/:templateId',
    { schema: { tags, summary: 'One template', params: TemplateParams, response: { 200: TemplateResponse, ...errorResponses } } },
    async (request) => {
      const template = all().find((candidate) => candidate.id === request.params.templateId)
      if (!template) throw spreadsheetErrors.templateNotFoundById()
      return { success: true as const, template }
    },
  )
}
