import type { TemplateDefinition } from './template.js'
import { templateOf } from './financial-models.js'

export { templateSheets, calculateTemplate, summarizeTemplate } from './template.js'
export type { TemplateDefinition, TemplateSheet, KeyOutput } from './template.js'
export { FINANCIAL_MODEL_BUILDERS, TEMPLATE_COMPANY, buildFinancialModel, isFinancialModelType, modelWorkbookName, templateOf } from './financial-models.js'
export type { BuiltFinancialModel } from './financial-models.js'
export type { FinancialModelBuilder, ModelRequest } from './model-types.js'
export { COMMON_PARAMETERS, ModelParameterError, clampParameters, resolveParameters } from './parameters.js'
export type { ModelParameter, ParameterKind, ResolvedParameters } from './parameters.js'
export { text as textInput } from './model-builder.js'

/**
 * The five built-in templates, in the order the library shows them: each is its model type built
 * with the default parameters.
 */
export const BUILTIN_TEMPLATES: readonly TemplateDefinition[] = (['dcf', 'three-statement', 'startup', 'saas', 'real-estate'] as const).map(templateOf)

/** The template categories, difficulties and popular tags the library filters by. */
export const TEMPLATE_CATEGORIES = ['Valuation', 'Financial Reporting', 'Entrepreneurship', 'SaaS', 'Real Estate', 'Personal Finance'] as const
export const TEMPLATE_DIFFICULTIES = ['Beginner', 'Intermediate', 'Advanced'] as const
export const TEMPLATE_TAGS = [
  'Valuation',
  'Investment',
  'Cash Flow',
  'Financial Statements',
  'Forecasting',
  'Reporting',
  'Startup',
  'Fundraising',
  'Venture Capital',
  'SaaS',
  'Metrics',
  'KPIs',
  'Real Estate',
  'ROI',
  'Investments',
  'Portfolio',
  'Stocks',
] as const

export function findTemplate(id: string): TemplateDefinition | undefined {
  return BUILTIN_TEMPLATES.find((template) => template.id === id)
}
