import { describe, expect, it } from 'vitest'
import { gamma, logGamma, normalCdf, normalInverse, regularizedBeta, regularizedGammaP, regularizedGammaQ } from './special.js'

/** Relative error against reference values computed to 30 digits (mpmath). */
function relative(actual: number, expected: number): number {
  return Math.abs(actual - expected) / Math.abs(expected)
}

describe('special functions to full precision', () => {
  it('gamma and its logarithm', () => {
    expect(relative(logGamma(10.3), 13.482036786138357)).toBeLessThan(1e-14)
    expect(relative(logGamma(1e-5), 11.512919692895826)).toBeLessThan(1e-14)
    expect(relative(logGamma(1000.5), 5908.6741758486778)).toBeLessThan(1e-14)
    expect(relative(gamma(4.5), 11.631728396567448)).toBeLessThan(1e-14)
    expect(relative(gamma(-1.5), 2.3632718012073548)).toBeLessThan(1e-14)
    expect(relative(gamma(170.5), 5.5620924145599999e305)).toBeLessThan(1e-13)
    expect(gamma(6)).toBe(120)
  })

  it('incomplete gamma and beta functions', () => {
    expect(relative(regularizedGammaP(3, 2), 0.32332358381693654)).toBeLessThan(1e-14)
    expect(relative(regularizedGammaQ(0.5, 25), 1.5374597944280349e-12)).toBeLessThan(1e-13)
    expect(relative(regularizedGammaP(100, 90), 0.15822098918643016)).toBeLessThan(1e-12)
    expect(relative(regularizedBeta(0.3, 2, 5), 0.579825)).toBeLessThan(1e-13)
    expect(relative(regularizedBeta(0.9, 50, 3), 0.096633285137252126)).toBeLessThan(1e-12)
  })

  it('the normal distribution and its inverse, in the tails and at the centre', () => {
    expect(relative(normalCdf(-10), 7.6198530241605255e-24)).toBeLessThan(1e-13)
    expect(relative(normalInverse(0.975), 1.9599639845400543)).toBeLessThan(1e-15)
    expect(relative(normalInverse(1e-10), -6.3613409024040566)).toBeLessThan(1e-15)
    expect(relative(normalInverse(0.5000003989422803), 9.9999999974591273e-7)).toBeLessThan(1e-9)
  })
})
