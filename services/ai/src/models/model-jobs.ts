/**
 * The ai.generate-model job: builds the model for the job's user and stores it as a new workbook of
 * theirs, flagged as AI-generated, in one write. Idempotent by job id: the import carries an id made
 * from it, and the spreadsheet service stores one workbook per id, so a retried run (even one whose
 * first run stored the workbook and died before saying so) answers with the first run's workbook.
 */
import { GENERATE_MODEL_QUEUE, type FinancialModelResult, type ModelGenerationProgress } from '@finsheet/contracts'
import { AppError, UnrecoverableJobError, type JobProcessor, type JobQueues, type JobWorker, type Logger, type UserTokenSource } from '@finsheet/platform'
import { buildFinancialModel, ModelParameterError, templateSheets } from '@finsheet/workbook'
import type { SpreadsheetClient } from '../clients/spreadsheet-client.js'
import type { ModelJobData } from './model-request.js'

/** Runs a generation job gets in all. */
export const MODEL_JOB_ATTEMPTS = 3

/** Where a job has got to, by its progress: what the panel shows while it waits. */
const STAGES: ReadonlyArray<[atLeast: number, message: string]> = [
  [100, 'Model created'],
  [40, 'Writing the workbook'],
  [10, 'Building the model'],
  [0, 'Waiting for a worker'],
]

export function progressMessage(percent: number): ModelGenerationProgress {
  return { percent, message: STAGES.find(([atLeast]) => percent >= atLeast)?.[1] ?? 'Waiting for a worker' }
}

export interface ModelProcessorDependencies {
  spreadsheet: Pick<SpreadsheetClient, 'importWorkbook'>
  /** Tokens for the job's user, to store the workbook as theirs. */
  userTokens: UserTokenSource
}

/** One import per job: a retried run repeats it, another job gets its own. */
export const modelImportId = (jobId: string) => `model:${jobId}`

export function createModelProcessor(deps: ModelProcessorDependencies): JobProcessor<ModelJobData, FinancialModelResult> {
  return async (job) => {
    const { userId, modelType, companyName, parameters } = job.data
    await job.updateProgress(10)
    let built
    try {
      built = buildFinancialModel(modelType, companyName, parameters)
    } catch (error) {
      // Checked when the job was queued; a model that no longer builds will not build on a retry either.
      if (error instanceof ModelParameterError) throw new UnrecoverableJobError(error.message)
      throw error
    }
    await job.updateProgress(40)
    const token = await deps.userTokens.tokenFor(userId)
    let answer
    try {
      answer = await deps.spreadsheet.importWorkbook(token, {
        name: built.name,
        sheets: templateSheets(built.template),
        isAIGenerated: true,
        iterativeCalculation: built.template.iterativeCalculation === true,
        importId: modelImportId(job.id),
      })
    } catch (error) {
      // The spreadsheet service refusing the workbook (4xx) will refuse it again.
      if (error instanceof AppError && error.statusCode < 500) throw new UnrecoverableJobError(error.message)
      throw error
    }
    await job.updateProgress(100)
    return {
      success: true,
      workbookId: answer.workbookId,
      cellsCreated: answer.cellCount,
      model: { name: built.name, modelType, company: companyName, sheets: answer.workbook.sheets },
    }
  }
}

/** Runs ai.generate-model jobs in this process until closed, logging each outcome. */
export function startModelWorker(jobs: JobQueues, processor: JobProcessor<ModelJobData, FinancialModelResult>, options: { concurrency?: number; logger?: Pick<Logger, 'info' | 'warn'> } = {}): JobWorker {
  const logged: JobProcessor<ModelJobData, FinancialModelResult> = async (job) => {
    const context = { jobId: job.id, modelType: job.data.modelType, attempt: job.attempt }
    const started = performance.now()
    try {
      const result = await processor(job)
      options.logger?.info({ ...context, workbookId: result.workbookId, cells: result.cellsCreated, ms: Math.round(performance.now() - started) }, 'model generated')
      return result
    } catch (error) {
      options.logger?.warn({ ...context, reason: (error as Error).message }, 'model generation failed')
      throw error
    }
  }
  return jobs.queue(GENERATE_MODEL_QUEUE).process(logged, { concurrency: options.concurrency ?? 1 })
}
