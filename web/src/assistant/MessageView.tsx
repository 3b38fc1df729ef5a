import { Check, CircleAlert, Loader2, X } from 'lucide-react'
import { lazy, Suspense } from 'react'
import type { AssistantController } from './assistant-controller'
import { ChangesetView } from './ChangesetView'
import type { AssistantMessage, Message, ModelBlock, StepLine } from './conversation'
import { FormulaCards } from './FormulaCards'
import { COPY_AND_CONTINUE, MODEL_CREATED_TITLE, WORKBOOK_SWITCHED_TITLE } from './texts'

interface MessageViewProps {
  message: Message
  assistant: AssistantController
  /** the workbook open in the grid */
  workbookId: string
  sending: boolean
}

const loadMarkdown = () => import('./MarkdownText')
/**
 * The Markdown renderer (about 160 KB of the bundle) is needed by no screen before the assistant
 * answers: it loads when the panel opens, and an answer arriving before it shows as plain text.
 */
const MarkdownText = lazy(loadMarkdown)
export const prefetchMarkdown = (): void => void loadMarkdown()

function StepIcon({ state }: { state: StepLine['state'] }) {
  if (state === 'running') return <Loader2 size={13} className="spin" aria-label="running" />
  if (state === 'ok') return <Check size={13} aria-label="done" />
  return <X size={13} aria-label="failed" />
}

/** The agent's tool calls in order, each with how it ended. */
function Steps({ steps }: { steps: readonly StepLine[] }) {
  return (
    <ol className="assistant-steps" aria-label="What the assistant did">
      {steps.map((step) => (
        <li key={step.id} className={`step step-${step.state}`}>
          <StepIcon state={step.state} />
          <span className="step-description">{step.description}</span>
          {step.state === 'failed' && step.error && <span className="step-error">: {step.error}</span>}
          {step.ms !== undefined && step.state !== 'running' && <span className="step-time">{step.ms < 1000 ? `${Math.round(step.ms)} ms` : `${(step.ms / 1000).toFixed(1)} s`}</span>}
        </li>
      ))}
    </ol>
  )
}

function ModelView({ model }: { model: ModelBlock }) {
  return (
    <section className="model-created" aria-label="New model">
      <ol className="model-steps" aria-label="Opening the model">
        {model.steps.map((step) => (
          <li key={step.label} className={`step step-${step.state === 'done' ? 'ok' : step.state === 'failed' ? 'failed' : step.state}`}>
            {step.state === 'running' ? <Loader2 size={13} className="spin" aria-hidden="true" /> : step.state === 'done' ? <Check size={13} aria-hidden="true" /> : <span className="step-pending" aria-hidden="true" />}
            <span>{step.label}</span>
          </li>
        ))}
      </ol>
      {model.switched && (
        <div className="model-created-notice" role="status">
          <strong>{MODEL_CREATED_TITLE}</strong>
          <span>
            {WORKBOOK_SWITCHED_TITLE}: {model.name} is open, with {model.sheets.join(', ')}.
          </span>
        </div>
      )}
      {model.warning && (
        <p className="model-warning" role="alert">
          {model.warning}
        </p>
      )}
    </section>
  )
}

function AssistantAnswer({ message, assistant, workbookId, sending }: { message: AssistantMessage } & Omit<MessageViewProps, 'message'>) {
  const block = message.changeset
  return (
    <div className={`assistant-message from-assistant status-${message.status}`}>
      {message.steps.length > 0 && <Steps steps={message.steps} />}
      {message.text && (
        <div className="assistant-text">
          <Suspense fallback={<p className="assistant-plain-text">{message.text}</p>}>
            <MarkdownText text={message.text} />
          </Suspense>
        </div>
      )}
      {message.status === 'streaming' && message.text === '' && message.steps.length === 0 && (
        <div className="typing" role="status" aria-label="Assistant is typing">
          <span />
          <span />
          <span />
        </div>
      )}
      {message.brief && !block && (
        <p className="assistant-brief" role="status">
          Changes so far: {message.brief.description}
        </p>
      )}
      {message.progress && (
        <div className="assistant-progress">
          <progress max={100} value={message.progress.percent} aria-label="Model generation progress" />
          <span>{message.progress.message}</span>
        </div>
      )}
      {message.status === 'stopped' && <p className="assistant-stopped">Stopped.</p>}
      {message.error && (
        <div className="assistant-error" role="alert">
          <p className="assistant-error-text">
            <CircleAlert size={14} aria-hidden="true" /> {message.error.text}
          </p>
          {message.error.hint && <p className="assistant-error-hint">{message.error.hint}</p>}
          <p className="assistant-tips-title">Tips:</p>
          <ul className="assistant-tips">
            {message.error.tips.map((tip) => (
              <li key={tip}>{tip}</li>
            ))}
          </ul>
        </div>
      )}
      {block && (
        <ChangesetView
          block={block}
          onItsWorkbook={block.changeset.workbookId === workbookId}
          busy={sending}
          onApply={(approve) => void assistant.applyChangeset(message.id, approve)}
          onDiscard={() => void assistant.discardChangeset(message.id)}
          onUndo={() => void assistant.undoChangeset(message.id)}
          onRerun={() => void assistant.rerun(message.id)}
          onSelectCell={(sheet, address) => assistant.selectCell(sheet, address)}
          chartData={(sheet, range) => assistant.chartData(sheet, range)}
        />
      )}
      {message.formulas && message.formulas.length > 0 && <FormulaCards formulas={message.formulas} onInsert={(formula) => assistant.insertFormula(formula)} />}
      {message.model && <ModelView model={message.model} />}
      {message.followUps && message.followUps.length > 0 && (
        <div className="assistant-follow-ups">
          {message.followUps.map((prompt) => (
            <button key={prompt} type="button" className="chip" onClick={() => assistant.suggest(prompt)}>
              {prompt}
            </button>
          ))}
        </div>
      )}
      {message.offer === 'rerun' && message.command && (
        <button type="button" className="button small" disabled={sending} onClick={() => void assistant.rerun(message.id)}>
          Run again
        </button>
      )}
      {message.offer === 'copy-default-workbook' && (
        <button type="button" className="button" disabled={sending} onClick={() => void assistant.copyDefaultWorkbookAndContinue(message.id)}>
          {COPY_AND_CONTINUE}
        </button>
      )}
      {message.modelLabel && message.status === 'done' && message.route !== 'notice' && <p className="assistant-model-label">{message.modelLabel}</p>}
    </div>
  )
}

export function MessageView(props: MessageViewProps) {
  const { message } = props
  if (message.role === 'user') {
    return (
      <div className="assistant-message from-user">
        <p>{message.text}</p>
      </div>
    )
  }
  return <AssistantAnswer {...props} message={message} />
}
