import type { AgentToolName } from './agent.js'
import type { AiModelOption, AiProvider, WorkflowStepKind, WorkflowTemplate } from './ai.js'
import type { ServiceArea } from './gateway.js'
import type { SessionRow, SheetState, UserSession, WorkbookEntry } from './users.js'

/*
 * The contracts' plain values: limits, defaults, enumerations and the messages built from them, kept
 * apart from the schemas. A schema is an object TypeBox builds when its module loads, so the browser
 * app, which needs these values but validates nothing against the schemas, reads them from here
 * without building every schema of the API.
 */

// ---- requests and names -------------------------------------------------------------------------

/** Default largest JSON request body, the same at the gateway and at every service (BODY_LIMIT_BYTES). */
export const DEFAULT_BODY_LIMIT_BYTES = 10 * 1024 * 1024

/**
 * Whether a name (of a workbook, a sheet) is text any file or reader can hold: no unpaired surrogate
 * (half of a character, which UTF-8 cannot encode), no noncharacter U+FFFE or U+FFFF, and no control
 * character (which XML, and so an xlsx file, cannot hold either).
 */
export function isValidNameText(name: string): boolean {
  return !INVALID_NAME_TEXT.test(name)
}

// With the u flag \p{Cs} matches only surrogates that are not part of a pair.
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const INVALID_NAME_TEXT = /[\p{Cs}\u0000-\u001F\u007F\uFFFE\uFFFF]/u

export const INVALID_NAME_TEXT_MESSAGE = 'Names must be valid Unicode text without control characters'

// ---- limits -------------------------------------------------------------------------------------

/** Formulas longer than this are refused, as Excel does. */
export const MAX_FORMULA_LENGTH = 8192

/** Excel's limit on the characters of a cell. */
export const MAX_CELL_TEXT_LENGTH = 32_767

/** Updates one update-cells call or one change may carry. */
export const MAX_UPDATES_PER_CHANGE = 20_000

/** Cells one format-cells command may touch. */
export const MAX_FORMATTED_CELLS = 100_000

/** A sheet's rows and columns, as in Excel. */
export const SHEET_ROWS = 1_048_576

export const SHEET_COLUMNS = 16_384

/** Cells one merged range may span (a merge is kept as its range; what reads it walks its cells). */
export const MAX_MERGED_CELLS = 100_000

/**
 * The most a CSV or JSON export may hold, in bytes. A CSV past it is refused (413) before anything is
 * sent; a JSON export stops at it and says so in its `truncated` field.
 */
export const MAX_EXPORT_BYTES = 256 * 1024 * 1024

/** Cells (with content, or only a style) an xlsx export may hold; a larger workbook is refused (413). */
export const MAX_XLSX_EXPORT_CELLS = 1_000_000

const thousands = (n: number) => n.toLocaleString('en-US')

/** Why a merge is refused, as the service answers it and the web app shows it. */
export function mergeTooLargeMessage(range: string, cells: number): string {
  return `The range ${range} spans ${thousands(cells)} cells; a merge can span at most ${thousands(MAX_MERGED_CELLS)}`
}

/** Excel's refusal to shift non-empty cells off the sheet, naming the sheet's size. */
export function cellsOffSheetMessage(axis: 'rows' | 'columns', count: number): string {
  const size = axis === 'rows' ? SHEET_ROWS : SHEET_COLUMNS
  const noun = count === 1 ? axis.slice(0, -1) : axis
  return (
    `To prevent possible loss of data, ${thousands(count)} ${noun} cannot be inserted there: that would shift non-empty cells off the end of the sheet, ` +
    `which has ${thousands(size)} ${axis}. Insert fewer ${axis}, insert them ${axis === 'rows' ? 'further down' : 'further right'}, or delete data from the end of the sheet.`
  )
}

export const MAX_SHEETS = 255

/** Other workbooks one workbook may link to (`[1]` to `[256]`). */
export const MAX_EXTERNAL_LINKS = 256

/** Values of other workbooks one workbook may keep, over all its links: external references calculate from them. */
export const MAX_EXTERNAL_CACHED_CELLS = 250_000

/** Why an import's links to other workbooks are refused: they keep more values than a workbook may. */
export function externalCacheTooLargeMessage(cells: number): string {
  return `The links to other workbooks keep ${thousands(cells)} values; a workbook may keep at most ${thousands(MAX_EXTERNAL_CACHED_CELLS)}`
}

export const MAX_WORKBOOK_NAME_LENGTH = 200

