import { describe, expect, it } from 'vitest'
import { CellError } from '../../values.js'
import { arr, caller } from '../lookup/test-harness.js'
import { MISSING } from '../types.js'
import { functions } from './index.js'

const fn = caller(functions)

describe('number bases', () => {
  it('converts between bases with two’s complement negatives', () => {
    expect(fn('BIN2DEC', 1100100)).toBe(100)
    expect(fn('BIN2DEC', '1111111111')).toBe(-1)
    expect(fn('BIN2HEX', 1100100, 3)).toBe('064')
    expect(fn('BIN2OCT', '1110111011')).toBe('7777777673')
    expect(fn('DEC2BIN', 9, 4)).toBe('1001')
    expect(fn('DEC2BIN', -100)).toBe('1110011100')
    expect(fn('DEC2HEX', 100, 4)).toBe('0064')
    expect(fn('DEC2HEX', -54)).toBe('FFFFFFFFCA')
    expect(fn('DEC2OCT', 58, 3)).toBe('072')
    expect(fn('HEX2DEC', 'A5')).toBe(165)
    expect(fn('HEX2DEC', 'FFFFFFFF5B')).toBe(-165)
    expect(fn('HEX2BIN', 'F', 8)).toBe('00001111')
    expect(fn('OCT2DEC', 54)).toBe(44)
    expect(fn('OCT2HEX', '7777777533')).toBe('FFFFFFFF5B')
  })

  it('rejects invalid digits, lengths, ranges and places', () => {
    expect(fn('BIN2DEC', 3)).toBe(CellError.NUM)
    expect(fn('BIN2DEC', 2.3)).toBe(CellError.NUM)
    expect(fn('BIN2DEC', '10000000000')).toBe(CellError.NUM)
    expect(fn('BIN2DEC', true)).toBe(CellError.VALUE)
    expect(fn('HEX2DEC', 'QWERTY')).toBe(CellError.NUM)
    expect(fn('DEC2BIN', 512)).toBe(CellError.NUM)
    expect(fn('DEC2BIN', 243, 3)).toBe(CellError.NUM)
    expect(fn('BIN2HEX', '1100011011', 0)).toBe(CellError.NUM)
    expect(fn('BIN2HEX', '1100011011', 11)).toBe(CellError.NUM)
    expect(fn('BIN2HEX', '1100011011', 1)).toBe('FFFFFFFF1B')
    expect(fn('BIN2HEX', '1100011011', true)).toBe(CellError.VALUE)
  })
})

describe('bits, DELTA and GESTEP', () => {
  it('operates on whole numbers below 2^48', () => {
    expect(fn('BITAND', 13, 25)).toBe(9)
    expect(fn('BITOR', 23, 10)).toBe(31)
    expect(fn('BITXOR', 5, 3)).toBe(6)
    expect(fn('BITLSHIFT', 4, 2)).toBe(16)
    expect(fn('BITRSHIFT', 13, 2)).toBe(3)
    expect(fn('BITLSHIFT', 13, -2)).toBe(3)
    expect(fn('BITAND', true, 4)).toBe(0)
    expect(fn('BITAND', '123', 456)).toBe(72)
    expect(fn('BITAND', 0.1, 2)).toBe(CellError.NUM)
    expect(fn('BITAND', -1, 2)).toBe(CellError.NUM)
    expect(fn('BITLSHIFT', 2 ** 47, 1)).toBe(CellError.NUM)
  })

  it('compares numbers', () => {
    expect(fn('DELTA', 5, 4)).toBe(0)
    expect(fn('DELTA', 5, 5)).toBe(1)
    expect(fn('DELTA', 0)).toBe(1)
    expect(fn('GESTEP', 5, 4)).toBe(1)
    expect(fn('GESTEP', -4, -3)).toBe(0)
    expect(fn('GESTEP', -1)).toBe(0)
    expect(fn('GESTEP', true)).toBe(CellError.VALUE)
  })
})

describe('ERF and the Bessel functions', () => {
  it('computes the error function to full precision', () => {
    expect(fn('ERF', 0.745)).toBeCloseTo(0.70792892, 8)
    expect(fn('ERF', 1)).toBeCloseTo(0.8427007929497149, 15)
    expect(fn('ERFC', 1)).toBeCloseTo(0.15729920705028513, 15)
    expect((fn('ERFC', 5) as number) / 1.5374597944280349e-12).toBeCloseTo(1, 12)
    expect((fn('ERFC', 10) as number) / 2.088487583762545e-45).toBeCloseTo(1, 12)
    expect(fn('ERF', 0, 5)).toBeCloseTo(0.9999999999984626, 15)
    expect(fn('ERFC.PRECISE', -1)).toBeCloseTo(1.8427007929497148, 15)
    expect(fn('ERF.PRECISE', -2)).toBeCloseTo(-0.9953222650189527, 15)
    expect(fn('ERF', true)).toBe(CellError.VALUE)
  })

  it('computes Bessel functions as Excel does', () => {
    expect(fn('BESSELI', 0.2, 0)).toBe(1.0100250221205638)
    expect(fn('BESSELI', 1, 1)).toBeCloseTo(0.5651590975819435, 15)
    expect(fn('BESSELI', 1.5, 1)).toBeCloseTo(0.981666428, 8)
    expect(fn('BESSELJ', 2, 7)).toBe(1.7494407486827422e-4)
    expect(fn('BESSELJ', 2.4, 10)).toBeCloseTo(1.4958291233129393e-6, 20)
    expect(fn('BESSELK', 2, 7)).toBeCloseTo(305.53802219999994, 10)
    expect(fn('BESSELK', 1.5, 1)).toBeCloseTo(0.277387804, 8)
    expect(fn('BESSELY', 2.5, 1)).toBeCloseTo(0.145918138, 8)
    expect(fn('BESSELK', -1, 1)).toBe(CellError.NUM)
    expect(fn('BESSELI', 1, -1)).toBe(CellError.NUM)
  })
})

