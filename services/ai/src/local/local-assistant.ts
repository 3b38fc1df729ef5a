/**
 * The assistant with no model (model `local`): deterministic answers from what the service knows
 * itself — the engine's function catalogue, a glossary of finance terms, and the figures of an
 * uploaded PDF — and otherwise a helpful note of what works offline.
 */
import type { FunctionCatalogueEntry } from '@finsheet/formula'
import { evaluateOnEmptySheet, readsCells } from '../formulas/scratch-evaluation.js'
import { answerAboutDocument, asksAboutDocument, type DocumentFigures } from './document-answers.js'
import { FINANCE_GLOSSARY, glossaryEntriesIn, type GlossaryEntry } from './finance-glossary.js'
import { catalogueEntries, catalogueEntry, namedFunctions, searchFunctions } from './function-search.js'

export interface LocalQuestion {
  message: string
  /** An uploaded PDF's figures the question may be about. */
  document?: DocumentFigures
}

/** Words that say the user wants a function or a formula for something. */
const FORMULA_INTENT = /\b(formula|function|calculate|calculation|compute|how (do|can|to|would) i|excel|spreadsheet|which|what function)\b/i

export function answerLocally(question: LocalQuestion): string {
  const message = question.message.trim()
  if (question.document && asksAboutDocument(message, question.document)) return answerAboutDocument(message, question.document)

  const sections: string[] = []
  const terms = glossaryEntriesIn(message).slice(0, 3)
  for (const entry of terms) sections.push(describeTerm(entry))

  const named = namedFunctions(message).slice(0, 3)
  for (const entry of named) sections.push(describeFunction(entry))
  if (named.length === 0 && terms.length === 0 && FORMULA_INTENT.test(message)) {
    const found = searchFunctions(message, 3)
    if (found.length > 0) {
      sections.push(`These functions fit what you describe:`)
      for (const entry of found) sections.push(describeFunction(entry))
    }
  }
  if (sections.length > 0) return sections.join('\n\n')
  return offlineHelp()
}

function describeTerm(entry: GlossaryEntry): string {
  const functions = entry.functions.map((name) => catalogueEntry(name)).filter((found): found is FunctionCatalogueEntry => found !== undefined)
  return [
    `**${entry.term}**: ${entry.definition}`,
    '',
    `In a model: ${entry.inAModel}`,
    ...(functions.length > 0 ? ['', `Functions: ${functions.map((found) => `\`${found.syntax}\``).join(', ')}.`] : []),
  ].join('\n')
}

export function describeFunction(entry: FunctionCatalogueEntry): string {
  const example = `=${entry.example}`
  const lines = [`**${entry.name}** (${entry.category}): ${entry.description}`, '', `Syntax: \`${entry.syntax}\``, `Example: \`${example}\``]
  if (!readsCells(example)) {
    const result = evaluateOnEmptySheet(example)
    lines.push(`Result of the example: ${result.display}${result.error ? ` (${result.error})` : ''}`)
  }
  return lines.join('\n')
}

function offlineHelp(): string {
  const terms = FINANCE_GLOSSARY.slice(0, 8)
    .map((entry) => entry.term.replace(/ \(.*\)$/, ''))
    .join(', ')
  return [
    'I am answering offline (the Local model), without an AI model, so I can help with:',
    '',
    `- **Functions**: any of the ${catalogueEntries().length} functions of the calculation engine, with syntax and an example. Try “how does XLOOKUP work?” or “which function calculates a loan payment?”.`,
    `- **Finance terms**: ${terms} and more. Try “what is terminal value?”.`,
    '- **Uploaded PDFs**: the figures extracted from a document. Try “what was net income?” with the document selected.',
    '- **Formula suggestions**: the formula bar’s suggestions work offline too.',
    '',
    'For open questions and analysis, choose a model from Anthropic, OpenAI or Google Vertex AI in the model picker (an administrator enables them with an API key).',
  ].join('\n')
}