/** Spec 1 §9: default recent workbooks limit. */
export const DEFAULT_WORKBOOK_LIST_LIMIT = 10

/** The name the user's first workbook gets, as the top bar reads it until the user renames it. */
export const DEFAULT_WORKBOOK_NAME = 'Default Workbook'

/** How long a deleted workbook can be brought back before it is erased for good. */
export const TRASH_RETENTION_DAYS = 30

/** Spec 2 §9: vector and cell search return up to 20 results. */
export const DEFAULT_SEARCH_LIMIT = 20

/** Spec 1 §9: the templates preview shows 15 rows. */
export const TEMPLATE_PREVIEW_ROWS = 15

export const TEMPLATE_PREVIEW_COLUMNS = ['A', 'B', 'C', 'D', 'E', 'F'] as const

/** Excel's border line styles. */
export const BORDER_LINES = ['thin', 'medium', 'thick', 'dashed', 'dotted', 'double', 'hair', 'mediumDashed', 'dashDot', 'mediumDashDot', 'dashDotDot', 'mediumDashDotDot', 'slantDashDot'] as const

/** Excel's deepest outline level of grouped rows or columns. */
export const MAX_OUTLINE_LEVEL = 7

/** Rows or columns one set-sheet-view command may change at once. */
export const MAX_VIEW_SPAN = 100_000

/** Row heights in CSS pixels, as Excel allows (409 points). */
export const MAX_ROW_HEIGHT = 545

/** The longest note a cell may carry: as much text as the cell itself may hold. */
export const MAX_NOTE_LENGTH = MAX_CELL_TEXT_LENGTH

/** The longest link address, as Excel allows. */
export const MAX_LINK_LENGTH = 2079

/** Distinct values one filter column may list as shown. */
export const MAX_FILTER_VALUES = 10_000

/** What a data-validation rule allows, as Excel names its kinds ('none': any value, for an input message alone). */
export const DATA_VALIDATION_TYPES = ['none', 'list', 'whole', 'decimal', 'date', 'time', 'textLength', 'custom'] as const

/** How a whole number, decimal, date, time or text length compares with the rule's values. */
export const DATA_VALIDATION_OPERATORS = ['between', 'notBetween', 'equal', 'notEqual', 'greaterThan', 'lessThan', 'greaterThanOrEqual', 'lessThanOrEqual'] as const

export const DATA_VALIDATION_ERROR_STYLES = ['stop', 'warning', 'information'] as const

/** Excel's limits: titles of 32 characters, an input message of 255, an error message of 225, a typed list of 255. */
export const MAX_VALIDATION_TITLE_LENGTH = 32

export const MAX_VALIDATION_INPUT_LENGTH = 255

export const MAX_VALIDATION_ERROR_LENGTH = 225

export const MAX_VALIDATION_LIST_LENGTH = 255

/** Rules one sheet may hold, and ranges one rule may cover. */
export const MAX_VALIDATION_RULES = 1000

export const MAX_VALIDATION_RANGES = 1000

/** Conditional-format rules one sheet may hold, and ranges one rule may cover. */
export const MAX_CONDITIONAL_FORMATS = 500

export const MAX_CONDITIONAL_RANGES = 100

// ---- workbooks, charts, imports -----------------------------------------------------------------

/** The address a kept value of another workbook is keyed by: A1 form, without `$`. */
export const EXTERNAL_CELL_ADDRESS = '^[A-Z]{1,3}[1-9][0-9]{0,6}$'

/** Excel allows at most this many passes over a circular reference. */
export const MAX_CALCULATION_ITERATIONS = 32_767

/** Charts draw at most this many cells. */
export const MAX_CHART_CELLS = 10_000

/** The response header of an xlsx export saying what the file holds differently from the workbook ('charts exported as pictures: 2'). */
export const EXPORT_NOTES_HEADER = 'x-export-notes'

/** Charts one workbook may hold. */
export const MAX_CHARTS = 200

/** The largest offset of a chart's corner into its cell, in pixels at 100% zoom. */
export const MAX_CHART_OFFSET = 4000

/** The most rows one window read (GET /workbook/{id}/window) may span. */
export const MAX_WINDOW_ROWS = 1000

/** The most bytes the charts and pictures kept of one imported workbook may hold; past it a sheet's drawing is left out. */
export const MAX_KEPT_DRAWING_BYTES = 20 * 1024 * 1024

export const IMPORT_STREAM_CONTENT_TYPE = 'application/x-ndjson'

