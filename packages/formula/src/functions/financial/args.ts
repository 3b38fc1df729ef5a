/**
 * Argument helpers shared by the financial functions.
 */
import { MISSING } from '../types.js'
import type { Arg } from '../types.js'

/** An optional number argument (already coerced by its `number` kind); absent or empty gives `fallback`. */
export function optional(arg: Arg | undefined, fallback: number): number {
  return arg === undefined || arg === MISSING ? fallback : (arg as number)
}

/** The payment-timing argument: 0 (end of period, the default) or anything else for the beginning. */
export function paymentAtStart(arg: Arg | undefined): boolean {
  return optional(arg, 0) !== 0
}
