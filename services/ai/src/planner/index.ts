/**
 * The offline planner (model `local`): spreadsheet commands read by a grammar into a typed command
 * language and carried out through the agent's tools, as a model provider; and the reading of a
 * request for a new financial model into the generator's body.
 */
export { createPlannerProvider, contextFromInstructions, nextStep, PLANNER_MODEL } from './planner-provider.js'
export type { PlannerStep } from './planner-provider.js'
export { parseCommand, parseModelRequest, parseTargetText, normalizeCommand, MAX_COMMAND_LENGTH, DEFAULT_COMPANY_NAME } from './command-language.js'
export type { ModelRequest, PlannerCommand, TargetSpec, ValueSpec, FormatSpec, SensitivityAxis } from './command-language.js'
export { helpAnswer, PLANNER_CAPABILITIES } from './answers.js'
