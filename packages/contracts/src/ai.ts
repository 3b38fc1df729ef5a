import { Type, type Static } from 'typebox'
import { StrictObject } from './common.js'
import { AuditFinding } from './agent.js'
import { PdfEntry } from './files.js'
import { CellType, CellValue } from './spreadsheet.js'
import type { AI_PROVIDERS} from './constants.js';
import { DEFAULT_AI_MODEL, MAX_ASSISTANT_MESSAGE_LENGTH, MAX_CHAT_HISTORY, MAX_FORMULA_LENGTH, WORKFLOW_STEP_KINDS } from './constants.js'

/*
 * The AI service's API: the model list, chat (whole or streamed), formula suggestions, and the
 * spreadsheet service's formula evaluation they rely on. Paths are relative to /api/ai unless noted.
 */

// ---- providers and models -----------------------------------------------------------------------

/** Who serves a model: the model picker groups by it, in this order. */
export const AiProvider = Type.Union([
  Type.Literal('anthropic'),
  Type.Literal('openai'),
  Type.Literal('vertex'),
  Type.Literal('openai-compatible'),
  Type.Literal('local'),
])
export type AiProvider = (typeof AI_PROVIDERS)[number]

export const ModelTier = Type.Union([Type.Literal('premium'), Type.Literal('standard'), Type.Literal('fast')])
export type ModelTier = Static<typeof ModelTier>

/** An entry of the model picker. */
export const AiModelOption = Type.Object({
  value: Type.String({ description: 'The id sent as `model`' }),
  label: Type.String(),
  provider: AiProvider,
  tier: ModelTier,
  description: Type.String(),
  available: Type.Boolean({ description: 'Whether the service can use it now' }),
  unavailableReason: Type.Optional(Type.String({ description: 'Why it cannot be used, such as the variable to set' })),
})
export type AiModelOption = Static<typeof AiModelOption>

/** GET /availableModels. */
export const AvailableModelsResponse = Type.Object({
  models: Type.Array(AiModelOption),
  defaultModel: Type.String({ description: `${DEFAULT_AI_MODEL} when OpenAI is configured, else the first available model` }),
})
export type AvailableModelsResponse = Static<typeof AvailableModelsResponse>

// ---- chat ---------------------------------------------------------------------------------------

/** Where the user is and what they look at: sent with chat, agent and formula requests. */
export const AssistantContext = StrictObject({
  activeSheet: Type.Optional(Type.String({ maxLength: 64 })),
  /** The selected cells' addresses on the active sheet. */
  selectedCells: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 1000 })),
  selectedRange: Type.Optional(Type.String({ maxLength: 64 })),
  /** The cell a formula would be written into; formulas are evaluated there. */
  targetCell: Type.Optional(Type.String({ maxLength: 32 })),
  /** An uploaded PDF (a file of the files service) whose extracted figures the question is about. */
  fileId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  /** A PDF's figures as processDocument answered them, when the document was not uploaded as a file. */
  document: Type.Optional(
    StrictObject({
      fileName: Type.Optional(Type.String({ maxLength: 300 })),
      data: Type.Array(PdfEntry, { maxItems: 5000 }),
    }),
  ),
})
export type AssistantContext = Static<typeof AssistantContext>

export const ChatHistoryEntry = StrictObject({
  role: Type.Union([Type.Literal('user'), Type.Literal('assistant')]),
  content: Type.String({ maxLength: MAX_ASSISTANT_MESSAGE_LENGTH }),
})
export type ChatHistoryEntry = Static<typeof ChatHistoryEntry>

/** POST /chat. Sent with `Accept: text/event-stream` the answer streams as server-sent events. */
export const ChatBody = StrictObject({
  /** At most MAX_ASSISTANT_MESSAGE_LENGTH characters (longer answers 413); not empty. */
  message: Type.String(),
  history: Type.Optional(Type.Array(ChatHistoryEntry, { maxItems: MAX_CHAT_HISTORY })),
  /** A value from /availableModels; default the default model. */
  model: Type.Optional(Type.String({ maxLength: 200 })),
  workbookId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  context: Type.Optional(AssistantContext),
})
export type ChatBody = Static<typeof ChatBody>

