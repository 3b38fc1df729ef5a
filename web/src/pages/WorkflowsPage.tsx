import type { AiModelOption, Workflow, WorkflowRun, WorkflowStepKind, WorkflowTemplate } from '@finsheet/contracts'
import { LOCAL_MODEL_OPTION, MAX_WORKFLOW_STEPS, WORKFLOW_STEP_KIND_LABELS, WORKFLOW_STEP_KINDS } from '@finsheet/contracts'
import { Link } from '@tanstack/react-router'
import { ArrowDown, ArrowUp, History, LayoutTemplate, Play, PlusCircle, Trash2, Undo2 } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useSession } from '../app/app-context'
import { loadModels } from '../assistant/assistant-api'
import { api } from '../app/services'
import { toast } from '../toasts/toast-store'
import { ConfirmDialog } from '../ui/ConfirmDialog'
import { plural } from '../ui/plural'
import { listWorkbooks } from '../visualizations/charts-api'
import { addStep, describeStep, draftBody, draftProblem, emptyDraft, formatDuration, moveStep, removeStep, stepTextLabel, updateStep, type WorkflowDraft } from '../workflows/workflow-form'
import { deleteWorkflow, isFinished, loadWorkflows, readRun, runWorkflow, saveWorkflow, undoRun } from '../workflows/workflows-api'
import { errorText } from './error-text'
import { LoadProblem } from './LoadProblem'
import { SelectField } from './SelectField'
import { useRemote } from './use-remote'
import { chosenWorkbookId } from './workbook-choice'
import { WorkbookPicker } from './WorkbookPicker'
import './screens.css'

/** How often a running workflow's progress is read. */
const RUN_POLL_MS = 500

const STATUS_LABELS: Record<WorkflowRun['status'], string> = { queued: 'Queued', running: 'Running', completed: 'Completed', failed: 'Failed' }

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })

function RunStatus({ run }: { run: WorkflowRun }) {
  return <span className={`badge run-${run.status}`}>{STATUS_LABELS[run.status]}</span>
}

function RunProgress({ run }: { run: WorkflowRun }) {
  const step = run.currentStep === null ? null : run.steps[run.currentStep]
  const label = `Progress of ${run.workflowName}`
  return (
    <div>
      <div className="progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={run.progress}>
        <div className="progress-fill" style={{ width: `${run.progress}%` }} />
        <span className="progress-text">{run.progress}%</span>
      </div>
      <p className="muted" role="status">
        {run.status === 'queued' ? 'Waiting to start…' : step ? `Step ${(run.currentStep ?? 0) + 1} of ${run.steps.length}: ${describeStep(step)}` : 'Finishing…'}
      </p>
    </div>
  )
}

