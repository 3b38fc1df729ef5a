import type { FinancialModelType } from '@finsheet/contracts'
import type { ModelParameter, ResolvedParameters } from './parameters.js'
import type { TemplateDefinition } from './template.js'

/** What a model is built from: the company it is for and its parameters, resolved. */
export interface ModelRequest {
  /** Written into the model as text, never read as a formula or a number. */
  company: string
  parameters: ResolvedParameters
}

/** One model type: its parameters and how to build it from them. */
export interface FinancialModelBuilder {
  type: FinancialModelType
  /** 'DCF Model': what the workbook is called after the company. */
  name: string
  parameters: readonly ModelParameter[]
  /** Throws a ModelParameterError when parameters contradict each other (growth above the discount rate). */
  build(request: ModelRequest): TemplateDefinition
}
