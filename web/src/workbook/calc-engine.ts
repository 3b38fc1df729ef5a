/**
 * A calculated value as the browser shows it: the engine's values, with an error as its code.
 */
export type EngineValue = number | string | boolean | null | { readonly code: string }

export function isEngineError(value: EngineValue): value is { readonly code: string } {
  return typeof value === 'object' && value !== null && 'code' in value
}