/** The form that makes or changes a workflow: a name, a description and its steps. */
function WorkflowForm({ initial, editing, models, onSaved, onCancel }: { initial: WorkflowDraft; editing: Workflow | null; models: readonly AiModelOption[]; onSaved(): void; onCancel(): void }) {
  const [draft, setDraft] = useState(initial)
  const [problem, setProblem] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const nameRef = useRef<HTMLInputElement>(null)
  useEffect(() => nameRef.current?.focus(), [])

  const save = async () => {
    const local = draftProblem(draft)
    if (local) return setProblem(local)
    setSaving(true)
    try {
      await saveWorkflow(api, draftBody(draft), editing?.id)
      toast({ title: editing ? 'Workflow saved' : 'Workflow created', description: draft.name.trim(), variant: 'success' })
      onSaved()
    } catch (error) {
      setProblem(errorText(error, 'The workflow could not be saved'))
    } finally {
      setSaving(false)
    }
  }

  return (
    <section className="card workflow-form" aria-labelledby="workflow-form-title">
      <h2 id="workflow-form-title" className="section-title first">
        {editing ? `Edit ${editing.name}` : 'New workflow'}
      </h2>
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault()
          void save()
        }}
      >
        <label className="field">
          <span>Name</span>
          <input ref={nameRef} value={draft.name} maxLength={120} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
        </label>
        <label className="field">
          <span>Description</span>
          <input value={draft.description} maxLength={500} onChange={(e) => setDraft({ ...draft, description: e.target.value })} />
        </label>
        <SelectField label="Model for the commands" value={draft.model} onChange={(model) => setDraft({ ...draft, model })}>
          {!models.some((model) => model.value === draft.model) && <option value={draft.model}>{draft.model === LOCAL_MODEL_OPTION.value ? LOCAL_MODEL_OPTION.label : draft.model}</option>}
          {models
            .filter((model) => model.available || model.value === draft.model)
            .map((model) => (
              <option key={model.value} value={model.value}>
                {model.label}
              </option>
            ))}
        </SelectField>
        <ol className="workflow-steps">
          {draft.steps.map((step, index) => {
            const textLabel = stepTextLabel(step.kind)
            return (
              <li key={index} className="workflow-step">
                <label className="field">
                  <span>Step {index + 1}</span>
                  <select value={step.kind} onChange={(e) => setDraft(updateStep(draft, index, { kind: e.target.value as WorkflowStepKind }))}>
                    {WORKFLOW_STEP_KINDS.map((kind) => (
                      <option key={kind} value={kind}>
                        {WORKFLOW_STEP_KIND_LABELS[kind]}
                      </option>
                    ))}
                  </select>
                </label>
                {textLabel && (
                  <label className="field workflow-step-text">
                    <span>{textLabel}</span>
                    <input
                      value={step.text}
                      maxLength={2000}
                      placeholder={step.kind === 'command' ? 'grow revenue 10% a year in years 2 to 5' : 'Before the monthly report'}
                      onChange={(e) => setDraft(updateStep(draft, index, { text: e.target.value }))}
                    />
                  </label>
                )}
                <div className="workflow-step-buttons">
                  <button type="button" className="button small" aria-label={`Move step ${index + 1} up`} disabled={index === 0} onClick={() => setDraft(moveStep(draft, index, -1))}>
                    <ArrowUp size={14} aria-hidden="true" />
                  </button>
                  <button type="button" className="button small" aria-label={`Move step ${index + 1} down`} disabled={index === draft.steps.length - 1} onClick={() => setDraft(moveStep(draft, index, 1))}>
                    <ArrowDown size={14} aria-hidden="true" />
                  </button>
                  <button type="button" className="button small" aria-label={`Remove step ${index + 1}`} onClick={() => setDraft(removeStep(draft, index))}>
                    <Trash2 size={14} aria-hidden="true" />
                  </button>
                </div>
              </li>
            )
          })}
        </ol>
        <div className="button-row">
          <button type="button" className="button" disabled={draft.steps.length >= MAX_WORKFLOW_STEPS} onClick={() => setDraft(addStep(draft))}>
            <PlusCircle size={14} aria-hidden="true" /> Add step
          </button>
          <span className="muted">{`${draft.steps.length} of at most ${MAX_WORKFLOW_STEPS} steps`}</span>
        </div>
        {problem && (
          <p className="alert error" role="alert">
            {problem}
          </p>
        )}
        <div className="button-row">
          <button type="submit" className="button primary" disabled={saving}>
            {editing ? 'Save workflow' : 'Create workflow'}
          </button>
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  )
}

