/**
 * How a plan is written: a generator that yields the tool calls of one turn and is resumed with
 * their results, until it returns the answer. The planner runs a plan afresh on every turn and
 * feeds it the results already in the conversation, so a plan holds no state between turns and the
 * same conversation always leads to the same next step.
 */
import type { AgentToolName } from '@finsheet/contracts'

/** A tool call a plan makes. */
export interface PlannedCall {
  name: AgentToolName
  arguments: Record<string, unknown>
}

/** What a tool answered, as the plan reads it. */
export interface Observation {
  ok: boolean
  /** The tool's content, parsed from JSON (undefined when it was not JSON). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  content: any
  /** Why it failed, when it did. */
  error?: string
}

/** What a plan ends with: the answer to show. */
export interface PlanAnswer {
  text: string
}

/** A plan, or a part of one that returns T. */
export type Step<T> = Generator<PlannedCall[], T, Observation[]>

/** What a plan knows of where the user is, read from the conversation's instructions. */
export interface PlanContext {
  /** The sheet the user has open. */
  activeSheet?: string
  /** The selected range on it (A1). */
  selection?: string
  /** The tools the conversation offers. */
  tools: ReadonlySet<string>
}

/** One tool call as its own turn; its result. */
export function* useTool(name: AgentToolName, args: Record<string, unknown>): Step<Observation> {
  const [result] = yield [{ name, arguments: args }]
  return result ?? { ok: false, content: undefined, error: 'The tool did not answer' }
}

/** A plan's answer that could not go on: what it understood, and why it stopped. */
export class PlanStop extends Error {}

/** Stops a plan with a message for the user (nothing further is called). */
export function stop(message: string): never {
  throw new PlanStop(message)
}
