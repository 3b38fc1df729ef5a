/** The progress of a model generation job, for a client that stopped waiting for it. */
import { GENERATE_MODEL_QUEUE, JobStatusResponse, type FinancialModelResult } from '@finsheet/contracts'
import { currentUser, errorResponses, type JobQueues, type ServiceApp } from '@finsheet/platform'
import { Type } from 'typebox'
import { aiErrors } from '../errors.js'
import type { ModelJobData } from '../models/model-request.js'

export function modelRoutes(app: ServiceApp, deps: { jobs: JobQueues }) {
  app.get(
    '/jobs/:id',
    {
      schema: {
        tags: ['models'],
        summary: "A model generation job's state and progress (0-100), and its model result once completed; someone else's job answers 404",
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: { 200: JobStatusResponse, ...errorResponses },
      },
    },
    async (request) => {
      const job = await deps.jobs
        .queue(GENERATE_MODEL_QUEUE)
        .getJob<ModelJobData, FinancialModelResult>(request.params.id)
        .catch(() => null)
      if (!job || job.data.userId !== currentUser(request).uid) throw aiErrors.jobNotFound()
      return {
        id: job.id,
        name: job.name,
        state: job.state,
        progress: job.progress,
        attemptsMade: job.attemptsMade,
        ...(job.result !== undefined ? { result: job.result } : {}),
        ...(job.failedReason ? { failedReason: job.failedReason } : {}),
      }
    },
  )
}