/** Asked for in Accept, the inputs route answers as lines of JSON (see InputsLine). */
export const INPUTS_LINES_CONTENT_TYPE = 'application/x-ndjson'

/** Mismatches an import report lists; all are counted. */
export const MAX_LISTED_MISMATCHES = 1000

/** The name a copy gets unless one is given: 'Copy of Budget', cut to the longest name allowed. */
export function copyName(name: string): string {
  return `Copy of ${name}`.slice(0, MAX_WORKBOOK_NAME_LENGTH)
}

// ---- printing -----------------------------------------------------------------------------------

export const PAPER_SIZES = ['letter', 'legal', 'a4', 'a3'] as const
export type PaperSize = (typeof PAPER_SIZES)[number]

/** Paper sizes in points (1/72 inch), portrait. */
export const PAPER_POINTS: Record<PaperSize, { width: number; height: number }> = {
  letter: { width: 612, height: 792 },
  legal: { width: 612, height: 1008 },
  a4: { width: 595.28, height: 841.89 },
  a3: { width: 841.89, height: 1190.55 },
}

/** Excel's print scale runs from 10% to 400%. */
export const MIN_PRINT_SCALE = 10

export const MAX_PRINT_SCALE = 400

// ---- users and sessions -------------------------------------------------------------------------

/** Spec 1 §5: a password has at least 6 characters; the users service and the sign-up form both say so. */
export const MIN_PASSWORD_LENGTH = 6

export const PASSWORD_TOO_SHORT_MESSAGE = 'Password must be at least 6 characters'

/** Spec 1 §5: what registration and sign-in say when a field is empty. */
export const MISSING_FIELDS_MESSAGE = 'Please fill all required fields'

/** Registration refuses a password that is common or quickly guessed; the message adds the reason. */
export const PASSWORD_TOO_WEAK_CODE = 'PASSWORD_TOO_WEAK'

export const PASSWORD_TOO_WEAK_MESSAGE = 'This password is too easy to guess'

/**
 * Sign-in answers 429 with this code, and a Retry-After header, while an account or an address is
 * locked out after repeated failed attempts; even the right password waits until the lockout ends.
 */
export const SIGN_IN_LOCKED_CODE = 'SIGN_IN_LOCKED'

/** "in 45 seconds", "in 1 minute", "in 15 minutes": how long a wait of `seconds` is, as a person says it. */
export function waitText(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds))
  if (whole < 60) return `in ${whole} second${whole === 1 ? '' : 's'}`
  const minutes = Math.ceil(whole / 60)
  return `in ${minutes} minute${minutes === 1 ? '' : 's'}`
}

/** The lockout notice, on the API's 429 and on the login page. */
export function signInLockedMessage(retryAfterSeconds: number): string {
  return `Too many failed sign-in attempts. Try again ${waitText(retryAfterSeconds)}.`
}

export const DEFAULT_WORKBOOK_ID = 'defaultWorkbook'

export const DEFAULT_SHEET_NAME = 'Sheet1'

export const BLANK_SHEET_ROWS = 30

/** Columns A to W of the default blank sheet. */
export const BLANK_SHEET_COLUMNS = Array.from({ length: 23 }, (_, i) => String.fromCharCode(65 + i))

export function createBlankSheetState(): SheetState {
  const rows: SessionRow[] = []
  for (let rowIndex = 0; rowIndex < BLANK_SHEET_ROWS; rowIndex++) {
    const row: SessionRow = { rowIndex }
    for (const column of BLANK_SHEET_COLUMNS) row[column] = ''
    rows.push(row)
  }
  return {
    selectedCell: null,
    selectedRange: null,
    isSelecting: false,
    rows,
    cells: {},
    showContextualHelp: false,
    contextualHelpData: null,
    showTour: false,
    gridApi: null,
    editingCell: null,
    formulaBarValue: '',
    activeView: 'spreadsheet',
  }
}

export function createDefaultWorkbookEntry(now: string): WorkbookEntry {
  return {
    name: DEFAULT_WORKBOOK_ID,
    activeSheet: DEFAULT_SHEET_NAME,
    recentlyOpened: [DEFAULT_SHEET_NAME],
    sheetOrder: [DEFAULT_SHEET_NAME],
    totalSheets: 1,
    sheets: { [DEFAULT_SHEET_NAME]: { state: createBlankSheetState(), lastModified: now } },
  }
}