/** One run of the history: its workbook, status, duration and what each step did. */
function RunEntry({ run, onUndone }: { run: WorkflowRun; onUndone(): void }) {
  const [undoing, setUndoing] = useState(false)
  const changed = run.steps.some((step) => step.changeId !== null)
  const undo = async () => {
    setUndoing(true)
    try {
      await undoRun(api, run.id)
      toast({ title: 'Run undone', description: `${run.workflowName} on ${run.workbookName}`, variant: 'success' })
      onUndone()
    } catch (error) {
      toast({ title: 'Could not undo the run', description: errorText(error), variant: 'destructive' })
    } finally {
      setUndoing(false)
    }
  }
  return (
    <li className="card run-entry" aria-label={`${run.workflowName} on ${run.workbookName}`}>
      <div className="run-head">
        <h3>{run.workflowName}</h3>
        <RunStatus run={run} />
        {run.undone && <span className="badge">Undone</span>}
      </div>
      <p className="muted">
        on{' '}
        <Link to="/workbooks/$workbookId" params={{ workbookId: run.workbookId }}>
          {run.workbookName}
        </Link>
        {' · '}
        {when(run.createdAt)}
        {run.durationMs !== null && ` · ${formatDuration(run.durationMs)}`}
      </p>
      {!isFinished(run) && <RunProgress run={run} />}
      {run.error && (
        <p className="alert error" role="alert">
          {run.error}
        </p>
      )}
      <ol className="run-steps">
        {run.steps.map((step, index) => (
          <li key={index} className={`run-step step-${step.status}`}>
            <span className="run-step-title">{describeStep(step)}</span>
            <span className="muted">
              {' — '}
              {step.status}
              {step.durationMs !== null && `, ${formatDuration(step.durationMs)}`}
            </span>
            {step.changesetId && step.workbookId && (
              <p>
                <Link to="/workbooks/$workbookId" params={{ workbookId: step.workbookId }}>
                  {`Changeset ${step.changesetId.slice(0, 8)}: ${plural(step.cellsChanged, 'cell')} changed`}
                </Link>
              </p>
            )}
            {step.importedWorkbookId && (
              <p>
                <Link to="/workbooks/$workbookId" params={{ workbookId: step.importedWorkbookId }}>
                  Open the imported workbook
                </Link>
              </p>
            )}
            {step.message && step.kind !== 'command' && <p className="muted">{step.message}</p>}
            {step.findings && step.findings.length > 0 && (
              <details>
                <summary>{plural(step.findings.length, 'finding')}</summary>
                <ul className="run-findings">
                  {step.findings.map((finding, i) => (
                    <li key={i}>
                      <strong>{finding.severity}</strong> {finding.cells[0] ?? ''}: {finding.message} <span className="muted">{finding.fix}</span>
                    </li>
                  ))}
                </ul>
              </details>
            )}
            {step.error && step.status === 'failed' && <p className="field-error">{step.error}</p>}
          </li>
        ))}
      </ol>
      {isFinished(run) && changed && !run.undone && (
        <button type="button" className="button small" disabled={undoing} onClick={() => void undo()}>
          <Undo2 size={14} aria-hidden="true" /> Undo run
        </button>
      )}
    </li>
  )
}

/**
 * Workflows: the user's saved lists of steps (assistant commands, audits, imports, versions), run on
 * a chosen workbook as a job with progress, the built-in templates, and the history of runs.
 */
