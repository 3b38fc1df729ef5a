/**
 * The Create New Workflow form as data: a name, a description and steps added, removed and moved.
 * The service checks the workflow again; the form says at once what is missing.
 */
import { LOCAL_MODEL, MAX_WORKFLOW_STEPS, WORKFLOW_STEP_KIND_LABELS, type WorkflowBody, type WorkflowStep, type WorkflowStepKind } from '@finsheet/contracts'

export interface WorkflowDraft {
  name: string
  description: string
  /** The model the command steps run with. */
  model: string
  steps: WorkflowStep[]
  templateId?: string
}

export const emptyDraft = (): WorkflowDraft => ({ name: '', description: '', model: LOCAL_MODEL, steps: [{ kind: 'command', text: '' }] })

export function addStep(draft: WorkflowDraft, kind: WorkflowStepKind = 'command'): WorkflowDraft {
  if (draft.steps.length >= MAX_WORKFLOW_STEPS) return draft
  return { ...draft, steps: [...draft.steps, { kind, text: '' }] }
}

export function removeStep(draft: WorkflowDraft, index: number): WorkflowDraft {
  return { ...draft, steps: draft.steps.filter((_, i) => i !== index) }
}

/** Moves a step up (-1) or down (+1); a step at the edge stays. */
export function moveStep(draft: WorkflowDraft, index: number, by: -1 | 1): WorkflowDraft {
  const to = index + by
  if (to < 0 || to >= draft.steps.length) return draft
  const steps = [...draft.steps]
  ;[steps[index], steps[to]] = [steps[to], steps[index]]
  return { ...draft, steps }
}

export function updateStep(draft: WorkflowDraft, index: number, patch: Partial<WorkflowStep>): WorkflowDraft {
  return { ...draft, steps: draft.steps.map((step, i) => (i === index ? { ...step, ...patch } : step)) }
}

/** What keeps the draft from being saved, or null. */
export function draftProblem(draft: WorkflowDraft): string | null {
  if (draft.name.trim() === '') return 'Name the workflow.'
  if (draft.steps.length === 0) return 'Add at least one step.'
  const blank = draft.steps.findIndex((step) => step.kind === 'command' && step.text.trim() === '')
  if (blank >= 0) return `Step ${blank + 1}: write the command the assistant carries out.`
  return null
}

export function draftBody(draft: WorkflowDraft): WorkflowBody {
  return {
    name: draft.name.trim(),
    description: draft.description.trim(),
    model: draft.model,
    steps: draft.steps.map((step) => ({ kind: step.kind, text: step.kind === 'command' || step.kind === 'snapshot' ? step.text.trim() : '' })),
    ...(draft.templateId ? { templateId: draft.templateId } : {}),
  }
}

/** A step as the lists show it: its kind, and its text where it has one. */
export function describeStep(step: WorkflowStep): string {
  const label = WORKFLOW_STEP_KIND_LABELS[step.kind]
  return step.text === '' ? label : `${label}: ${step.text}`
}

/** What the text field of a step asks for; null for the kinds without text. */
export function stepTextLabel(kind: WorkflowStepKind): string | null {
  if (kind === 'command') return 'Command'
  if (kind === 'snapshot') return 'Version message'
  return null
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return ''
  if (ms < 1000) return `${ms} ms`
  return `${(ms / 1000).toFixed(1)} s`
}
