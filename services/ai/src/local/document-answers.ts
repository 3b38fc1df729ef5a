/**
 * Questions about a PDF's extracted figures, answered from the figures themselves: the lines whose
 * labels the question names, the ratios they give, or a summary.
 */
import type { PdfEntry } from '@finsheet/contracts'
import { analyseEntries } from '../documents/document-analysis.js'
import { normalisedWords } from './function-search.js'

export interface DocumentFigures {
  fileName: string
  data: PdfEntry[]
}

const RATIO_WORDS: Record<string, string[]> = {
  grossMargin: ['gross', 'margin'],
  operatingMargin: ['operating', 'margin'],
  ebitdaMargin: ['ebitda', 'margin'],
  netMargin: ['net', 'margin'],
  debtToEquity: ['debt', 'equity'],
  returnOnEquity: ['return', 'equity'],
  returnOnAssets: ['return', 'asset'],
}

const RATIO_LABELS: Record<string, string> = {
  grossMargin: 'Gross margin',
  operatingMargin: 'Operating margin',
  ebitdaMargin: 'EBITDA margin',
  netMargin: 'Net margin',
  debtToEquity: 'Debt to equity',
  returnOnEquity: 'Return on equity',
  returnOnAssets: 'Return on assets',
}

const QUESTION_WORDS = new Set(normalisedWords('what is was were the a an of in for how much many did does do show tell me about value figure number document pdf file report total'))

const number = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 2 })

/** Whether a question is about the document rather than about finance or formulas in general. */
export function asksAboutDocument(question: string, figures: DocumentFigures): boolean {
  if (/\b(document|pdf|report|statement|file|uploaded|extracted|figures)\b/i.test(question)) return true
  return matchingEntries(question, figures.data).length > 0 || askedRatios(question, figures.data).length > 0
}

/** The ratios the question names that the document's lines give. */
function askedRatios(question: string, data: PdfEntry[]): Array<[name: string, value: number]> {
  const asked = new Set(normalisedWords(question))
  const { ratios } = analyseEntries(data, 0)
  return Object.entries(RATIO_WORDS).flatMap(([name, words]): Array<[string, number]> =>
    ratios[name] !== undefined && words.every((word) => asked.has(word)) ? [[name, ratios[name]]] : [],
  )
}

/** The entries whose labels the question names: most of a label's words, best first. */
function matchingEntries(question: string, data: PdfEntry[]): PdfEntry[] {
  const asked = new Set(normalisedWords(question).filter((word) => !QUESTION_WORDS.has(word)))
  if (asked.size === 0) return []
  const scored = data
    .map((entry) => {
      const words = normalisedWords(entry.label).filter((word) => !QUESTION_WORDS.has(word))
      const shared = words.filter((word) => asked.has(word)).length
      return { entry, score: words.length === 0 ? 0 : shared / words.length + shared / 100 }
    })
    .filter(({ score }) => score >= 0.5)
  const best = Math.max(0, ...scored.map(({ score }) => score))
  return scored.filter(({ score }) => score >= best - 0.25).map(({ entry }) => entry)
}

export function answerAboutDocument(question: string, figures: DocumentFigures): string {
  const { data, fileName } = figures
  if (data.length === 0) return `No figures were extracted from ${fileName}, so there is nothing in it I can read offline.`
  const analysis = analyseEntries(data, 0)
  const lines = askedRatios(question, data).map(([name, value]) => `- **${RATIO_LABELS[name]}**: ${(value * 100).toFixed(1)}% (computed from the extracted lines)`)
  const entries = matchingEntries(question, data).slice(0, 8)
  for (const entry of entries) lines.push(`- **${entry.label}**: ${number(entry.value)}${entry.notes ? ` (${entry.notes})` : ''}`)
  if (lines.length > 0) return `From **${fileName}**:\n\n${lines.join('\n')}`

  const listed = data.slice(0, 15).map((entry) => `- ${entry.label}: ${number(entry.value)}`)
  const ratios = Object.entries(analysis.ratios).map(([name, value]) => `${RATIO_LABELS[name]} ${(value * 100).toFixed(1)}%`)
  return [
    `**${fileName}**: ${data.length} ${data.length === 1 ? 'figure was' : 'figures were'} extracted.`,
    '',
    ...listed,
    ...(data.length > listed.length ? [`- … and ${data.length - listed.length} more`] : []),
    ...(ratios.length > 0 ? ['', `Ratios from the recognised lines: ${ratios.join(', ')}.`] : []),
    '',
    'Ask about any of these lines by name, such as “what was net income?”.',
  ].join('\n')
}
