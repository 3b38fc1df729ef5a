/**
 * A workflow as the user sent it, checked before anything is stored: a name, 1 to MAX_WORKFLOW_STEPS
 * steps of a known kind, a command step with its command. Each refusal is a 400 saying what to fix.
 */
import {
  LOCAL_MODEL,
  MAX_WORKFLOW_DESCRIPTION_LENGTH,
  MAX_WORKFLOW_NAME_LENGTH,
  MAX_WORKFLOW_STEP_TEXT_LENGTH,
  MAX_WORKFLOW_STEPS,
  WORKFLOW_STEP_KINDS,
  type WorkflowBody,
  type WorkflowStep,
  type WorkflowStepKind,
} from '@finsheet/contracts'
import { AppError } from '@finsheet/platform'

const invalid = (message: string) => new AppError('INVALID_WORKFLOW', 400, message)

export interface WorkflowInput {
  name: string
  description: string
  model: string
  steps: WorkflowStep[]
  templateId: string | null
}

const isKind = (kind: string): kind is WorkflowStepKind => (WORKFLOW_STEP_KINDS as readonly string[]).includes(kind)

export function readWorkflowBody(body: WorkflowBody, knownModels: (model: string) => void): WorkflowInput {
  const name = body.name.trim()
  if (name === '') throw invalid('Name the workflow: name is empty')
  if (name.length > MAX_WORKFLOW_NAME_LENGTH) throw invalid(`The name has ${name.length} characters; at most ${MAX_WORKFLOW_NAME_LENGTH} are accepted`)
  const description = (body.description ?? '').trim()
  if (description.length > MAX_WORKFLOW_DESCRIPTION_LENGTH) throw invalid(`The description has ${description.length} characters; at most ${MAX_WORKFLOW_DESCRIPTION_LENGTH} are accepted`)
  if (body.steps.length === 0) throw invalid('Add at least one step to the workflow')
  if (body.steps.length > MAX_WORKFLOW_STEPS) throw invalid(`The workflow has ${body.steps.length} steps; at most ${MAX_WORKFLOW_STEPS} are accepted`)
  const steps = body.steps.map((step, index): WorkflowStep => {
    const number = index + 1
    if (!isKind(step.kind)) throw invalid(`Step ${number}: unknown kind ${JSON.stringify(step.kind.slice(0, 40))}. The kinds are ${WORKFLOW_STEP_KINDS.join(', ')}`)
    const text = (step.text ?? '').trim()
    if (text.length > MAX_WORKFLOW_STEP_TEXT_LENGTH) throw invalid(`Step ${number}: the text has ${text.length} characters; at most ${MAX_WORKFLOW_STEP_TEXT_LENGTH} are accepted`)
    if (step.kind === 'command' && text === '') throw invalid(`Step ${number}: write the command the assistant carries out`)
    return { kind: step.kind, text: step.kind === 'command' || step.kind === 'snapshot' ? text : '' }
  })
  const model = body.model ?? LOCAL_MODEL
  // An unknown model is refused now rather than when the workflow runs.
  knownModels(model)
  return { name, description, model, steps, templateId: body.templateId ?? null }
}
