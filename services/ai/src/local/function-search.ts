/**
 * Finding spreadsheet functions in the engine's catalogue without a model: by the names a question
 * writes (XLOOKUP, npv(...)) and by what it describes ("monthly loan payment" → PMT), matching the
 * catalogue's descriptions and the phrases modellers use for common calculations.
 */
import { functionCatalogue, type FunctionCatalogueEntry } from '@finsheet/formula'

let catalogue: FunctionCatalogueEntry[] | undefined
let byName: Map<string, FunctionCatalogueEntry> | undefined
let indexed: Array<{ entry: FunctionCatalogueEntry; words: Set<string> }> | undefined

export function catalogueEntries(): FunctionCatalogueEntry[] {
  return (catalogue ??= functionCatalogue())
}

export function catalogueEntry(name: string): FunctionCatalogueEntry | undefined {
  byName ??= new Map(catalogueEntries().map((entry) => [entry.name, entry]))
  return byName.get(name.toUpperCase())
}

/** Function names that are also everyday words: only taken as functions when written in capitals or called. */
const EVERYDAY_WORDS = new Set(
  'if and or not true false n t now today left right mid value text find search type info cell days day date time year month hour minute second index rows columns sign power product exact fixed mode large small choose match rank rate replace substitute trim upper lower proper len char code clean rept sum max min count average median round floor ceiling int abs odd even true areas offset address sheet sheets lookup percentile quartile sort filter unique sequence transpose let lambda map reduce scan price yield effect growth trend duration frequency base delta convert fact received nominal intercept slope forecast mod log exp pi rand image hyperlink combin quotient disc intrate coupon tbill db'.split(
    ' ',
  ),
)

/** The functions a text names: called (`npv(`), written in capitals, or a less common name in any case. */
export function namedFunctions(text: string): FunctionCatalogueEntry[] {
  const found: FunctionCatalogueEntry[] = []
  const add = (entry: FunctionCatalogueEntry | undefined) => {
    if (entry && !found.includes(entry)) found.push(entry)
  }
  for (const match of text.matchAll(/([A-Za-z][A-Za-z0-9.]*[A-Za-z0-9])\s*\(/g)) add(catalogueEntry(match[1]))
  for (const match of text.matchAll(/(?<![A-Za-z0-9.])([A-Za-z][A-Za-z0-9.]*[A-Za-z0-9])(?![A-Za-z0-9])/g)) {
    const word = match[1]
    const capitals = word === word.toUpperCase() && /[A-Z]/.test(word)
    if (capitals || (word.length >= 3 && !EVERYDAY_WORDS.has(word.toLowerCase()))) add(catalogueEntry(word))
  }
  return found
}

/** Phrases modellers use, and the functions they mean. Matched on normalised words, in order. */
const PHRASES: Array<[phrase: string, functions: string[]]> = [
  ['loan payment', ['PMT', 'IPMT', 'PPMT']],
  ['mortgage', ['PMT', 'NPER', 'RATE']],
  ['monthly payment', ['PMT']],
  ['instalment', ['PMT']],
  ['installment', ['PMT']],
  ['interest part', ['IPMT', 'CUMIPMT']],
  ['principal part', ['PPMT', 'CUMPRINC']],
  ['net present value', ['NPV', 'XNPV']],
  ['npv', ['NPV', 'XNPV']],
  ['present value', ['PV', 'NPV']],
  ['discount cash flow', ['NPV', 'XNPV']],
  ['future value', ['FV']],
  ['internal rate of return', ['IRR', 'XIRR', 'MIRR']],
  ['irr', ['IRR', 'XIRR']],
  ['rate of return', ['IRR', 'XIRR', 'RRI']],
  ['growth rate', ['RRI', 'GROWTH']],
  ['compound annual growth', ['RRI']],
  ['cagr', ['RRI']],
  ['number of period', ['NPER']],
  ['interest rate', ['RATE', 'EFFECT', 'NOMINAL']],
  ['effective rate', ['EFFECT']],
  ['depreciation', ['SLN', 'DB', 'DDB', 'SYD', 'VDB']],
  ['straight line', ['SLN']],
  ['look up', ['XLOOKUP', 'VLOOKUP', 'INDEX', 'MATCH']],
  ['lookup', ['XLOOKUP', 'VLOOKUP', 'INDEX', 'MATCH']],
  ['find value in table', ['XLOOKUP', 'VLOOKUP']],
  ['conditional sum', ['SUMIFS', 'SUMIF']],
  ['sum if', ['SUMIFS', 'SUMIF']],
  ['sum with condition', ['SUMIFS']],
  ['count if', ['COUNTIFS', 'COUNTIF']],
  ['count with condition', ['COUNTIFS']],
  ['average if', ['AVERAGEIFS', 'AVERAGEIF']],
  ['total', ['SUM', 'SUBTOTAL']],
  ['add up', ['SUM']],
  ['mean', ['AVERAGE']],
  ['average', ['AVERAGE', 'AVERAGEIFS']],
  ['largest', ['MAX', 'LARGE']],
  ['maximum', ['MAX']],
  ['smallest', ['MIN', 'SMALL']],
  ['minimum', ['MIN']],
  ['round', ['ROUND', 'ROUNDUP', 'ROUNDDOWN']],
  ['day between', ['DAYS', 'DATEDIF', 'NETWORKDAYS']],
  ['working day', ['NETWORKDAYS', 'WORKDAY']],
  ['business day', ['NETWORKDAYS', 'WORKDAY']],
  ['end of month', ['EOMONTH']],
  ['month end', ['EOMONTH']],
  ['add month', ['EDATE', 'EOMONTH']],
  ['year fraction', ['YEARFRAC']],
  ['weighted average', ['SUMPRODUCT']],
  ['sumproduct', ['SUMPRODUCT']],
  ['standard deviation', ['STDEV.S', 'STDEV.P']],
  ['volatility', ['STDEV.S']],
  ['correlation', ['CORREL']],
  ['regression', ['SLOPE', 'INTERCEPT', 'LINEST']],
  ['forecast', ['FORECAST.LINEAR', 'TREND', 'GROWTH']],
  ['trend', ['TREND', 'FORECAST.LINEAR']],
  ['error', ['IFERROR', 'IFNA']],
  ['join text', ['TEXTJOIN', 'CONCAT']],
  ['combine text', ['TEXTJOIN', 'CONCAT']],
  ['percentage change', ['ROUND']],
  ['bond price', ['PRICE', 'YIELD']],
  ['bond yield', ['YIELD']],
]

/** Lower-case, without punctuation, plural and verb endings trimmed, so 'payments' finds 'payment'. */
export function normalisedWords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).map(stem)
}