export const TokenUsage = Type.Object({
  inputTokens: Type.Integer({ minimum: 0 }),
  outputTokens: Type.Integer({ minimum: 0 }),
})
export type TokenUsage = Static<typeof TokenUsage>

/** A tool the model called while answering, as it is shown to the user. */
export const ChatToolCall = Type.Object({
  id: Type.String(),
  name: Type.String(),
  arguments: Type.Unknown(),
  isError: Type.Boolean(),
})
export type ChatToolCall = Static<typeof ChatToolCall>

export const ChatResponse = Type.Object({
  success: Type.Literal(true),
  /** The assistant's answer (markdown). */
  response: Type.String(),
  model: Type.String(),
  provider: AiProvider,
  usage: TokenUsage,
  toolCalls: Type.Array(ChatToolCall),
})
export type ChatResponse = Static<typeof ChatResponse>

/** `event: delta`: text as it is generated. */
export const ChatDeltaEvent = Type.Object({ text: Type.String() })
export type ChatDeltaEvent = Static<typeof ChatDeltaEvent>
/** `event: tool_call`: the model called a tool. */
export const ChatToolCallEvent = Type.Object({ id: Type.String(), name: Type.String() })
export type ChatToolCallEvent = Static<typeof ChatToolCallEvent>
/** `event: tool_result`: a tool answered. */
export const ChatToolResultEvent = Type.Object({ id: Type.String(), name: Type.String(), isError: Type.Boolean() })
export type ChatToolResultEvent = Static<typeof ChatToolResultEvent>

/** `event: error` after the stream began; before, errors are ordinary JSON answers with their status. */
export const ChatErrorEvent = Type.Object({ error: Type.Object({ code: Type.String(), message: Type.String() }) })

// ---- formulas -----------------------------------------------------------------------------------

/** A formula calculated by the engine without being written. */
export const FormulaResult = Type.Object({
  value: CellValue,
  /** The value as the cell would show it. */
  display: Type.String(),
  type: CellType,
  /** For an error value: what it means or why it arose. */
  error: Type.Optional(Type.String()),
  /** The size of an array result, whose top-left value is `value`. */
  spill: Type.Optional(Type.Object({ rows: Type.Integer({ minimum: 1 }), columns: Type.Integer({ minimum: 1 }) })),
})
export type FormulaResult = Static<typeof FormulaResult>

/** A formula card: the formula for the user's data, the function's help, and its result. */
export const FormulaSuggestion = Type.Object({
  /** With '=', ready to insert. */
  formula: Type.String(),
  syntax: Type.String(),
  description: Type.String(),
  /** The catalogue's example of the function, with '='. */
  example: Type.String(),
  /** The formula evaluated against the workbook and selection (an empty sheet without a workbook). */
  result: FormulaResult,
})
export type FormulaSuggestion = Static<typeof FormulaSuggestion>

export const FormulaSuggestionsResponse = Type.Object({
  success: Type.Literal(true),
  suggestions: Type.Array(FormulaSuggestion),
  /** `catalogue`: found by keyword in the engine's function catalogue; `model`: proposed by the model and checked by the engine. */
  source: Type.Union([Type.Literal('catalogue'), Type.Literal('model')]),
})
export type FormulaSuggestionsResponse = Static<typeof FormulaSuggestionsResponse>

/** POST /generate-formula: a formula for what the user describes. */
export const GenerateFormulaBody = StrictObject({
  description: Type.String({ minLength: 1, maxLength: 2000 }),
  workbookId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  context: Type.Optional(AssistantContext),
  model: Type.Optional(Type.String({ maxLength: 200 })),
})
export type GenerateFormulaBody = Static<typeof GenerateFormulaBody>

