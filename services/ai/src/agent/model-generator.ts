/**
 * The seam where financial-model generation plugs into the AI service: agent mode calls it for a
 * command that asks for a new model, and POST /generate-financial-model calls it directly. The app
 * takes one as an optional dependency; without one both answer 503 saying so.
 */
import type { FinancialModelResult, GenerateFinancialModelBody, ModelGenerationProgress } from '@finsheet/contracts'
import type { AuthUser } from '@finsheet/platform'

export interface ModelGenerationOptions {
  /** Aborted when the client goes away. */
  signal?: AbortSignal
  /** How far the generation has come, for the panel. */
  onProgress?: (progress: ModelGenerationProgress) => void
  /** The user's bearer token, for calls to other services on their behalf during the request. */
  token?: string
}

export interface FinancialModelGenerator {
  /** Builds the model as a new workbook of the user's; throws an AppError naming what is wrong with the request. */
  generate(user: AuthUser, body: GenerateFinancialModelBody, options: ModelGenerationOptions): Promise<FinancialModelResult>
}