function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return word.slice(0, -3) + 'y'
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3)
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1)
  return word
}

const CONDITION_WORDS = new Set(['where', 'if', 'when', 'only', 'condition', 'criteria', 'matching', 'whose'])
const CONDITIONAL_AGGREGATES: Array<[word: string, name: string]> = [
  ['sum', 'SUMIFS'],
  ['total', 'SUMIFS'],
  ['count', 'COUNTIFS'],
  ['average', 'AVERAGEIFS'],
  ['max', 'MAXIFS'],
  ['min', 'MINIFS'],
]

const STOP_WORDS = new Set(
  'a an the of to in on for and or with by from at as is are be it its this that these those what which how do does can i me my we you your please want need show give get use using formula function calculate compute work out find cell cells value values number numbers excel spreadsheet sheet between each per into'
    .split(' ')
    .map(stem),
)

/**
 * Functions for what a text describes, best first: named ones, then phrases modellers use, then
 * the catalogue entries whose descriptions share the most words with it.
 */
export function searchFunctions(text: string, limit: number): FunctionCatalogueEntry[] {
  const scores = new Map<FunctionCatalogueEntry, number>()
  const bump = (entry: FunctionCatalogueEntry | undefined, score: number) => {
    if (entry) scores.set(entry, (scores.get(entry) ?? 0) + score)
  }
  namedFunctions(text).forEach((entry, index) => bump(entry, 100 - index))
  const words = normalisedWords(text)
  const joined = ` ${words.join(' ')} `
  for (const [phrase, names] of PHRASES) {
    if (!joined.includes(` ${normalisedWords(phrase).join(' ')} `)) continue
    names.forEach((name, index) => bump(catalogueEntry(name), 20 - index))
  }
  // "sum sales where region is East": an aggregate with a condition is its *IFS function.
  if (words.some((word) => CONDITION_WORDS.has(word))) {
    for (const [word, name] of CONDITIONAL_AGGREGATES) if (words.includes(word)) bump(catalogueEntry(name), 15)
  }
  const meaningful = [...new Set(words.filter((word) => !STOP_WORDS.has(word) && word.length > 1))]
  if (meaningful.length > 0) {
    indexed ??= catalogueEntries().map((entry) => ({ entry, words: new Set(normalisedWords(`${entry.name} ${entry.description} ${entry.syntax}`)) }))
    for (const { entry, words: entryWords } of indexed) {
      const shared = meaningful.filter((word) => entryWords.has(word)).length
      // Half the words or more, or two words at least: one shared word alone says little.
      if (shared >= 2 || (shared === 1 && meaningful.length === 1)) bump(entry, shared * 2)
    }
  }
  return [...scores.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].name.localeCompare(b[0].name))
    .slice(0, limit)
    .map(([entry]) => entry)
}