/** POST /suggestions: formulas that fit the selection, or the query when one is given. */
export const SuggestionsBody = StrictObject({
  context: Type.Optional(AssistantContext),
  query: Type.Optional(Type.String({ maxLength: 2000 })),
  workbookId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  model: Type.Optional(Type.String({ maxLength: 200 })),
})
export type SuggestionsBody = Static<typeof SuggestionsBody>

// ---- formula evaluation (spreadsheet service) ---------------------------------------------------

/** POST /api/spreadsheet/workbook/{id}/evaluate: calculates a formula at a cell, writing nothing. */
export const EvaluateFormulaBody = StrictObject({
  sheet: Type.String({ minLength: 1, maxLength: 64 }),
  /** The cell the formula is calculated in (its relative references start there); default A1. */
  address: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })),
  formula: Type.String({ minLength: 1, maxLength: MAX_FORMULA_LENGTH }),
})
export type EvaluateFormulaBody = Static<typeof EvaluateFormulaBody>

export const EvaluateFormulaResponse = Type.Object({
  ...FormulaResult.properties,
  success: Type.Literal(true),
  /** Where it was calculated: the sheet's name as the workbook spells it, and the address. */
  sheet: Type.String(),
  address: Type.String(),
  formula: Type.String(),
})
export type EvaluateFormulaResponse = Static<typeof EvaluateFormulaResponse>

// ---- workflows ----------------------------------------------------------------------------------

/**
 * A workflow: a named, saved, ordered list of steps the user runs on a chosen workbook. Paths under
 * /workflows; a workflow of another user answers 404, as a missing one does.
 */
export type WorkflowStepKind = (typeof WORKFLOW_STEP_KINDS)[number]
export const WorkflowStepKind = Type.Unsafe<WorkflowStepKind>({ type: 'string', enum: [...WORKFLOW_STEP_KINDS] })

export const WorkflowStep = Type.Object({
  kind: WorkflowStepKind,
  /** The command (command), the version message (snapshot); empty for the other kinds. */
  text: Type.String(),
})
export type WorkflowStep = Static<typeof WorkflowStep>

/**
 * POST /workflows and PUT /workflows/{id}. Checked beyond the schema with clear 400s: a name, 1 to
 * MAX_WORKFLOW_STEPS steps of a known kind, a command step with its text.
 */
export const WorkflowBody = StrictObject({
  name: Type.String({ maxLength: 1000 }),
  description: Type.Optional(Type.String({ maxLength: 5000 })),
  /** A value from /availableModels that runs the command steps; default `local`, the offline planner. */
  model: Type.Optional(Type.String({ maxLength: 200 })),
  steps: Type.Array(StrictObject({ kind: Type.String({ maxLength: 100 }), text: Type.Optional(Type.String({ maxLength: 100_000 })) }), { maxItems: 1000 }),
  /** The built-in template it was made from. */
  templateId: Type.Optional(Type.String({ maxLength: 100 })),
})
export type WorkflowBody = Static<typeof WorkflowBody>