/** A new session: role admin, the default workbook active with one blank Sheet1. */
export function createDefaultSession(user: { id: string; name: string | null; email: string | null }, now = new Date().toISOString()): UserSession {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    role: 'admin',
    activeWorkbook: DEFAULT_WORKBOOK_ID,
    workbooks: { [DEFAULT_WORKBOOK_ID]: createDefaultWorkbookEntry(now) },
    updatedAt: now,
  }
}

/**
 * The users service's internal route that gives a worker a short-lived token for the user a job
 * belongs to. Service-authenticated, never served under the gateway's /api paths.
 */
export const INTERNAL_USER_TOKEN_PATH = '/internal/user-token'

// ---- the gateway --------------------------------------------------------------------------------

/** The areas the gateway proxies under `/api/<area>`. */
export const SERVICE_AREAS = ['spreadsheet', 'ai', 'files', 'users', 'vectordb'] as const

/** Liveness: the process is up and answers. Nothing it depends on is asked. */
export const LIVENESS_PATH = '/health/live'

/** Readiness: the process and what it depends on (its stores, its queue, its identity provider) answer. */
export const READINESS_PATH = '/health/ready'

/**
 * The only paths of one area that another area's service answers. The product's API names the
 * workbook upload and the import of an uploaded file under the spreadsheet area, while reading and
 * converting files is the files service's work: the gateway sends these prefixes to the files
 * service, which serves them at `servicePath` and stores the workbook through the spreadsheet service.
 */
export const SPREADSHEET_FILE_ROUTES = {
  uploadExcel: { prefix: '/api/spreadsheet/upload-excel', area: 'files', servicePath: '/upload-excel' },
  importFromFile: { prefix: '/api/spreadsheet/import-from-file', area: 'files', servicePath: '/import-from-file' },
} as const satisfies Record<string, { prefix: string; area: ServiceArea; servicePath: string }>

/**
 * Agent mode and model generation are named under the spreadsheet area, while running a model is the
 * AI service's work: the gateway sends these prefixes to the AI service, which serves them at
 * `servicePath` and changes workbooks through the spreadsheet service's API.
 */
export const SPREADSHEET_AI_ROUTES = {
  processAction: { prefix: '/api/spreadsheet/process-action', area: 'ai', servicePath: '/process-action' },
  generateFinancialModel: { prefix: '/api/spreadsheet/generate-financial-model', area: 'ai', servicePath: '/generate-financial-model' },
} as const satisfies Record<string, { prefix: string; area: ServiceArea; servicePath: string }>

/** Every path of one area answered by another area's service: the one table the gateway routes them by. */
export const REROUTED_ROUTES: ReadonlyArray<{ prefix: string; area: ServiceArea; servicePath: string }> = [
  ...Object.values(SPREADSHEET_FILE_ROUTES),
  ...Object.values(SPREADSHEET_AI_ROUTES),
]

// ---- files --------------------------------------------------------------------------------------

/** Spec 2 §5: the file manager's answer to a file that is neither a spreadsheet nor a PDF. */
export const INVALID_FILE_TYPE_MESSAGE = 'Invalid file type. Please upload an Excel file (.xlsx, .xls, .csv) or a PDF document (.pdf)'

/** Spec 2 §5: a PDF from which nothing is extracted. */
export const NO_DATA_EXTRACTED_MESSAGE = 'No data extracted from document'

/** Spec 2 §5. */
export const NO_FILE_MESSAGE = 'Please select a file to upload'

export const UPLOAD_AUTH_MESSAGE = 'Authentication required to upload files'

export const DELETE_AUTH_MESSAGE = 'Authentication required to delete files'

export const IMPORT_AUTH_MESSAGE = 'Authentication required to import workbooks'

/** Default largest uploaded file; UPLOAD_LIMIT_BYTES changes it for the gateway, files and ai alike. */
export const DEFAULT_UPLOAD_LIMIT_BYTES = 50 * 1024 * 1024

/**
 * Room for what a multipart upload carries besides its file (boundaries, part headers and the text
 * fields such as name and description), so that a file of exactly the upload limit passes the gateway
 * and it is the files service that names the file as too large.
 */
export const MULTIPART_ALLOWANCE_BYTES = 2 * 1024 * 1024

/** The largest request body an upload route takes for a file of at most `uploadLimitBytes`. */
export function uploadBodyLimitBytes(uploadLimitBytes: number): number {
  return uploadLimitBytes + MULTIPART_ALLOWANCE_BYTES
}

/** The job queue that processes uploads. */
export const FILES_PROCESS_QUEUE = 'files.process'

// ---- the assistant, models and workflows --------------------------------------------------------

