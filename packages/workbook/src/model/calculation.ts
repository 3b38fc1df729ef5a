/**
 * How a workbook calculates, as Excel keeps it in the file (`<calcPr>` in xl/workbook.xml) and shows it
 * in its calculation options: iterative calculation of circular references with its two limits, the
 * calculation mode, and whether the file asks to be calculated in full when it opens.
 */
import { MAX_CALCULATION_ITERATIONS } from '@finsheet/contracts'
import type { IterationSettings } from '@finsheet/formula'

export type CalculationMode = 'auto' | 'autoNoTable' | 'manual'

export interface CalculationSettings {
  /** Circular references are calculated by iteration instead of being reported. */
  iterate: boolean
  /** The most passes over a circular reference, 1 to 32,767. */
  maxIterations: number
  /** A circular reference has settled at the first pass in which no value moved by this much or more. */
  maxChange: number
  /** When formulas recalculate: after every change, after every change but in data tables, or on request. */
  mode: CalculationMode
  /** The file asks the application opening it to calculate every formula. */
  fullCalcOnLoad: boolean
}

/** Excel's own defaults, which a file that says nothing about calculation has. */
export const DEFAULT_CALCULATION: Readonly<CalculationSettings> = Object.freeze({
  iterate: false,
  maxIterations: 100,
  maxChange: 0.001,
  mode: 'auto',
  fullCalcOnLoad: false,
})

/** The limits Excel's options dialog takes for the number of iterations. */
export const MAX_ITERATIONS_LIMIT = MAX_CALCULATION_ITERATIONS

const MODES: readonly CalculationMode[] = ['auto', 'autoNoTable', 'manual']

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback
  return value === '1' || value.toLowerCase() === 'true'
}

/**
 * The settings a `<calcPr>` element's attributes state; an absent or unreadable attribute takes
 * Excel's default, and an iteration count outside 1–32,767 is brought inside it.
 */
export function calculationFromAttributes(attributes: Readonly<Record<string, string | undefined>> | undefined): CalculationSettings {
  if (attributes === undefined) return { ...DEFAULT_CALCULATION }
  const count = Number(attributes.iterateCount)
  const delta = Number(attributes.iterateDelta)
  const mode = attributes.calcMode as CalculationMode | undefined
  return {
    iterate: flag(attributes.iterate, DEFAULT_CALCULATION.iterate),
    maxIterations:
      attributes.iterateCount !== undefined && Number.isFinite(count)
        ? Math.min(MAX_ITERATIONS_LIMIT, Math.max(1, Math.round(count)))
        : DEFAULT_CALCULATION.maxIterations,
    maxChange: attributes.iterateDelta !== undefined && Number.isFinite(delta) && delta >= 0 ? delta : DEFAULT_CALCULATION.maxChange,
    mode: mode !== undefined && MODES.includes(mode) ? mode : DEFAULT_CALCULATION.mode,
    fullCalcOnLoad: flag(attributes.fullCalcOnLoad, DEFAULT_CALCULATION.fullCalcOnLoad),
  }
}

/**
 * What is wrong with iteration limits, or null: at most 1 to 32,767 passes, a maximum change of 0 or more.
 * The model refuses such a command with it, and the calculation options dialog shows it.
 */
export function iterationLimitsProblem(maxIterations: number, maxChange: number): string | null {
  if (!Number.isInteger(maxIterations) || maxIterations < 1 || maxIterations > MAX_ITERATIONS_LIMIT)
    return `Maximum Iterations must be a whole number from 1 to ${MAX_ITERATIONS_LIMIT.toLocaleString('en-US')}.`
  if (!Number.isFinite(maxChange) || maxChange < 0) return 'Maximum Change must be a number of 0 or more.'
  return null
}

/**
 * The engine options of a workbook stored as a flag and its limits (a service's document, the inputs a
 * browser reads): iterate or not within the limits, Excel's defaults where none are kept.
 */
export function storedIterationOptions(iterate: boolean | undefined, limits?: { maxIterations: number; maxChange: number }): { engine?: { iterative: Partial<IterationSettings> } } {
  if (!iterate && !limits) return {}
  return { engine: { iterative: { enabled: iterate === true, ...limits } } }
}

/** The engine's iteration settings for a workbook's calculation settings. */
export function iterationOf(settings: CalculationSettings): IterationSettings {
  return { enabled: settings.iterate, maxIterations: settings.maxIterations, maxChange: settings.maxChange }
}

/** Whether the settings are Excel's defaults (a file or snapshot need not state them). */
export function isDefaultCalculation(settings: CalculationSettings): boolean {
  return (Object.keys(DEFAULT_CALCULATION) as (keyof CalculationSettings)[]).every((key) => settings[key] === DEFAULT_CALCULATION[key])
}

/**
 * The attributes of `<calcPr>` that state the settings, in the order the file format lists them;
 * defaults are left out, as Excel leaves them out.
 */
export function calculationAttributes(settings: CalculationSettings): [string, string][] {
  const attributes: [string, string][] = []
  if (settings.mode !== DEFAULT_CALCULATION.mode) attributes.push(['calcMode', settings.mode])
  if (settings.fullCalcOnLoad) attributes.push(['fullCalcOnLoad', '1'])
  if (settings.iterate) attributes.push(['iterate', '1'])
  if (settings.maxIterations !== DEFAULT_CALCULATION.maxIterations) attributes.push(['iterateCount', String(settings.maxIterations)])
  if (settings.maxChange !== DEFAULT_CALCULATION.maxChange) attributes.push(['iterateDelta', String(settings.maxChange)])
  return attributes
}
