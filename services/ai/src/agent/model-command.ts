/**
 * What a model-creation command asks for, read from its words: the kind of model, the company, and
 * the parameters it names ("create a DCF model for Acme with 7 years and 3% terminal growth" →
 * dcf, Acme, projectionYears 7, terminalGrowthRate 3). What it does not name takes the defaults.
 */
import { DEFAULT_MODEL_PARAMETERS, type FinancialModelType, type GenerateFinancialModelBody } from '@finsheet/contracts'

/** The company a model is for when the command names none. */
export const UNNAMED_COMPANY = 'Company'

/** Kinds of model by the words that name them, most specific first; anything else (a DCF, a valuation, a financial model) is a DCF. */
const MODEL_TYPE_WORDS: ReadonlyArray<[FinancialModelType, RegExp]> = [
  ['lbo', /\b(lbo|leveraged\s+buy[\s-]?out)\b/],
  ['three-statement', /\b(three|3)[\s-]*statement\b/],
  ['saas', /\bsaas\b/],
  ['real-estate', /\b(real[\s-]estate|property)\b/],
  ['startup', /\bstart[\s-]?up\b/],
  ['dcf', /\b(dcf|discounted\s+cash\s+flow)\b/],
]

/** Words after which a company name ends. */
const NAME_ENDS = /\s+(?:with|using|assuming|over|at|including|based|where|that|which|from|showing|covering|and\s+(?:a|an|the|\d))\b|[,.;:!?()]|\s+\d/i
/** Phrases that hold a placeholder, not a company. */
const PLACEHOLDER = /^(?:\[.*\]|<.*>|(?:the|my|our|a|this|that)\s+(?:company|business|firm|startup|client)|company\s+name|it|them|me|us)$/i

const NUMBER = String.raw`(\d+(?:\.\d+)?)`

/** Percent parameters, each found as "3% terminal growth" or "terminal growth of 3%". */
const PERCENT_PARAMETERS: ReadonlyArray<[string, string]> = [
  ['terminalGrowthRate', String.raw`(?:terminal|perpetual|perpetuity|long[\s-]term)(?:\s+growth)?(?:\s+rate)?`],
  ['discountRate', String.raw`(?:wacc|discount\s+rate|cost\s+of\s+capital)`],
  ['revenueGrowthRate', String.raw`(?:annual\s+)?(?:revenue|sales|top[\s-]line)\s+growth(?:\s+rate)?`],
  ['taxRate', String.raw`tax(?:\s+rate)?`],
  ['ebitdaMargin', String.raw`ebitda\s+margins?`],
]

function percentParameter(lower: string, words: string): number | undefined {
  const after = new RegExp(String.raw`${NUMBER}\s*%\s*(?:an?\s+)?${words}`).exec(lower)
  const before = new RegExp(String.raw`${words}\s*(?:of|at|=|:|is|to|around)?\s*${NUMBER}\s*%`).exec(lower)
  const found = after ?? before
  return found ? Number(found[1]) : undefined
}

function companyOf(command: string): string | undefined {
  const quoted = /["“]([^"”]{1,200})["”]/.exec(command)
  if (quoted && !PLACEHOLDER.test(quoted[1].trim())) return quoted[1].trim()
  const named = /\b(?:for|of)\s+(.+)$/i.exec(command)
  if (!named) return undefined
  let name = named[1]
  const end = NAME_ENDS.exec(name)
  if (end) name = name.slice(0, end.index)
  name = name
    .replace(/\s+(?:dcf|lbo|valuation|financial\s+model|model|analysis)$/i, '')
    .replace(/^(?:the\s+)(?=[A-Z])/, '')
    .trim()
  if (name === '' || PLACEHOLDER.test(name) || /^(?:a|an|the)\b/i.test(name)) return undefined
  return name.slice(0, 200)
}

export interface ModelRequest extends Required<Pick<GenerateFinancialModelBody, 'modelType' | 'companyName'>> {
  parameters: Record<string, number>
}

export function readModelCommand(command: string): ModelRequest {
  const lower = command.toLowerCase()
  const modelType = MODEL_TYPE_WORDS.find(([, words]) => words.test(lower))?.[0] ?? 'dcf'
  const parameters: Record<string, number> = { ...DEFAULT_MODEL_PARAMETERS }
  const years = /(\d{1,2})[\s-]*(?:years?|yrs?|yr)\b/.exec(lower)
  if (years) parameters.projectionYears = Number(years[1])
  for (const [name, words] of PERCENT_PARAMETERS) {
    const value = percentParameter(lower, words)
    if (value !== undefined) parameters[name] = value
  }
  return { modelType, companyName: companyOf(command) ?? UNNAMED_COMPANY, parameters }
}

const MODEL_TYPE_NAMES: Record<FinancialModelType, string> = {
  dcf: 'DCF',
  lbo: 'LBO',
  'three-statement': 'three-statement',
  startup: 'startup',
  saas: 'SaaS',
  'real-estate': 'real estate',
}

/** "a DCF model for Acme (7 years, 3% terminal growth)". */
export function describeModelRequest(request: ModelRequest): string {
  const name = MODEL_TYPE_NAMES[request.modelType as FinancialModelType] ?? request.modelType
  const details = [`${request.parameters.projectionYears} years`, `${request.parameters.terminalGrowthRate}% terminal growth`]
  if (request.parameters.discountRate !== undefined) details.push(`${request.parameters.discountRate}% discount rate`)
  if (request.parameters.revenueGrowthRate !== undefined) details.push(`${request.parameters.revenueGrowthRate}% revenue growth`)
  return `${/^[aeiou]/i.test(name) || name === 'LBO' ? 'an' : 'a'} ${name} model for ${request.companyName} (${details.join(', ')})`
}
