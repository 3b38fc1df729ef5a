/**
 * A request for a new model, checked before anything is queued: a known model type, a company name
 * with something in it, and parameters the model type takes, each a number in its range (the model
 * is built once here, so that parameters that contradict each other are refused by name too).
 */
import type { FinancialModelType, GenerateFinancialModelBody } from '@finsheet/contracts'
import { buildFinancialModel, isFinancialModelType, ModelParameterError } from '@finsheet/workbook'
import { aiErrors } from '../errors.js'

/** What a generation job is given: never a token, only who it is for. */
export interface ModelJobData {
  userId: string
  modelType: FinancialModelType
  companyName: string
  /** As callers send them (percent for percentages), the base year pinned, so every run builds the same model. */
  parameters: Record<string, unknown>
}

export interface ModelRequest {
  modelType: FinancialModelType
  companyName: string
  parameters: Record<string, unknown>
}

/** The request's type, company and parameters; a 400 naming what is wrong. */
export function readModelRequest(body: GenerateFinancialModelBody): ModelRequest {
  if (!isFinancialModelType(body.modelType)) throw aiErrors.unknownModelType(body.modelType)
  if (body.companyName.trim() === '') throw aiErrors.emptyCompanyName()
  const request = { modelType: body.modelType, companyName: body.companyName, parameters: { ...(body.parameters ?? {}) } }
  const built = checkedBuild(request)
  // The year a model starts from defaults to the last full year: pinned now, so a retried job agrees.
  if (request.parameters.baseYear === undefined && built.parameters.baseYear !== undefined) request.parameters.baseYear = built.parameters.baseYear
  return request
}

/** Builds the model, turning a bad parameter into the 400 that names it. */
export function checkedBuild(request: ModelRequest): ReturnType<typeof buildFinancialModel> {
  try {
    return buildFinancialModel(request.modelType, request.companyName, request.parameters)
  } catch (error) {
    if (error instanceof ModelParameterError) throw aiErrors.invalidModelParameter(error.message)
    throw error
  }
}
