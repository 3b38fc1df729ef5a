import { Type, type Static } from 'typebox'
import { StrictObject } from './common.js'
import { AiProvider, AssistantContext, ChatHistoryEntry, TokenUsage } from './ai.js'
import { Changeset, ChangesetBrief, Highlight } from './agent.js'
import type { ASSISTANT_ACTION_TYPES, FINANCIAL_MODEL_TYPES} from './constants.js';

/*
 * Agent mode and model generation: POST /api/spreadsheet/process-action (a command the assistant
 * carries out on a workbook through its tools) and POST /api/spreadsheet/generate-financial-model.
 * Both live under /api/spreadsheet for the web app and are answered by the AI service.
 */

// ---- model generation ---------------------------------------------------------------------------

export type FinancialModelType = (typeof FINANCIAL_MODEL_TYPES)[number]

/** POST /api/spreadsheet/generate-financial-model. `modelType` and parameters are checked by the service, which names what is wrong. */
export const GenerateFinancialModelBody = StrictObject({
  modelType: Type.String({ minLength: 1, maxLength: 50 }),
  companyName: Type.String({ minLength: 1, maxLength: 500 }),
  /** projectionYears (1-20, default 5), terminalGrowthRate (percent, default 2.5) and the model type's own. */
  parameters: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.Unknown())),
  /** The workbook the request came from; a generated model is always a new workbook. */
  workbookId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  model: Type.Optional(Type.String({ maxLength: 200 })),
})
export type GenerateFinancialModelBody = Static<typeof GenerateFinancialModelBody>

/** The model result: the new workbook and what it holds. */
export const FinancialModelResult = Type.Object({
  success: Type.Literal(true),
  workbookId: Type.String(),
  cellsCreated: Type.Integer({ minimum: 0 }),
  model: Type.Object({
    name: Type.String(),
    modelType: Type.String(),
    company: Type.String(),
    sheets: Type.Array(Type.String()),
  }),
})
export type FinancialModelResult = Static<typeof FinancialModelResult>

// ---- agent mode ---------------------------------------------------------------------------------

export type AssistantActionType = (typeof ASSISTANT_ACTION_TYPES)[number]

/** POST /api/spreadsheet/process-action. Sent with `Accept: text/event-stream` it streams PROCESS_ACTION_STREAM_EVENTS. */
export const ProcessActionBody = StrictObject({
  /** What the user asked; not empty, at most MAX_ASSISTANT_MESSAGE_LENGTH characters (longer answers 413). */
  command: Type.String(),
  /** Absent when the command creates a model, which makes a new workbook; needed for every other command. */
  workbookId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  /** Where the user is. Fields the spec's clients add (their cells, userId, userEmail) are dropped: the workbook is read from the spreadsheet service, and the user is the one the token names. */
  context: Type.Optional(AssistantContext),
  /** A value from /api/ai/availableModels; default the default model. */
  preferredModel: Type.Optional(Type.String({ maxLength: 200 })),
  /** True: nothing is written; the changeset comes back as a draft to apply or discard. */
  preview: Type.Optional(Type.Boolean()),
  history: Type.Optional(Type.Array(ChatHistoryEntry, { maxItems: 40 })),
})
export type ProcessActionBody = Static<typeof ProcessActionBody>

/** A tool the agent called, as the panel lists it. */
export const AgentStep = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** "Reading Revenue!A1:H40", "Writing 12 cells on FCF". */
  description: Type.String(),
  ok: Type.Boolean(),
  /** The tool's error, when it failed (the agent saw it and could correct itself). */
  error: Type.Optional(Type.String()),
  ms: Type.Number(),
})
export type AgentStep = Static<typeof AgentStep>

/** The action response. */
export const ProcessActionResponse = Type.Object({
  success: Type.Boolean(),
  action: Type.Object({
    type: Type.Union([Type.Literal('edit'), Type.Literal('create_model'), Type.Literal('answer')]),
    parameters: Type.Record(Type.String(), Type.Unknown()),
    description: Type.String(),
  }),
  /** The assistant's answer (markdown); for a command that did not finish (success false), 'Error: ' and why. */
  message: Type.String(),
  /** Why the command did not finish (success false): it ran out of time or tool calls, or cells changed under it. Nothing was written. */
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
  result: Type.Object({
    /** The request's changes: applied (one undo reverts them) or, with preview, a draft. Null when nothing was written. */
    changeset: Type.Union([Changeset, Type.Null()]),
    /** A created model (action type create_model). */
    model: Type.Optional(FinancialModelResult),
  }),
  visualFeedback: Type.Object({ highlights: Type.Array(Highlight) }),
  steps: Type.Array(AgentStep),
  model: Type.String(),
  provider: AiProvider,
  usage: TokenUsage,
})
export type ProcessActionResponse = Static<typeof ProcessActionResponse>

/** `event: tool_call`: the agent is about to run a tool. */
export const AgentToolCallEvent = Type.Object({ id: Type.String(), name: Type.String(), description: Type.String() })
export type AgentToolCallEvent = Static<typeof AgentToolCallEvent>

/** `event: changeset`: where the request's changeset stands after a turn that wrote (`done` carries it whole). */
export const AgentChangesetEvent = Type.Object({ changeset: ChangesetBrief })
/** `event: progress`: how far the generation of a new model has come. */
export const ModelGenerationProgress = Type.Object({ percent: Type.Number({ minimum: 0, maximum: 100 }), message: Type.String() })
export type ModelGenerationProgress = Static<typeof ModelGenerationProgress>

/** `event: tool_result`: the step as it ended. */
export const AgentToolResultEvent = AgentStep

/** `event: done` carries the whole action response. */
export const ProcessActionDoneEvent = ProcessActionResponse
