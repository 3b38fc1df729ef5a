import type { TemplateDefinition } from './template.js'
import { dcfModel } from './builtin/dcf-model.js'
import { threeStatementModel } from './builtin/three-statement-model.js'
import { startupModel } from './builtin/startup-model.js'
import { saasDashboard } from './builtin/saas-dashboard.js'
import { realEstateModel } from './builtin/real-estate-model.js'

export { acrossYears, eachYear, templateSheets, calculateTemplate, summarizeTemplate } from './template.js'
export type { TemplateDefinition, TemplateSheet, KeyOutput } from './template.js'

/** The five built-in templates of spec 1 §3, in the order the library shows them. */
export const BUILTIN_TEMPLATES: readonly TemplateDefinition[] = [dcfModel, threeStatementModel, startupModel, saasDashboard, realEstateModel]

/** Spec 1 §3: the template categories, difficulties and popular tags. */
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
