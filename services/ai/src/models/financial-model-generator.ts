/**
 * Generating a financial model as a new workbook: the request is checked (a 400 names what is
 * wrong), a hosted model may propose the company's assumptions, and the work runs as an
 * ai.generate-model job — in this process with the embedded queue, on the ai-worker containers with
 * Redis — while the request waits for it, passing its progress on.
 */
import { randomUUID } from 'node:crypto'
import { GENERATE_MODEL_QUEUE, type FinancialModelResult, type GenerateFinancialModelBody, type ModelGenerationProgress } from '@finsheet/contracts'
import type { AuthUser, JobQueues, Logger } from '@finsheet/platform'
import type { FinancialModelGenerator as ModelGeneratorSeam, ModelGenerationOptions } from '../agent/model-generator.js'
import { aiErrors } from '../errors.js'
import type { ModelRegistry } from '../providers/model-registry.js'
import type { UsageStore } from '../usage/usage-store.js'
import { proposeAssumptions } from './assumption-proposals.js'
import { MODEL_JOB_ATTEMPTS, progressMessage } from './model-jobs.js'
import { DEFAULT_MODEL_WAIT_MS } from './model-limits.js'
import { checkedBuild, readModelRequest, type ModelJobData, type ModelRequest } from './model-request.js'


export interface FinancialModelGeneratorDependencies {
  jobs: JobQueues
  /** The configured models, for assumption proposals; without it none are asked for. */
  registry?: ModelRegistry
  /** Where tokens spent on proposals are counted against the user's daily limit. */
  usage?: UsageStore
  logger?: Pick<Logger, 'info' | 'warn'>
  waitMs?: number
}

export class FinancialModelGenerator implements ModelGeneratorSeam {
  private readonly waitMs: number

  constructor(private readonly deps: FinancialModelGeneratorDependencies) {
    this.waitMs = deps.waitMs ?? DEFAULT_MODEL_WAIT_MS
  }

  async generate(user: AuthUser, body: GenerateFinancialModelBody, options: ModelGenerationOptions = {}): Promise<FinancialModelResult> {
    const request = readModelRequest(body)
    const report = progressReporter(options.onProgress)
    report(0)
    const parameters = await this.withProposals(user, request, body.model, options.signal)
    const data: ModelJobData = { userId: user.uid, modelType: request.modelType, companyName: request.companyName, parameters }
    const { id } = await this.queue().add('generate', data, { jobId: `model-${randomUUID()}`, attempts: MODEL_JOB_ATTEMPTS })
    return this.waitFor(id, report, options.signal)
  }

  private queue() {
    return this.deps.jobs.queue(GENERATE_MODEL_QUEUE)
  }

  /**
   * The request's parameters, under which a hosted model's proposals go when one was chosen. A
   * proposal that fails, or that makes the model contradict itself, is dropped: it was only advice.
   */
  private async withProposals(user: AuthUser, request: ModelRequest, model: string | undefined, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const registry = this.deps.registry
    if (!registry || model === undefined) return request.parameters
    let resolved
    try {
      resolved = registry.resolve(model)
    } catch {
      return request.parameters
    }
    if (resolved.kind !== 'remote') return request.parameters
    try {
      await this.deps.usage?.assertWithinDailyLimit(user.uid)
      const proposal = await proposeAssumptions(resolved.provider, resolved.option.value, { modelType: request.modelType, companyName: request.companyName, fixed: Object.keys(request.parameters) }, signal)
      await this.deps.usage?.record(user.uid, proposal.usage, { purpose: 'generate-financial-model', model: proposal.model, provider: resolved.provider.provider }).catch(() => undefined)
      const merged = { ...proposal.values, ...request.parameters }
      checkedBuild({ ...request, parameters: merged })
      this.deps.logger?.info({ userId: user.uid, modelType: request.modelType, proposed: Object.keys(proposal.values) }, 'model assumptions proposed')
      return merged
    } catch (error) {
      if (signal?.aborted) throw aiErrors.cancelled()
      this.deps.logger?.warn({ userId: user.uid, reason: (error as Error).message }, 'model assumptions not proposed; defaults kept')
      return request.parameters
    }
  }

  /** Waits for the job, passing its progress on; 504 when it outlasts the wait (it goes on and its workbook appears). */
  private async waitFor(id: string, report: (percent: number) => void, signal?: AbortSignal): Promise<FinancialModelResult> {
    const deadline = Date.now() + this.waitMs
    for (let wait = 10; ; wait = Math.min(wait * 2, 50)) {
      if (signal?.aborted) throw aiErrors.cancelled()
      const job = await this.queue().getJob<ModelJobData, FinancialModelResult>(id)
      if (job) {
        report(job.progress)
        if (job.state === 'completed' && job.result) return job.result
        if (job.state === 'failed') throw aiErrors.modelGenerationFailed(job.failedReason ?? 'the job failed')
      }
      if (Date.now() > deadline) throw aiErrors.modelGenerationPending(id)
      await new Promise((resolve) => setTimeout(resolve, wait))
    }
  }
}

/** Passes progress on when it moves forward. */
function progressReporter(onProgress: ((progress: ModelGenerationProgress) => void) | undefined): (percent: number) => void {
  let last = -1
  return (percent) => {
    if (!onProgress || percent <= last) return
    last = percent
    onProgress(progressMessage(percent))
  }
}