/** Longest chat message or agent command, in characters; longer answers 413. */
export const MAX_ASSISTANT_MESSAGE_LENGTH = 20_000

/** The model used when OpenAI is configured; otherwise the first available model is the default. */
export const DEFAULT_AI_MODEL = 'gpt-4o'

/** The offline assistant: answers without any model and is always available. */
export const LOCAL_MODEL = 'local'

/** Formula suggestions one answer holds at most. */
export const MAX_FORMULA_SUGGESTIONS = 5

export const AI_PROVIDERS = ['anthropic', 'openai', 'vertex', 'openai-compatible', 'local'] as const

/** Group names of the model picker. */
export const AI_PROVIDER_LABELS: Record<AiProvider, string> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI',
  vertex: 'Google Vertex AI',
  'openai-compatible': 'OpenAI-compatible server',
  local: 'Local',
}

/** The models of the hosted providers, as the picker lists them (compatible servers add theirs). */
export const HOSTED_MODELS: ReadonlyArray<Omit<AiModelOption, 'available' | 'unavailableReason'>> = [
  { value: 'claude-opus-4-6', label: 'Claude Opus 4.6', provider: 'anthropic', tier: 'premium', description: 'Anthropic’s most capable model, for complex modelling work' },
  { value: 'claude-sonnet-4-6', label: 'Claude Sonnet 4.6', provider: 'anthropic', tier: 'standard', description: 'Strong reasoning and tool use at moderate cost' },
  { value: 'claude-haiku-4-5', label: 'Claude Haiku 4.5', provider: 'anthropic', tier: 'fast', description: 'Fast answers for quick questions and simple edits' },
  { value: 'gpt-4.1', label: 'GPT-4.1', provider: 'openai', tier: 'premium', description: 'OpenAI’s model for long, precise instructions and tool use' },
  { value: 'gpt-4o', label: 'GPT-4o', provider: 'openai', tier: 'standard', description: 'OpenAI’s general model, good at finance and formulas' },
  { value: 'gpt-4o-mini', label: 'GPT-4o mini', provider: 'openai', tier: 'fast', description: 'Fast and inexpensive for everyday questions' },
  { value: 'gemini-2.5-pro', label: 'Gemini 2.5 Pro', provider: 'vertex', tier: 'premium', description: 'Google’s most capable model, through Vertex AI' },
  { value: 'gemini-2.5-flash', label: 'Gemini 2.5 Flash', provider: 'vertex', tier: 'standard', description: 'Balanced speed and quality, through Vertex AI' },
  { value: 'gemini-2.5-flash-lite', label: 'Gemini 2.5 Flash-Lite', provider: 'vertex', tier: 'fast', description: 'Google’s fastest model, through Vertex AI' },
]

export const LOCAL_MODEL_OPTION: Omit<AiModelOption, 'available' | 'unavailableReason'> = {
  value: LOCAL_MODEL,
  label: 'Local (offline)',
  provider: 'local',
  tier: 'fast',
  description: 'Answers from the function catalogue, a finance glossary and uploaded documents, with no model; always available',
}

/** What the picker shows when the model list cannot be loaded: one GPT-4o and two Claude models. */
export const FALLBACK_MODEL_VALUES = ['gpt-4o', 'claude-sonnet-4-6', 'claude-haiku-4-5'] as const

/** Earlier turns of the conversation, oldest first, so that a follow-up question is understood. */
export const MAX_CHAT_HISTORY = 40

/** The server-sent events of a streamed chat, in order: `delta`s and `tool_call`s, then `done` or `error`. */
export const CHAT_STREAM_EVENTS = { delta: 'delta', toolCall: 'tool_call', toolResult: 'tool_result', done: 'done', error: 'error' } as const

/** What each spreadsheet error value means, for results shown to users and models. */
export const ERROR_VALUE_MEANINGS: Record<string, string> = {
  '#DIV/0!': 'The formula divides by zero or by an empty cell',
  '#VALUE!': 'An argument has the wrong type, such as text where a number is needed',
  '#REF!': 'The formula refers to a cell or sheet that does not exist',
  '#NAME?': 'The formula uses a function or name that does not exist',
  '#N/A': 'A lookup found no match, or a value is not available',
  '#NUM!': 'A number is invalid for the calculation, or an iteration did not converge',
  '#NULL!': 'Two ranges that do not intersect were intersected',
  '#ERROR!': 'The formula cannot be read',
  '#CIRC!': 'The formula depends on its own result (a circular reference)',
  '#SPILL!': 'The array result cannot spill: cells in its way are not empty',
  '#CALC!': 'The calculation produced an empty array',
}

