/**
 * The bounds of one agent-mode command. The tool-call bound is the contracts' MAX_AGENT_TOOL_CALLS
 * (also the most one turn may send to the spreadsheet service's tools route).
 */

/** How long a command may run, from the request to the answer; past it the run stops and nothing is written. */
export const DEFAULT_AGENT_DEADLINE_MS = 90_000

/**
 * Tokens (input and output, summed over every turn) a command may use. Each turn sends the whole
 * conversation again, so 25 tool calls over some fifteen turns with compacted results stay well under it.
 */
export const DEFAULT_AGENT_TOKEN_BUDGET = 600_000

/** Tool results a conversation carries before the older ones are compacted, in characters (about 30,000 tokens). */
export const AGENT_COMPACT_RESULTS_OVER_CHARS = 120_000
