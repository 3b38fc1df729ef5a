/**
 * Matching the words people and models use for rows, columns and sheets against what a workbook's
 * labels say: case, spacing and punctuation do not matter, common finance abbreviations mean their
 * words ("Rev" is "Revenue", "D&A" is "Depreciation and amortization"), plurals their singular, and
 * periods are read as periods ("FY27", "2027E" and the number 2027 are the same year).
 */

/** Abbreviations as analysts write them, by lower-case token, with the words they stand for. */
const ABBREVIATIONS: Record<string, string> = {
  rev: 'revenue',
  revs: 'revenue',
  revenues: 'revenue',
  cogs: 'cost goods sold',
  sga: 'selling general administrative',
  opex: 'operating expense',
  capex: 'capital expenditure',
  da: 'depreciation amortization',
  fcf: 'free cash flow',
  ufcf: 'unlevered free cash flow',
  lfcf: 'levered free cash flow',
  nwc: 'net working capital',
  wc: 'working capital',
  tv: 'terminal value',
  ev: 'enterprise value',
  pv: 'present value',
  npv: 'net present value',
  wacc: 'weighted average cost capital',
  irr: 'internal rate return',
  yoy: 'year over year',
  pct: 'percent',
  '%': 'percent',
  avg: 'average',
  tot: 'total',
  amt: 'amount',
  exp: 'expense',
  exps: 'expense',
  inc: 'income',
  int: 'interest',
  dep: 'depreciation',
  depr: 'depreciation',
  amort: 'amortization',
  yr: 'year',
  yrs: 'year',
  qtr: 'quarter',
  mgn: 'margin',
  ni: 'net income',
  eps: 'earnings per share',
  shs: 'share',
  ar: 'accounts receivable',
  ap: 'accounts payable',
  ppe: 'property plant equipment',
  'pp&e': 'property plant equipment',
  'd&a': 'depreciation amortization',
  'sg&a': 'selling general administrative',
  'r&d': 'research development',
  rnd: 'research development',
  gr: 'growth',
  no: 'number',
  num: 'number',
  '#': 'number',
}

const STOP_WORDS = new Set(['of', 'and', 'the', 'a', 'an', 'in', 'for', 'to', '&', '-', 'on'])
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

/** A 2- or 4-digit year as a four-digit year (two digits are this century). */
function fullYear(digits: string): number {
  const year = Number(digits)
  return digits.length === 2 ? 2000 + year : year
}

/**
 * Period words as tokens: "FY2027", "FY27", "2027E", "2027A" → y2027; "Q1 2025", "1Q25", "Q1-25" → q1
 * y2025; "Jan-25", "January 2025" → m01 y2025. Applied to the text before it is split into words.
 */