/** The assistant panel's error texts. */
export const ASSISTANT_ERROR_TEXTS = {
  authentication: 'Authentication error. Please refresh the page and try again.',
  authenticationHint: 'Your session may have expired.',
  providerAuthenticationHint: 'The AI provider refused the service’s API key; an administrator needs to check it.',
  endpointNotFound: 'The AI service endpoint was not found.',
  unreachable: 'Cannot reach the backend service. Check your connection and try again.',
  server: 'Server error. The backend service encountered an error.',
  serverHint: 'Please try again in a moment.',
  chatFailure: 'Sorry, I encountered an error processing your request. Please try again.',
  chatNotOk: 'Failed to get AI response',
} as const

/** Shown under every assistant error. */
export const ASSISTANT_ERROR_TIPS = [
  'Use Agent mode to have the assistant change the spreadsheet.',
  "Try 'Create a DCF model for [company name]'.",
  'Be specific when asking for formulas: name the cells or the rows.',
] as const

/** The AI service's error codes that the panel words specially. */
export const AI_ERROR_CODES = {
  providerAuthentication: 'AI_PROVIDER_AUTHENTICATION',
  providerRateLimited: 'AI_PROVIDER_RATE_LIMITED',
  providerTimeout: 'AI_PROVIDER_TIMEOUT',
  providerUnavailable: 'AI_PROVIDER_UNAVAILABLE',
  providerRejected: 'AI_PROVIDER_REJECTED',
  emptyResponse: 'AI_EMPTY_RESPONSE',
  unknownModel: 'UNKNOWN_MODEL',
  modelNotConfigured: 'MODEL_NOT_CONFIGURED',
  emptyMessage: 'EMPTY_MESSAGE',
  messageTooLong: 'MESSAGE_TOO_LONG',
  dailyLimit: 'AI_DAILY_LIMIT_REACHED',
  /** The agent kept calling tools past its bound for one request. */
  toolLimit: 'AI_TOOL_LIMIT',
  /** The agent spent the tokens one request may use before it finished. */
  tokenBudget: 'AI_TOKEN_BUDGET',
  /** The agent did not finish within its deadline. */
  agentDeadline: 'AI_AGENT_DEADLINE',
} as const

/**
 * The panel's text for a failed assistant request: `status` 0 for a request that never reached the
 * backend. Authentication failures (a 401, or a message naming 401 or Unauthorized) get the
 * authentication text; a 404 names the endpoint; a 500 the server text; anything else its message.
 */
export function assistantErrorText(failure: { status: number; code?: string; message: string }): { text: string; hint?: string; tips: readonly string[] } {
  const tips = ASSISTANT_ERROR_TIPS
  if (failure.code === AI_ERROR_CODES.providerAuthentication) return { text: ASSISTANT_ERROR_TEXTS.authentication, hint: ASSISTANT_ERROR_TEXTS.providerAuthenticationHint, tips }
  if (failure.status === 401 || /\b401\b|unauthorized/i.test(failure.message)) return { text: ASSISTANT_ERROR_TEXTS.authentication, hint: ASSISTANT_ERROR_TEXTS.authenticationHint, tips }
  if (failure.status === 404) return { text: ASSISTANT_ERROR_TEXTS.endpointNotFound, tips }
  if (failure.status === 0 || /failed to fetch|networkerror/i.test(failure.message)) return { text: ASSISTANT_ERROR_TEXTS.unreachable, tips }
  if (failure.status === 500) return { text: ASSISTANT_ERROR_TEXTS.server, hint: ASSISTANT_ERROR_TEXTS.serverHint, tips }
  return { text: `Error: ${failure.message}`, tips }
}

/** The job queue that runs workflows. */
export const WORKFLOW_RUN_QUEUE = 'ai.workflow-run'

export const MAX_WORKFLOW_STEPS = 20

export const MAX_WORKFLOW_NAME_LENGTH = 120

export const MAX_WORKFLOW_DESCRIPTION_LENGTH = 500

export const MAX_WORKFLOW_STEP_TEXT_LENGTH = 2000

/** Runs the history of one workflow, or the user's recent runs, lists at most. */
export const MAX_LISTED_WORKFLOW_RUNS = 50

/** Runs kept per workflow; older ones are dropped as new ones start. */
export const MAX_KEPT_WORKFLOW_RUNS = 100

/** Workflows one user keeps at most. */
export const MAX_WORKFLOWS_PER_USER = 200