export const WorkflowRunStatus = Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')])
export type WorkflowRunStatus = Static<typeof WorkflowRunStatus>
export const WorkflowRunStepStatus = Type.Union([Type.Literal('pending'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed'), Type.Literal('skipped')])
export type WorkflowRunStepStatus = Static<typeof WorkflowRunStepStatus>

/** One step of a run as it went. */
export const WorkflowRunStep = Type.Object({
  kind: WorkflowStepKind,
  text: Type.String(),
  status: WorkflowRunStepStatus,
  /** The workbook the step worked on. */
  workbookId: Type.Union([Type.String(), Type.Null()]),
  /** What the step did, in a sentence (the assistant's answer for a command). */
  message: Type.Union([Type.String(), Type.Null()]),
  /** The changeset a command step applied; null when it wrote nothing. */
  changesetId: Type.Union([Type.String(), Type.Null()]),
  /** The change the changeset made in the workbook's history (what undo reverts). */
  changeId: Type.Union([Type.String(), Type.Null()]),
  /** The workbook revision the change made. */
  revision: Type.Union([Type.Integer(), Type.Null()]),
  /** Cells the changeset wrote. */
  cellsChanged: Type.Integer({ minimum: 0 }),
  /** An audit step's findings. */
  findings: Type.Union([Type.Array(AuditFinding), Type.Null()]),
  /** A snapshot step's version. */
  versionId: Type.Union([Type.String(), Type.Null()]),
  /** An import step's new workbook. */
  importedWorkbookId: Type.Union([Type.String(), Type.Null()]),
  durationMs: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
})
export type WorkflowRunStep = Static<typeof WorkflowRunStep>

export const WorkflowRun = Type.Object({
  id: Type.String(),
  workflowId: Type.String(),
  workflowName: Type.String(),
  /** The workbook chosen for the run. */
  workbookId: Type.String(),
  workbookName: Type.String(),
  status: WorkflowRunStatus,
  /** 0 to 100: the share of steps done. */
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
  /** The step running now (0-based), or null. */
  currentStep: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  steps: Type.Array(WorkflowRunStep),
  createdAt: Type.String({ format: 'date-time' }),
  startedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  durationMs: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  /** Why the run failed, naming the step. */
  error: Type.Union([Type.String(), Type.Null()]),
  /** The step that failed (0-based). */
  failedStep: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  /** Whether the run's changes were undone. */
  undone: Type.Boolean(),
})
export type WorkflowRun = Static<typeof WorkflowRun>

export const Workflow = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  model: Type.String(),
  steps: Type.Array(WorkflowStep),
  templateId: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  /** The newest run, if any. */
  lastRun: Type.Union([WorkflowRun, Type.Null()]),
})
export type Workflow = Static<typeof Workflow>

export const WorkflowParams = StrictObject({ id: Type.String({ minLength: 1, maxLength: 100 }) })
export const WorkflowRunParams = StrictObject({ runId: Type.String({ minLength: 1, maxLength: 100 }) })
export const RunWorkflowBody = StrictObject({ workbookId: Type.String({ minLength: 1, maxLength: 64 }) })
export type RunWorkflowBody = Static<typeof RunWorkflowBody>

export const WorkflowResponse = Type.Object({ success: Type.Literal(true), workflow: Workflow })
export type WorkflowResponse = Static<typeof WorkflowResponse>
export const WorkflowListResponse = Type.Object({ success: Type.Literal(true), workflows: Type.Array(Workflow) })
export type WorkflowListResponse = Static<typeof WorkflowListResponse>
export const WorkflowRunResponse = Type.Object({ success: Type.Literal(true), run: WorkflowRun })
export type WorkflowRunResponse = Static<typeof WorkflowRunResponse>
export const WorkflowRunListResponse = Type.Object({ success: Type.Literal(true), runs: Type.Array(WorkflowRun) })
export type WorkflowRunListResponse = Static<typeof WorkflowRunListResponse>
export const DeleteWorkflowResponse = Type.Object({ success: Type.Literal(true), id: Type.String() })

/** A built-in workflow a user makes their own (Browse Templates). */
export const WorkflowTemplate = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  steps: Type.Array(WorkflowStep),
})
export type WorkflowTemplate = Static<typeof WorkflowTemplate>
export const WorkflowTemplatesResponse = Type.Object({ success: Type.Literal(true), templates: Type.Array(WorkflowTemplate) })
export type WorkflowTemplatesResponse = Static<typeof WorkflowTemplatesResponse>

/** `event: done` carries the whole answer, as the unstreamed response does. */
export const ChatDoneEvent = ChatResponse
