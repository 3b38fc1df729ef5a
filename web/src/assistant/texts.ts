/**
 * What the assistant panel says, and its timings: the headers, subtitles and placeholders of its two
 * modes, the suggested prompts, the notices after a model is created, and how long highlights last.
 */

export type AssistantMode = 'chat' | 'agent'

/** The panel opens in Agent mode. */
export const DEFAULT_ASSISTANT_MODE: AssistantMode = 'agent'

export const MODE_TEXTS: Record<AssistantMode, { label: string; header: string; subtitle: string; placeholder: string }> = {
  chat: {
    label: 'Chat',
    header: 'AI Assistant',
    subtitle: 'Ask questions about finance, formulas, and analysis',
    placeholder: 'Ask a question...',
  },
  agent: {
    label: 'Agent',
    header: 'Agent',
    subtitle: 'Automate spreadsheet tasks with natural language',
    placeholder: 'Describe what you want to do...',
  },
}

export const MODELS_LOADING = 'Loading models...'
export const NO_MODELS = 'No models available'

/** The empty state's prompts; '/' lists them too. */
export const SUGGESTED_PROMPTS = [
  'Create a DCF model for Acme Corp',
  'Add revenue growth of 15% in years 2 to 5',
  'Build a WACC sensitivity table from 8% to 12%',
  'Calculate the IRR of the cash flows',
  'Create a waterfall chart of the selected data',
  'Change the selected cells to currency format',
] as const

/** The message the panel opens with after a workbook was uploaded. */
export function uploadSuggestionsText(workbookName: string): string {
  return [
    `**${workbookName}** is open. Here is what you can ask me to do with it:`,
    '',
    '- **Update a tab**: "Update the Revenue tab with 10% growth from 2026"',
    '- **Add rows or columns**: "Add a row for marketing costs under Opex"',
    '- **Formulas**: "Calculate the gross margin for every year"',
    '- **Charts**: "Create a line chart of revenue by year"',
    '- **Formatting**: "Format the totals row in bold as currency"',
  ].join('\n')
}

/** The message the panel opens with after a PDF was read. */
export function documentSuggestionsText(fileName: string, figures: number): string {
  return [
    `**${fileName}** was read: ${figures.toLocaleString('en-US')} ${figures === 1 ? 'figure' : 'figures'} extracted. Ask me about ${figures === 1 ? 'it' : 'them'} in Chat mode, for example:`,
    '',
    '- "What was the net income?"',
    '- "How did revenue change from last year?"',
  ].join('\n')
}

export const DOCUMENT_FOLLOW_UPS = ['Summarise the key figures', 'What was the revenue?'] as const

/** What the suggestion buttons under the upload message fill in. */
export const UPLOAD_FOLLOW_UPS = [
  'Summarise what this workbook contains',
  'Add a totals row under the data',
  'Format the numbers as currency',
] as const

// ---- model creation -----------------------------------------------------------------------------

export const MODEL_CREATED_TITLE = 'Model Created Successfully!'
export const WORKBOOK_SWITCHED_TITLE = 'Workbook Switched'
export const MODEL_NO_WORKBOOK_ID = 'Failed to create DCF model: No workbook ID returned from backend. Please try again.'
export const MODEL_NO_CELLS = 'Your DCF model was created successfully. Please refresh the page to see it.'
/** The workbook list is read up to this many times until the new model is listed. */
export const MODEL_LIST_ATTEMPTS = 3
/** Waits between those reads. */
export const MODEL_LIST_RETRY_MS = 1000
/** The new model's cells load this long after it became the active workbook. */
export const MODEL_CELL_LOAD_DELAY_MS = 1000

/** The steps shown while a created model is opened, in order. */
export const MODEL_CREATION_STEPS = ['Refreshing the workbook list', 'Reloading the session', 'Opening the new workbook', 'Loading its cells'] as const

// ---- visual feedback ----------------------------------------------------------------------------

/** Applied ranges are highlighted this long. */
export const HIGHLIGHT_CLEAR_MS = 3000

// ---- changesets ---------------------------------------------------------------------------------

export const AUTO_APPLY_SETTING = 'Apply agent changes without asking'
/** Sent when the open workbook lives only in the session, which the agent cannot change. */
export const AGENT_NEEDS_SAVED_WORKBOOK =
  'Agent mode changes workbooks kept by Finsheet. This one lives only in your session: copy it into a new workbook and I will carry on there.'
export const COPY_AND_CONTINUE = 'Copy into a new workbook and continue'