function periodTokens(text: string): { rest: string; tokens: string[] } {
  const tokens: string[] = []
  let rest = text.toLowerCase()
  const take = (pattern: RegExp, make: (match: RegExpExecArray) => string[]) => {
    rest = rest.replace(pattern, (...args: unknown[]) => {
      tokens.push(...make(args.slice(0, -2) as unknown as RegExpExecArray))
      return ' '
    })
  }
  take(/\b(?:q([1-4])[\s'’-]*(?:fy)?[\s'’-]*((?:19|20)?\d{2})|([1-4])q[\s'’-]*((?:19|20)?\d{2}))\b/g, (m) => [`q${m[1] ?? m[3]}`, `y${fullYear(m[2] ?? m[4])}`])
  take(/\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*[\s'’-]*((?:19|20)?\d{2})\b/g, (m) => [`m${String(MONTHS.indexOf(m[1]) + 1).padStart(2, '0')}`, `y${fullYear(m[2])}`])
  take(/\bfy[\s'’-]*((?:19|20)?\d{2})[aefpb]?\b/g, (m) => [`y${fullYear(m[1])}`])
  take(/\b((?:19|20)\d{2})[aefpb]?\b/g, (m) => [`y${m[1]}`])
  take(/\b(?:year|yr)[\s-]*(\d{1,2})\b/g, (m) => [`year${Number(m[1])}`])
  return { rest, tokens }
}

function singular(word: string): string {
  if (word.length > 3 && word.endsWith('ies')) return word.slice(0, -3) + 'y'
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1)
  return word
}

/** The words of a label as they are compared: lower case, abbreviations spelled out, singular, periods as tokens. */
export function labelTokens(text: string): string[] {
  const { rest, tokens } = periodTokens(text.normalize('NFKC'))
  const words: string[] = []
  // Abbreviations with symbols (d&a, pp&e, sg&a, r&d) are read before punctuation splits them.
  for (const raw of rest.split(/\s+/)) {
    if (raw === '') continue
    const whole = raw.replace(/[.,:;()[\]{}"'’]/g, '')
    const expanded = ABBREVIATIONS[whole]
    if (expanded && /[&%#]/.test(whole)) {
      words.push(...expanded.split(' '))
      continue
    }
    for (const part of whole.split(/[^\p{L}\p{N}%#]+/u)) {
      if (part === '' || STOP_WORDS.has(part)) continue
      const spelled = ABBREVIATIONS[part]
      if (spelled) words.push(...spelled.split(' '))
      else if (part.includes('%')) words.push(...part.split('%').filter(Boolean), 'percent')
      else words.push(singular(part))
    }
  }
  return [...words, ...tokens]
}

/** Letters and digits only, lower case: "E.B.I.T.D.A." and "ebitda" are the same. */
export function compactText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '')
}

/** Edit distance, for typos of a word or two letters. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0
  if (a.length === 0) return b.length
  if (b.length === 0) return a.length
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]
}

function tokensMatch(a: string, b: string): boolean {
  if (a === b) return true
  // Period tokens match exactly or not at all: FY2026 is never FY2027.
  if (/^[yqm]\d/.test(a) || /^[yqm]\d/.test(b)) return false
  if (a.length >= 4 && b.length >= 4 && (a.startsWith(b) || b.startsWith(a))) return true
  return a.length >= 5 && b.length >= 5 && editDistance(a, b) <= 1
}

const isPeriod = (token: string) => /^[yqm]\d/.test(token)

/**
 * How well a candidate label matches what was asked for, from 0 to 1: 1 for the same words, less for
 * a partial or misspelt match; 0 when they name different periods.
 */
export function labelSimilarity(query: string, candidate: string): number {
  const compactQuery = compactText(query)
  const compactCandidate = compactText(candidate)
  if (compactQuery === '' || compactCandidate === '') return 0
  const queryTokens = labelTokens(query)
  const candidateTokens = labelTokens(candidate)
  if (queryTokens.join(' ') === candidateTokens.join(' ') && queryTokens.length > 0) return 1
  const queryPeriods = queryTokens.filter(isPeriod)
  const candidatePeriods = candidateTokens.filter(isPeriod)
  if (queryPeriods.some((token) => candidatePeriods.length > 0 && !candidatePeriods.includes(token))) return 0
  if (compactQuery === compactCandidate) return 0.98
  let score = 0
  if (queryTokens.length > 0 && candidateTokens.length > 0) {
    const sortedQuery = [...queryTokens].sort().join(' ')
    const sortedCandidate = [...candidateTokens].sort().join(' ')
    if (sortedQuery === sortedCandidate) return 0.95
    const matchedQuery = queryTokens.filter((token) => candidateTokens.some((other) => tokensMatch(token, other))).length
    const matchedCandidate = candidateTokens.filter((token) => queryTokens.some((other) => tokensMatch(token, other))).length
    const recall = matchedQuery / queryTokens.length
    const precision = matchedCandidate / candidateTokens.length
    if (recall > 0 && precision > 0) score = (0.9 * 2 * recall * precision) / (recall + precision)
  }
  const longest = Math.max(compactQuery.length, compactCandidate.length)
  if (longest >= 4) {
    const similarity = 1 - editDistance(compactQuery, compactCandidate) / longest
    score = Math.max(score, 0.85 * similarity)
  }
  return score
}

/** Below this a label is not taken as meant. */
export const LABEL_MATCH_THRESHOLD = 0.6
