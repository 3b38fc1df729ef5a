/**
 * The parameters of a generated model: each has a name callers send, a label, a kind, a default and
 * the range it must fall in. Percentages are sent in percent (2.5 for 2.5%) and written into the
 * model as fractions. A value outside its range, or not a number, is refused with the parameter's
 * name; nothing is clamped silently, except what a language model proposes (see clampParameters).
 */
import { DEFAULT_MODEL_PARAMETERS, MAX_PROJECTION_YEARS, MIN_PROJECTION_YEARS } from '@finsheet/contracts'

export type ParameterKind = 'integer' | 'number' | 'percent' | 'flag'

export interface ModelParameter {
  name: string
  /** What the parameter is, for people and for a language model asked to propose it. */
  description: string
  kind: ParameterKind
  /**
   * In the unit callers send (percent for a percentage). `null`: the parameter is another way of
   * saying what others say (a discount rate instead of the WACC's parts) and is only there when sent.
   */
  default: number | (() => number) | null
  min: number
  max: number
}

/** Parameters every model type takes, whether or not its structure uses them. */
export const COMMON_PARAMETERS: readonly ModelParameter[] = [
  {
    name: 'projectionYears',
    description: 'Years projected, one column each',
    kind: 'integer',
    default: DEFAULT_MODEL_PARAMETERS.projectionYears,
    min: MIN_PROJECTION_YEARS,
    max: MAX_PROJECTION_YEARS,
  },
  {
    name: 'terminalGrowthRate',
    description: 'Growth of cash flows after the projection, in percent a year (Gordon growth terminal value)',
    kind: 'percent',
    default: DEFAULT_MODEL_PARAMETERS.terminalGrowthRate,
    min: -5,
    max: 10,
  },
]

/** The year before the first projected one, by default the last full calendar year. */
export const baseYearParameter = (description = 'The last actual fiscal year; projections start the year after'): ModelParameter => ({
  name: 'baseYear',
  description,
  kind: 'integer',
  default: () => new Date().getUTCFullYear() - 1,
  min: 1900,
  max: 2200,
})

/** A bad parameter, named; the services answer it with 400. */
export class ModelParameterError extends Error {
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message)
    this.name = 'ModelParameterError'
  }
}

/** Resolved parameters: numbers in the unit a cell holds (fractions for percentages, 0 or 1 for flags). */
export type ResolvedParameters = Record<string, number>

function defaultOf(parameter: ModelParameter): number | null {
  return typeof parameter.default === 'function' ? parameter.default() : parameter.default
}

const inCellUnit = (parameter: ModelParameter, value: number) => (parameter.kind === 'percent' ? value / 100 : value)

function describeRange(parameter: ModelParameter): string {
  if (parameter.kind === 'flag') return 'true or false (1 or 0)'
  const unit = parameter.kind === 'percent' ? '%' : ''
  return `${parameter.kind === 'integer' ? 'a whole number' : 'a number'} from ${parameter.min}${unit} to ${parameter.max}${unit}`
}

/** A sent value as a number, or undefined when it is not one (a number, numeric text, or a boolean for a flag). */
function readValue(parameter: ModelParameter, sent: unknown): number | undefined {
  if (typeof sent === 'boolean') return parameter.kind === 'flag' ? (sent ? 1 : 0) : undefined
  if (typeof sent === 'number') return Number.isFinite(sent) ? sent : undefined
  if (typeof sent === 'string') {
    const trimmed = sent.trim().replace(/%$/, '')
    if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(trimmed)) return undefined
    const value = Number(trimmed)
    return Number.isFinite(value) ? value : undefined
  }
  return undefined
}

/**
 * Every parameter of the model resolved: sent values checked, defaults for the rest. An unknown name,
 * a value that is not a number, or one outside its range throws a ModelParameterError naming it.
 */
export function resolveParameters(parameters: readonly ModelParameter[], sent: Record<string, unknown> = {}, modelLabel = 'this model'): ResolvedParameters {
  const byName = new Map(parameters.map((parameter) => [parameter.name, parameter]))
  for (const name of Object.keys(sent)) {
    if (!byName.has(name)) {
      throw new ModelParameterError(name, `Unknown parameter ${JSON.stringify(name)} for ${modelLabel}. Its parameters are: ${parameters.map((p) => p.name).join(', ')}`)
    }
  }
  const resolved: ResolvedParameters = {}
  for (const parameter of parameters) {
    const raw = sent[parameter.name]
    if (raw === undefined || raw === null) {
      const fallback = defaultOf(parameter)
      if (fallback !== null) resolved[parameter.name] = inCellUnit(parameter, fallback)
      continue
    }
    const value = readValue(parameter, raw)
    if (value === undefined) throw new ModelParameterError(parameter.name, `${parameter.name} must be a number (${describeRange(parameter)}), not ${JSON.stringify(raw).slice(0, 60)}`)
    const whole = parameter.kind === 'integer' || parameter.kind === 'flag'
    if ((whole && !Number.isInteger(value)) || value < (parameter.kind === 'flag' ? 0 : parameter.min) || value > (parameter.kind === 'flag' ? 1 : parameter.max)) {
      throw new ModelParameterError(parameter.name, `${parameter.name} must be ${describeRange(parameter)}; ${value} is outside it`)
    }
    resolved[parameter.name] = inCellUnit(parameter, value)
  }
  return resolved
}

/**
 * Values a language model proposed, kept to the parameters it may set and clamped into their ranges
 * (a proposal is advice, never a reason to refuse); what is not a number is dropped. Answered in the
 * unit callers send.
 */
export function clampParameters(parameters: readonly ModelParameter[], proposed: Record<string, unknown>): Record<string, number> {
  const kept: Record<string, number> = {}
  for (const parameter of parameters) {
    if (parameter.name === 'projectionYears') continue
    const value = readValue(parameter, proposed[parameter.name])
    if (value === undefined) continue
    const low = parameter.kind === 'flag' ? 0 : parameter.min
    const high = parameter.kind === 'flag' ? 1 : parameter.max
    const clamped = Math.min(high, Math.max(low, value))
    kept[parameter.name] = parameter.kind === 'integer' || parameter.kind === 'flag' ? Math.round(clamped) : clamped
  }
  return kept
}