/**
 * What a step does: `command` runs its text in Agent mode with the workflow's model (the offline
 * planner for `local`), writing one changeset; `audit` checks the workbook and keeps the findings;
 * `import` makes a workbook of the user's latest uploaded spreadsheet, on which the later steps work;
 * `snapshot` saves a major version with the step's text as its message.
 */
export const WORKFLOW_STEP_KINDS = ['command', 'audit', 'import', 'snapshot'] as const

/** How the page names each kind. */
export const WORKFLOW_STEP_KIND_LABELS: Record<WorkflowStepKind, string> = {
  command: 'Assistant command',
  audit: 'Audit the workbook',
  import: 'Import the latest upload',
  snapshot: 'Save a version',
}

/** The built-in templates; every command is one the offline planner carries out. */
export const WORKFLOW_TEMPLATES: readonly WorkflowTemplate[] = [
  {
    id: 'monthly-financial-report',
    name: 'Monthly Financial Report',
    description: 'Save a version, add a total row under the figures, bold the header row, check the workbook and save the report as a version.',
    steps: [
      { kind: 'snapshot', text: 'Before the monthly report' },
      { kind: 'command', text: 'add a total row' },
      { kind: 'command', text: 'make the header row bold' },
      { kind: 'audit', text: '' },
      { kind: 'snapshot', text: 'Monthly report' },
    ],
  },
  {
    id: 'data-validation-check',
    name: 'Data Validation Check',
    description: 'Look for cells showing errors, circular references, broken patterns, numbers typed inside formulas and totals that miss rows.',
    steps: [{ kind: 'audit', text: '' }],
  },
  {
    id: 'revenue-forecast-update',
    name: 'Revenue Forecast Update',
    description: 'Save a version, grow revenue 10% a year from the second year on, and check the workbook.',
    steps: [
      { kind: 'snapshot', text: 'Before the revenue forecast update' },
      { kind: 'command', text: 'grow revenue 10% a year in years 2 to 5' },
      { kind: 'audit', text: '' },
    ],
  },
]

// ---- search -------------------------------------------------------------------------------------

export const VECTORDB_INDEX_QUEUE = 'vectordb.index-workbook'

/** Longest query accepted; a longer one answers 400. Search reads at most MAX_QUERY_WORDS of it. */
export const MAX_QUERY_LENGTH = 2000

/** Most results one search answers. */
export const MAX_SEARCH_LIMIT = 100

// ---- the agent ----------------------------------------------------------------------------------

/** Tool calls one request to the tools route may carry (the agent loop's bound per request as well). */
export const MAX_AGENT_TOOL_CALLS = 25

/** A tool result's content is cut to about this many bytes of JSON; what was cut is said in the result. */
export const AGENT_RESULT_MAX_BYTES = 50_000

/** Cells one read_range call returns at most; larger ranges are read page by page with offset. */
export const AGENT_READ_CELL_BUDGET = 1000

/** Cells one write_cells call may write. */
export const AGENT_MAX_WRITE_CELLS = 1000

/** Downstream effects a changeset lists (the largest first); all are counted. */
export const AGENT_MAX_DOWNSTREAM = 200

/** Changed cells a changeset lists; all are counted and all are applied. */
export const AGENT_MAX_LISTED_CHANGES = 2000

/** Tools that only read: chat may offer these alone. */
export const READ_ONLY_AGENT_TOOLS: readonly AgentToolName[] = ['get_workbook_overview', 'read_range', 'validate_formula', 'search_workbook', 'trace_dependencies', 'explain_formula', 'audit_workbook']

/** What the audit checks, one rule each. */
export const AUDIT_RULES = [
  'error-cell',
  'circular-reference',
  'pattern-break',
  'number-in-formula',
  'input-outside-input-sheet',
  'empty-reference',
  'incomplete-total',
] as const

export const AUDIT_SEVERITIES = ['error', 'warning', 'info'] as const

/** Findings one audit lists (errors first); all are counted. */
export const MAX_AUDIT_FINDINGS = 100

/** Cells a finding names; the rest are counted in its message. */
export const MAX_AUDIT_FINDING_CELLS = 20

/** Longest label an applied changeset gives its change in the history. */
export const MAX_CHANGESET_LABEL_LENGTH = 200

/** Longest summary an applied changeset keeps. */
export const MAX_CHANGESET_SUMMARY_LENGTH = 4000

// ---- assistant actions --------------------------------------------------------------------------

export const FINANCIAL_MODEL_TYPES = ['dcf', 'lbo', 'three-statement', 'startup', 'saas', 'real-estate'] as const