export function WorkflowsPage() {
  const [session] = useSession()
  const [data, reload] = useRemote((signal) => loadWorkflows(api, signal), [])
  const [workbooks] = useRemote((signal) => listWorkbooks(api, signal), [])
  const [models] = useRemote(() => loadModels(api), [])
  const [chosen, setChosen] = useState<string | null>(null)
  const [form, setForm] = useState<{ draft: WorkflowDraft; editing: Workflow | null } | null>(null)
  const [active, setActive] = useState<WorkflowRun[]>([])
  const [deleting, setDeleting] = useState<Workflow | null>(null)
  const templatesRef = useRef<HTMLHeadingElement>(null)
  const recentRef = useRef<HTMLHeadingElement>(null)

  const workbookList = workbooks.data ?? []
  const workbookId = chosenWorkbookId(workbookList, chosen, session.session?.activeWorkbook)
  const workflows = data.data?.workflows ?? []
  const templates = data.data?.templates ?? []
  const runs = data.data?.runs ?? []

  // Runs still going when the page loads are followed too.
  useEffect(() => {
    const going = runs.filter((candidate) => !isFinished(candidate))
    if (going.length > 0) setActive((current) => [...current, ...going.filter((candidate) => !current.some((known) => known.id === candidate.id))])
  }, [data.data])

  // Running workflows are read until they finish; then the lists are read again.
  const activeIds = active.map((run) => run.id).join(',')
  useEffect(() => {
    if (activeIds === '') return
    const controller = new AbortController()
    const timer = setInterval(() => {
      void (async () => {
        const read = await Promise.all(active.map((run) => readRun(api, run.id, controller.signal).catch(() => run)))
        const done = read.filter(isFinished)
        for (const run of done) {
          if (run.status === 'completed') toast({ title: 'Workflow completed', description: `${run.workflowName} on ${run.workbookName}`, variant: 'success' })
          else toast({ title: 'Workflow failed', description: run.error ?? run.workflowName, variant: 'destructive' })
        }
        setActive(read.filter((run) => !isFinished(run)))
        if (done.length > 0) void reload()
      })()
    }, RUN_POLL_MS)
    return () => {
      clearInterval(timer)
      controller.abort()
    }
  }, [activeIds])

  const openForm = (draft: WorkflowDraft, editing: Workflow | null = null) => setForm({ draft, editing })
  const adoptTemplate = async (template: WorkflowTemplate) => {
    try {
      await saveWorkflow(api, { name: template.name, description: template.description, steps: template.steps, templateId: template.id })
      toast({ title: 'Workflow created', description: `${template.name}, from the template`, variant: 'success' })
      await reload()
    } catch (error) {
      toast({ title: 'Could not create the workflow', description: errorText(error), variant: 'destructive' })
    }
  }
  const run = async (workflow: Workflow) => {
    if (!workbookId) return
    try {
      const started = await runWorkflow(api, workflow.id, workbookId)
      setActive((runs) => [...runs, started])
      await reload()
    } catch (error) {
      toast({ title: 'Could not run the workflow', description: errorText(error), variant: 'destructive' })
    }
  }
  const remove = async (workflow: Workflow) => {
    setDeleting(null)
    try {
      await deleteWorkflow(api, workflow.id)
      toast({ title: 'Workflow deleted', description: workflow.name, variant: 'success' })
      await reload()
    } catch (error) {
      toast({ title: 'Could not delete the workflow', description: errorText(error), variant: 'destructive' })
    }
  }
  const activeRun = (workflow: Workflow) => active.find((candidate) => candidate.workflowId === workflow.id)
  // The newest state of each run: a running one as last read.
  const shownRuns = runs.map((candidate) => active.find((running) => running.id === candidate.id) ?? candidate)

  return (
    <div className="page wide-page">
      <header className="page-header">
        <h1>Workflows</h1>
        <p>Automate recurring reports and checks.</p>
      </header>

      {data.status === 'error' && <LoadProblem message="Your workflows could not be loaded." onRetry={() => void reload()} />}

      <div className="action-cards">
        <button type="button" className="card action-card" onClick={() => openForm(emptyDraft())}>
          <PlusCircle size={22} aria-hidden="true" />
          <span className="action-card-title">Create New Workflow</span>
          <span className="action-card-text">Name it and list its steps: assistant commands, audits, imports and versions.</span>
        </button>
        <button type="button" className="card action-card" onClick={() => templatesRef.current?.scrollIntoView({ behavior: 'smooth' })}>
          <LayoutTemplate size={22} aria-hidden="true" />
          <span className="action-card-title">Browse Templates</span>
          <span className="action-card-text">{`${plural(templates.length, 'ready workflow')} to make your own.`}</span>
        </button>
        <button type="button" className="card action-card" onClick={() => recentRef.current?.scrollIntoView({ behavior: 'smooth' })}>
          <History size={22} aria-hidden="true" />
          <span className="action-card-title">Recent Workflows</span>
          <span className="action-card-text">{runs.length === 0 ? 'No runs yet.' : `${plural(runs.length, 'run')}, newest first.`}</span>
        </button>
      </div>

      {form && (
        <WorkflowForm
          key={form.editing?.id ?? 'new'}
          initial={form.draft}
          editing={form.editing}
          models={models.data?.models ?? []}
          onCancel={() => setForm(null)}
          onSaved={() => {
            setForm(null)
            void reload()
          }}
        />
      )}

      <div className="section-row">
        <h2 className="section-title">Your workflows</h2>
        {workbookList.length > 0 && <WorkbookPicker workbooks={workbookList} value={workbookId} onChange={setChosen} />}
      </div>
      {data.status === 'ready' && workflows.length === 0 ? (
        <p className="empty-state">No workflows yet. Create one, or start from a template below.</p>
      ) : (
        <ul className="workflow-list" aria-label="Your workflows">
          {workflows.map((workflow) => {
            const running = activeRun(workflow)
            return (
              <li key={workflow.id} className="card saved-workflow" aria-label={workflow.name}>
                <div className="saved-workflow-head">
                  <div>
                    <h3>{workflow.name}</h3>
                    {workflow.description && <p className="muted">{workflow.description}</p>}
                  </div>
                  <div className="button-row">
                    <button type="button" className="button primary small" disabled={!workbookId || running !== undefined} onClick={() => void run(workflow)}>
                      <Play size={14} aria-hidden="true" /> Run
                    </button>
                    <button type="button" className="button small" onClick={() => openForm({ name: workflow.name, description: workflow.description, model: workflow.model, steps: workflow.steps }, workflow)}>
                      Edit
                    </button>
                    <button type="button" className="button small" aria-label={`Delete ${workflow.name}`} onClick={() => setDeleting(workflow)}>
                      <Trash2 size={14} aria-hidden="true" />
                    </button>
                  </div>
                </div>
                <ol className="saved-workflow-steps">
                  {workflow.steps.map((step, index) => (
                    <li key={index}>{describeStep(step)}</li>
                  ))}
                </ol>
                {running ? (
                  <RunProgress run={running} />
                ) : (
                  <p className="muted">
                    {workflow.lastRun ? (
                      <>
                        Last run {when(workflow.lastRun.createdAt)} on {workflow.lastRun.workbookName}: <RunStatus run={workflow.lastRun} />
                      </>
                    ) : (
                      'Not run yet.'
                    )}
                  </p>
                )}
              </li>
            )
          })}
        </ul>
      )}
      {workbooks.status === 'ready' && workbookList.length === 0 && (
        <p className="empty-state">
          Workflows run on a workbook. <Link to="/models">Start from a template</Link> or <Link to="/files">upload a file</Link> first.
        </p>
      )}

      <h2 className="section-title" ref={templatesRef} id="workflow-templates">
        Templates
      </h2>
      <ul className="workflow-list" aria-label="Templates">
        {templates.map((template) => (
          <li key={template.id} className="card workflow-row">
            <LayoutTemplate size={22} aria-hidden="true" className="sheet-icon" />
            <div>
              <h3>{template.name}</h3>
              <p className="muted">{template.description}</p>
              <p className="muted">{template.steps.map(describeStep).join(' → ')}</p>
            </div>
            <button type="button" className="button small" aria-label={`Use template ${template.name}`} onClick={() => void adoptTemplate(template)}>
              Use template
            </button>
          </li>
        ))}
      </ul>

      <h2 className="section-title" ref={recentRef} id="recent-workflows">
        Recent Workflows
      </h2>
      {data.status === 'ready' && shownRuns.length === 0 ? (
        <p className="empty-state">No runs yet: run a workflow on one of your workbooks to see it here.</p>
      ) : (
        <ul className="workflow-list" aria-label="Recent Workflows">
          {shownRuns.map((entry) => (
            <RunEntry key={entry.id} run={entry} onUndone={() => void reload()} />
          ))}
        </ul>
      )}

      <ConfirmDialog
        open={deleting !== null}
        title="Delete workflow"
        message={deleting ? `Delete ${deleting.name} and its run history? The changes its runs made stay in the workbooks.` : ''}
        confirmLabel="Delete"
        destructive
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </div>
  )
}
