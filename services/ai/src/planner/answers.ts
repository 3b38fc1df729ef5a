/**
 * What the planner says: every answer opens with what it understood ("I read that as: …"), then
 * what happened; a command it cannot read gets the list of what it can do.
 */
import type { ValueSpec } from './command-language.js'
import type { Observation } from './plan-kit.js'

/** The answer to a command: its reading, then the outcome. */
export function readAs(paraphrase: string, outcome?: string): string {
  return [`I read that as: ${paraphrase}.`, ...(outcome ? [outcome] : [])].join('\n\n')
}

/** A number as a sentence shows it: twelve significant digits, no floating-point noise. */
export function prose(value: unknown): string {
  if (typeof value === 'number') return String(Number(value.toPrecision(12)))
  if (typeof value === 'string') return value
  return JSON.stringify(value)
}

/** A value of a command as the user wrote it. */
export function valueText(value: ValueSpec): string {
  switch (value.kind) {
    case 'number':
      return value.shown
    case 'text':
      return `the text “${value.input}”`
    case 'formula':
      return `the formula ${value.input}`
    case 'boolean':
      return String(value.value).toUpperCase()
    default:
      return String(value.input)
  }
}

/** What a write did, from its result: what the cells show now, what else changed, errors it caused. */
export function writeOutcome(result: Observation, limit = 4): string {
  const content = result.content ?? {}
  const parts: string[] = []
  const written = Object.entries((content.written ?? content.sample ?? {}) as Record<string, unknown>)
  if (written.length > 0) {
    const shown = written.slice(0, limit).map(([cell, value]) => `${cell} = ${cellShown(value)}`)
    parts.push(`Now ${shown.join(', ')}${written.length > limit ? ` and ${written.length - limit} more` : ''}.`)
  }
  if (typeof content.recalculated === 'string') parts.push(`${capitalise(content.recalculated)} as a result.`)
  const errors = (content.newErrors ?? []) as string[]
  if (errors.length > 0) parts.push(`Watch out: ${errors.slice(0, 5).join(', ')}${errors.length > 5 ? ` and ${errors.length - 5} more` : ''} now show an error.`)
  return parts.join(' ')
}

function cellShown(value: unknown): string {
  if (value !== null && typeof value === 'object') {
    const cell = value as { value?: unknown; shown?: string; formula?: string }
    return `${cell.shown ?? prose(cell.value)}${cell.formula ? ` (${cell.formula})` : ''}`
  }
  return prose(value)
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/** What the planner understands, with an example of each kind of command. */
export const PLANNER_CAPABILITIES: readonly string[] = [
  'Set values and formulas: “set B3 to 15%”, “set growth to 12%”, “put =SUM(B2:B9) in B10”, “fill B3:F3 with 5”',
  'Write text: “write Total in A10”, “in A5 put Gross profit”; link a value: “set Summary!B2 to the enterprise value”',
  'Several at once: “put Revenue in A1 and 1000 in B1”, “set B2 to 5; make row 1 bold”',
  'Fill formulas: “fill B5 right to F5”, “copy C2 down to C20”',
  'Calculated rows: “add a row Gross profit = revenue - costs”, “put revenue minus costs in row 4”, “add a row for EBITDA with a 20% margin”, “add an EBITDA margin row”, “add a revenue growth row”',
  'Rows and columns: “insert 2 rows above row 5”, “delete column C”',
  'Sheets: “add a sheet called Summary”, “rename Sheet1 to Inputs”, “delete the sheet Scratch”',
  'Formats: “make row 1 bold”, “format C2:C20 as currency”, “show B2:B9 as percentages with 1 decimal”, “format B2:D9 as #,##0;(#,##0)”, “put a border around A1:D9”',
  'Totals: “sum column C”, “total B2:B9 in B10”, “add a total row”',
  'Sort, clear and move: “sort A2:C10 by column B descending”, “clear D2:D9”, “move A7:B7 to A10”, “swap rows 3 and 4” (formulas that read the cells follow them)',
  'Layout: “freeze the top row”, “freeze panes at B2”, “hide column C”, “unhide rows 5 to 7”, “set the width of column A to 30”',
  'Charts: “bar chart of A1:B12” (bar, line, pie, area, combo or waterfall)',
  'Sensitivity tables: “WACC 8% to 12% against terminal growth 1% to 3%”, “add a sensitivity table for WACC and terminal growth”',
  'Growth: “grow revenue 15% a year in years 2 to 5”, “create a 5 year revenue projection growing 10% a year starting at 1000”',
  'More periods: “add 2 more years”, “extend the model to 2032”, “project revenue for 3 more years at 8% growth”',
  'Explain and audit: “explain Valuation!B1”, “audit the workbook”',
  'Questions: “what is the enterprise value?”, “what’s the total revenue?” (answered from the cells, nothing written)',
  'New models: “create a DCF model for Acme with 7 years and 3% terminal growth”',
]

/** The answer to a command the planner cannot read: nothing is changed. */
export function helpAnswer(command: string): string {
  const quoted = command.trim().length > 120 ? `${command.trim().slice(0, 117)}…` : command.trim()
  return [
    `I could not read “${quoted}” as a spreadsheet command, so I changed nothing. Without an AI model (the Local model), I understand commands like these:`,
    '',
    ...PLANNER_CAPABILITIES.map((line) => `- ${line}`),
    '',
    'Name cells by address (B3, Assumptions!C4) or by their row label and column header (“revenue for FY2025”). For open questions, choose a model from Anthropic, OpenAI or Google Vertex AI in the model picker.',
  ].join('\n')
}