/** The job queue that builds generated models. */
export const GENERATE_MODEL_QUEUE = 'ai.generate-model'

export const MIN_PROJECTION_YEARS = 1

export const MAX_PROJECTION_YEARS = 20

export const DEFAULT_MODEL_PARAMETERS = { projectionYears: 5, terminalGrowthRate: 2.5 } as const

/** The tabs of a new DCF model, in order. */
export const DCF_MODEL_SHEETS = ['Assumptions', 'Revenue', 'Operating', 'FCF', 'Valuation'] as const

/** What the assistant did with a command. */
export const ASSISTANT_ACTION_TYPES = ['edit', 'create_model', 'answer'] as const

/**
 * Server-sent events of a streamed action, in order: deltas of the model's text, each turn's
 * tool_calls then their tool_results, the changeset after a turn that wrote (progress instead, while a
 * model is generated), then done with the whole response, or error once the stream has begun.
 */
export const PROCESS_ACTION_STREAM_EVENTS = {
  delta: 'delta',
  toolCall: 'tool_call',
  toolResult: 'tool_result',
  changeset: 'changeset',
  progress: 'progress',
  done: 'done',
  error: 'error',
} as const

/** Words that send a message to the action path rather than plain chat. */
export const ACTION_KEYWORDS = ['create', 'make', 'build', 'generate', 'add', 'insert', 'update', 'change', 'modify', 'calculate', 'dcf', 'model', 'lbo', 'financial'] as const

const MODEL_KEYWORDS = ['dcf', 'lbo', 'leveraged buyout', 'valuation', 'financial model', 'sensitivity analysis']

const MODEL_VERBS = ['create', 'build', 'generate', 'make', 'develop']

function hasWord(text: string, word: string): boolean {
  return new RegExp(`\\b${word.replace(/ /g, '\\s+')}\\b`).test(text)
}

/** Whether a message goes to the spreadsheet-action path. */
export function isActionCommand(text: string): boolean {
  const lower = text.toLowerCase()
  return ACTION_KEYWORDS.some((word) => hasWord(lower, word))
}

/**
 * Verbs that open a spreadsheet command ("set B3 to 15%", "delete column C", "freeze the top row").
 * The keywords above do not hold them, so an imperative that starts with one goes to the action path
 * too; a question that merely contains one ("what is the sum of revenue?") does not.
 */
export const COMMAND_VERBS = [
  'set', 'put', 'enter', 'type', 'write', 'fill', 'copy', 'paste', 'move', 'cut', 'swap', 'delete', 'remove', 'clear', 'erase', 'empty',
  'sort', 'format', 'bold', 'italicise', 'italicize', 'underline', 'highlight', 'colour', 'color', 'shade', 'border', 'wrap', 'merge', 'unmerge',
  'freeze', 'unfreeze', 'hide', 'unhide', 'widen', 'narrow', 'rename', 'extend', 'roll', 'project', 'forecast', 'grow', 'increase', 'decrease',
  'raise', 'reduce', 'lower', 'bump', 'total', 'sum', 'average', 'chart', 'plot', 'graph', 'label', 'fix', 'apply', 'replace', 'round', 'append',
] as const

const COURTESY = /^(?:(?:please|kindly|now|then|also|ok(?:ay)?|hey|just|go ahead and|can you|could you|would you|will you|i want you to|i'd like you to|i need you to|let's|lets)\b[\s,]*)+/

/** Whether a message is an imperative spreadsheet command: after any courtesy, it opens with a command verb. */
export function isSpreadsheetCommand(text: string): boolean {
  const first = /^[a-z]+/.exec(text.trim().toLowerCase().replace(COURTESY, ''))
  return first !== null && (COMMAND_VERBS as readonly string[]).includes(first[0])
}

/** Whether a command asks for a new financial model: a model keyword together with a creation verb. */
export function isModelCreationCommand(text: string): boolean {
  const lower = text.toLowerCase()
  return MODEL_KEYWORDS.some((word) => hasWord(lower, word)) && MODEL_VERBS.some((verb) => hasWord(lower, verb))
}

// ---- support ------------------------------------------------------------------------------------

export const HELP_CATEGORIES = ['Technical Issue', 'Account Management', 'Feature Request', 'Billing Query', 'Other'] as const

export const MAX_SUPPORT_DESCRIPTION_LENGTH = 5000

/** Requests GET /support-requests answers at most, newest first. */
export const SUPPORT_REQUEST_LIST_LIMIT = 200
