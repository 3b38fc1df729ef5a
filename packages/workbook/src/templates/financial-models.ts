/**
 * Every generated model type with its parameters, and building one for a company: the parameters a
 * caller sent are checked (a ModelParameterError names the first bad one), the rest take their
 * defaults, and the model is built by the same code as the template library's copy of it.
 */
import { FINANCIAL_MODEL_TYPES, MAX_WORKBOOK_NAME_LENGTH, type FinancialModelType } from '@finsheet/contracts'
import { dcfBuilder } from './builtin/dcf-model.js'
import { lboBuilder } from './builtin/lbo-model.js'
import { realEstateBuilder } from './builtin/real-estate-model.js'
import { saasBuilder } from './builtin/saas-dashboard.js'
import { startupBuilder } from './builtin/startup-model.js'
import { threeStatementBuilder } from './builtin/three-statement-model.js'
import type { FinancialModelBuilder } from './model-types.js'
import { resolveParameters, type ResolvedParameters } from './parameters.js'
import type { TemplateDefinition } from './template.js'

export const FINANCIAL_MODEL_BUILDERS: { readonly [Type in FinancialModelType]: FinancialModelBuilder } = {
  dcf: dcfBuilder,
  lbo: lboBuilder,
  'three-statement': threeStatementBuilder,
  startup: startupBuilder,
  saas: saasBuilder,
  'real-estate': realEstateBuilder,
}

/** The company a template library copy is made out for. */
export const TEMPLATE_COMPANY = 'Your Company'

export function isFinancialModelType(type: string): type is FinancialModelType {
  return (FINANCIAL_MODEL_TYPES as readonly string[]).includes(type)
}

export interface BuiltFinancialModel {
  /** The workbook's name: the company's and the model's, cut to the workbook name limit. */
  name: string
  template: TemplateDefinition
  parameters: ResolvedParameters
}

/** The workbook name for a company's model: "Acme — DCF Model", the company cut short when it is long. */
export function modelWorkbookName(company: string, modelName: string): string {
  const suffix = ` — ${modelName}`
  const room = MAX_WORKBOOK_NAME_LENGTH - suffix.length
  const trimmed = company.trim()
  return (trimmed.length > room ? `${trimmed.slice(0, room - 1)}…` : trimmed) + suffix
}

/** Builds a model of `type` for `company` from the parameters a caller sent. */
export function buildFinancialModel(type: FinancialModelType, company: string, sent: Record<string, unknown> = {}): BuiltFinancialModel {
  const builder = FINANCIAL_MODEL_BUILDERS[type]
  const parameters = resolveParameters(builder.parameters, sent, `the ${type} model`)
  const template = builder.build({ company, parameters })
  return { name: modelWorkbookName(company, builder.name), template, parameters }
}

/** The library's copy of a model: the defaults, made out for no one in particular. */
export function templateOf(type: FinancialModelType): TemplateDefinition {
  return buildFinancialModel(type, TEMPLATE_COMPANY).template
}
