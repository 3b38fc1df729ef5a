import { MAX_WORKFLOW_STEPS } from '@finsheet/contracts'
import { describe, expect, it } from 'vitest'
import { addStep, describeStep, draftBody, draftProblem, emptyDraft, formatDuration, moveStep, removeStep, updateStep } from './workflow-form'

describe('the workflow form', () => {
  it('adds, edits, moves and removes steps, and keeps them within the limit', () => {
    let draft = { ...emptyDraft(), name: 'Close' }
    draft = updateStep(draft, 0, { text: 'make row 1 bold' })
    draft = addStep(draft, 'audit')
    draft = addStep(draft, 'snapshot')
    draft = updateStep(draft, 2, { text: 'Closed' })
    expect(draft.steps.map((step) => step.kind)).toEqual(['command', 'audit', 'snapshot'])
    draft = moveStep(draft, 2, -1)
    expect(draft.steps.map((step) => step.kind)).toEqual(['command', 'snapshot', 'audit'])
    expect(moveStep(draft, 0, -1)).toBe(draft)
    expect(moveStep(draft, 2, 1)).toBe(draft)
    draft = removeStep(draft, 0)
    expect(draft.steps.map(describeStep)).toEqual(['Save a version: Closed', 'Audit the workbook'])
    let full = draft
    for (let i = 0; i < 30; i++) full = addStep(full, 'audit')
    expect(full.steps).toHaveLength(MAX_WORKFLOW_STEPS)
  })

  it('says what keeps a draft from being saved, and sends only the text a kind uses', () => {
    expect(draftProblem(emptyDraft())).toBe('Name the workflow.')
    expect(draftProblem({ ...emptyDraft(), name: 'X' })).toBe('Step 1: write the command the assistant carries out.')
    expect(draftProblem({ name: 'X', description: '', model: 'local', steps: [] })).toBe('Add at least one step.')
    const draft = { name: ' Check ', description: '', model: 'local', steps: [{ kind: 'audit' as const, text: 'left over' }, { kind: 'command' as const, text: ' sum column B ' }] }
    expect(draftProblem(draft)).toBeNull()
    expect(draftBody(draft)).toEqual({ name: 'Check', description: '', model: 'local', steps: [{ kind: 'audit', text: '' }, { kind: 'command', text: 'sum column B' }] })
    expect(formatDuration(850)).toBe('850 ms')
    expect(formatDuration(2345)).toBe('2.3 s')
  })
})