describe('complex numbers', () => {
  it('builds and reads complex text', () => {
    expect(fn('COMPLEX', 3, 4)).toBe('3+4i')
    expect(fn('COMPLEX', 1, -2, 'j')).toBe('1-2j')
    expect(fn('COMPLEX', 0, 1)).toBe('i')
    expect(fn('COMPLEX', 0, 0)).toBe('0')
    expect(fn('COMPLEX', 1e-16, 0)).toBe('0.0000000000000001')
    expect(fn('COMPLEX', 1e-20, 0)).toBe('1E-20')
    expect(fn('COMPLEX', 1, 1, 'k')).toBe(CellError.VALUE)
    expect(fn('IMREAL', '6-9i')).toBe(6)
    expect(fn('IMAGINARY', '-i')).toBe(-1)
    expect(fn('IMAGINARY', '4')).toBe(0)
    expect(fn('IMABS', '5+12i')).toBe(13)
    expect(fn('IMARGUMENT', '3+4i')).toBeCloseTo(0.92729522, 8)
    expect(fn('IMCONJUGATE', '3+4i')).toBe('3-4i')
    expect(fn('IMREAL', 'abc')).toBe(CellError.NUM)
    expect(fn('IMREAL', true)).toBe(CellError.VALUE)
  })

  it('does complex arithmetic and functions', () => {
    expect(fn('IMSUM', '3+4i', '5-3i')).toBe('8+i')
    expect(fn('IMSUB', '13+4i', '5+3i')).toBe('8+i')
    expect(fn('IMPRODUCT', '3+4i', '5-3i')).toBe('27+11i')
    expect(fn('IMPRODUCT', arr([['1+2i', 30]]))).toBe('30+60i')
    expect(fn('IMDIV', '-238+240i', '10+24i')).toBe('5+12i')
    expect(fn('IMDIV', '1+i', 0)).toBe(CellError.NUM)
    expect(fn('IMPOWER', '2+3i', 3)).toBe('-46+9.00000000000001i')
    expect(fn('IMSQRT', '1+i')).toBe('1.09868411346781+0.455089860562227i')
    expect(fn('IMEXP', '1+i')).toBe('1.46869393991589+2.28735528717884i')
    expect(fn('IMLN', '3+4i')).toBe('1.6094379124341+0.927295218001612i')
    expect(fn('IMSIN', '4+3i')).toBe('-7.61923172032141-6.548120040911i')
    expect(fn('IMCOS', '1+i')).toBe('0.833730025131149-0.988897705762865i')
    expect(fn('IMSUM', '1+i', '1+j')).toBe(CellError.VALUE)
    expect(fn('IMLN', 0)).toBe(CellError.NUM)
  })
})

describe('CONVERT', () => {
  it('converts units with prefixes and temperature scales', () => {
    expect(fn('CONVERT', 1, 'lbm', 'kg')).toBeCloseTo(0.45359237, 12)
    expect(fn('CONVERT', 68, 'F', 'C')).toBeCloseTo(20, 12)
    expect(fn('CONVERT', 2.5, 'ft', 'sec')).toBe(CellError.NA)
    expect(fn('CONVERT', 6, 'tsp', 'tbs')).toBeCloseTo(2, 12)
    expect(fn('CONVERT', 6, 'gal', 'l')).toBeCloseTo(22.71247, 5)
    expect(fn('CONVERT', 6, 'mi', 'km')).toBeCloseTo(9.656064, 9)
    expect(fn('CONVERT', 6, 'km', 'mi')).toBeCloseTo(3.728227153, 9)
    expect(fn('CONVERT', 6, 'in', 'ft')).toBeCloseTo(0.5, 15)
    expect(fn('CONVERT', 6, 'cm', 'in')).toBeCloseTo(2.362204724, 9)
    expect(fn('CONVERT', 1, 'km2', 'm2')).toBe(1e6)
    expect(fn('CONVERT', 1, 'kibyte', 'bit')).toBe(8192)
    expect(fn('CONVERT', 100, 'C', 'K')).toBeCloseTo(373.15, 12)
    expect(fn('CONVERT', 1, 'xyz', 'm')).toBe(CellError.NA)
    expect(fn('CONVERT', MISSING, 'm', 'm')).toBe(0)
  })
})
