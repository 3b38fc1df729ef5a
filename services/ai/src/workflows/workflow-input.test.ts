import { MAX_WORKFLOW_STEPS, WORKFLOW_TEMPLATES } from '@finsheet/contracts'
import { AppError } from '@finsheet/platform'
import { describe, expect, it } from 'vitest'
import { readWorkflowBody } from './workflow-input.js'

const anyModel = () => undefined
const refusal = (body: Parameters<typeof readWorkflowBody>[0]) => {
  try {
    readWorkflowBody(body, anyModel)
  } catch (error) {
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).statusCode).toBe(400)
    return (error as AppError).message
  }
  throw new Error('accepted')
}

describe('a workflow as sent', () => {
  it('is trimmed, keeps text only for the kinds that use it, and runs on the offline planner by default', () => {
    expect(readWorkflowBody({ name: ' Close ', steps: [{ kind: 'audit', text: 'ignored' }, { kind: 'command', text: ' sum column B ' }, { kind: 'snapshot' }] }, anyModel)).toEqual({
      name: 'Close',
      description: '',
      model: 'local',
      steps: [
        { kind: 'audit', text: '' },
        { kind: 'command', text: 'sum column B' },
        { kind: 'snapshot', text: '' },
      ],
      templateId: null,
    })
  })

  it('refuses each mistake with a message saying what to fix', () => {
    expect(refusal({ name: '', steps: [{ kind: 'audit' }] })).toMatch(/name is empty/)
    expect(refusal({ name: 'x'.repeat(121), steps: [{ kind: 'audit' }] })).toMatch(/121 characters; at most 120/)
    expect(refusal({ name: 'A', steps: [] })).toBe('Add at least one step to the workflow')
    expect(refusal({ name: 'A', steps: Array.from({ length: MAX_WORKFLOW_STEPS + 1 }, () => ({ kind: 'audit' })) })).toBe('The workflow has 21 steps; at most 20 are accepted')
    expect(refusal({ name: 'A', steps: [{ kind: 'email' }] })).toBe('Step 1: unknown kind "email". The kinds are command, audit, import, snapshot')
    expect(refusal({ name: 'A', steps: [{ kind: 'audit' }, { kind: 'command' }] })).toBe('Step 2: write the command the assistant carries out')
  })

  it('accepts every built-in template as it is', () => {
    for (const template of WORKFLOW_TEMPLATES) expect(readWorkflowBody({ name: template.name, steps: template.steps }, anyModel).steps).toEqual(template.steps)
  })
})
