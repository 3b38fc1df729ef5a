/**
 * The generator on its own: a request no worker picks up answers 504 with its job's id once the wait
 * is over, and the job's progress is readable by its owner alone; without a generator the routes
 * answer 503; bad requests are 400 before anything is queued.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GENERATE_MODEL_QUEUE } from '@finsheet/contracts'
import { startAiTestApp, type AiTestApp } from '../testing/test-app.js'
import { FinancialModelGenerator } from './financial-model-generator.js'
import { progressMessage } from './model-jobs.js'

let withGenerator: AiTestApp
let without: AiTestApp

beforeAll(async () => {
  withGenerator = await startAiTestApp({ modelGenerator: (parts) => new FinancialModelGenerator({ ...parts, waitMs: 300 }) })
  without = await startAiTestApp()
})
afterAll(async () => {
  await withGenerator.close()
  await without.close()
})

async function post(app: AiTestApp, uid: string, url: string, payload: object) {
  const response = await app.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${await app.tokenFor(uid)}` }, payload })
  return { status: response.statusCode, json: response.json() }
}

async function get(app: AiTestApp, uid: string, url: string) {
  const response = await app.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${await app.tokenFor(uid)}` } })
  return { status: response.statusCode, json: response.json() }
}

describe('the model generator', () => {
  it('answers 504 naming the job when no worker finishes it in time; the owner reads its progress, no one else', async () => {
    const answer = await post(withGenerator, 'ada', '/generate-financial-model', { modelType: 'lbo', companyName: 'Acme' })
    expect(answer.status).toBe(504)
    expect(answer.json.error.code).toBe('MODEL_GENERATION_PENDING')
    const jobId = /job (model-[0-9a-f-]+)/.exec(answer.json.error.message)![1]
    const job = await get(withGenerator, 'ada', `/jobs/${jobId}`)
    expect(job).toMatchObject({ status: 200, json: { id: jobId, name: 'generate', state: 'waiting', progress: 0, attemptsMade: 0 } })
    expect((await get(withGenerator, 'eve', `/jobs/${jobId}`)).status).toBe(404)
    expect((await get(withGenerator, 'ada', '/jobs/model-nope')).status).toBe(404)
  })

  it('refuses a bad request before queueing anything', async () => {
    const bad = await post(withGenerator, 'ada', '/generate-financial-model', { modelType: 'dcf', companyName: 'Acme', parameters: { projectionYears: 40 } })
    expect(bad.status).toBe(400)
    expect(bad.json.error.message).toBe('projectionYears must be a whole number from 1 to 20; 40 is outside it')
    const unknown = await post(withGenerator, 'ada', '/generate-financial-model', { modelType: 'DCF', companyName: 'Acme' })
    expect(unknown.json.error.message).toBe('Unknown model type "DCF". Model types: dcf, lbo, three-statement, startup, saas, real-estate')
  })

  it('answers 503 on both routes where no generator is set up', async () => {
    expect((await post(without, 'ada', '/generate-financial-model', { modelType: 'dcf', companyName: 'Acme' })).json.error.code).toBe('MODEL_GENERATION_UNAVAILABLE')
    const viaAgent = await post(without, 'ada', '/process-action', { command: 'Create a DCF model for Acme', preferredModel: 'local' })
    expect(viaAgent.status).toBe(503)
  })

  it('words the stages of a job', () => {
    expect([0, 10, 40, 100].map((percent) => progressMessage(percent).message)).toEqual(['Waiting for a worker', 'Building the model', 'Writing the workbook', 'Model created'])
    expect(GENERATE_MODEL_QUEUE).toBe('ai.generate-model')
  })
})
