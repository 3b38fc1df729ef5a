/**
 * Excel number format codes: up to four sections (`positive;negative;zero;text`), colours (`[Red]`),
 * digit placeholders `0 # ?`, thousands separators and scaling (`#,##0,`), percent, scientific
 * (`0.00E+00`), fractions (`# ?/?`, `# ??/16`), quoted and escaped literals, `_x` spacing, and dates and
 * times (`d-mmm-yy h:mm AM/PM`, elapsed `[h]:mm`). Without a format a number shows as Excel's General.
 */
import { dateFromSerial, timeFromSerial, weekdayFromSerial } from '../dates.js'
import { CellError } from '../values.js'
import type { Scalar } from '../values.js'

export interface FormattedValue {
  text: string
  /** The colour the format asks for ('red', 'blue'...), if any. */
  color?: string
}

type Token =
  | { kind: 'literal'; text: string }
  | { kind: 'digit'; char: '0' | '#' | '?' }
  | { kind: 'point' }
  | { kind: 'comma' }
  | { kind: 'percent' }
  | { kind: 'exponent'; sign: '+' | '-' }
  | { kind: 'text' }
  | { kind: 'date'; code: string }
  /** The texts for before and after noon, in the case the format writes them (`AM/PM`, `am/pm`, `A/P`). */
  | { kind: 'ampm'; morning: string; afternoon: string }
  | { kind: 'elapsed'; unit: 'h' | 'm' | 's'; width: number }
  | { kind: 'general' }
  /** The bar of a fraction (`# ?/?`), with the denominator when the format fixes it (`# ??/16`). */
  | { kind: 'fraction-bar'; denominator?: number }

interface Section {
  tokens: Token[]
  color?: string
  condition?: { operator: string; value: number }
  isDate: boolean
}

const COLORS = ['black', 'blue', 'cyan', 'green', 'magenta', 'red', 'white', 'yellow']
const cache = new Map<string, Section[]>()

/** Formats a cell value for display with an Excel format code (or the default when none). */
export function formatValue(value: Scalar, format?: string): string {
  return formatValueWithColor(value, format).text
}

export function formatValueWithColor(value: Scalar, format?: string): FormattedValue {
  if (value === null) return { text: '' }
  if (value instanceof CellError) return { text: value.code }
  if (typeof value === 'boolean') return { text: value ? 'TRUE' : 'FALSE' }
  const sections = format === undefined || format === '' ? undefined : parseFormat(format)
  if (typeof value === 'string') {
    const textSection = sections && (sections[3] ?? sections.find((s, i) => i === 0 && s.tokens.some((t) => t.kind === 'text')))
    if (!textSection) return { text: value }
    return { text: renderText(textSection, value), color: textSection.color }
  }
  if (!sections) return { text: defaultNumber(value) }
  const { section, absolute } = chooseSection(sections, value)
  const text = section.isDate ? renderDate(section, value) : renderNumber(section, absolute ? Math.abs(value) : value)
  return { text, color: section.color }
}

/** A number without a format shows as Excel's General does: up to 11 characters of digits. */
export function defaultNumber(value: number): string {
  return generalNumber(value)
}

/**
 * Excel's General format: at most 11 characters of digits and decimal point (the sign does not count).
 * A number that fits exactly is written out; otherwise Excel picks between the rounded decimal form and
 * scientific notation (`1.23457E+11`) whichever shows more significant digits.
 */
export function generalNumber(value: number): string {
  if (value === 0) return '0'
  // The shortest text that reads back as the number, when it fits in 11 characters, is what General
  // shows (the grid formats every visible cell, so the common case skips the rounding below).
  const shortest = String(value)
  if (shortest.length - (value < 0 ? 1 : 0) <= 11 && !shortest.includes('e')) return shortest
  const sign = value < 0 ? '-' : ''
  const magnitude = Math.abs(Number(value.toPrecision(15)))
  const exponent = Math.floor(Math.log10(magnitude))
  const scientific = (): string => {
    const [mantissa, power] = magnitude.toExponential(Math.abs(exponent) >= 100 ? 4 : 5).split('e')
    const trimmed = mantissa.includes('.') ? mantissa.replace(/\.?0+$/, '') : mantissa
    const powerNumber = Number(power)
    return `${sign}${trimmed}E${powerNumber < 0 ? '-' : '+'}${String(Math.abs(powerNumber)).padStart(2, '0')}`
  }
  if (exponent >= 11) return scientific()
  const integerDigits = exponent >= 0 ? exponent + 1 : 1
  const decimals = Math.max(0, 10 - integerDigits)
  const fixed = magnitude.toFixed(decimals).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '')
  if (Number(fixed) === magnitude) return sign + fixed
  // Significant digits each form can show: the decimal form loses the zeros after the point.
  const fixedDigits = exponent >= 0 ? integerDigits + decimals : decimals + exponent + 1
  const scientificDigits = Math.abs(exponent) >= 100 ? 5 : 6
  if (fixedDigits < scientificDigits || Number(fixed) === 0) return scientific()
  return sign + fixed
}

function chooseSection(sections: Section[], value: number): { section: Section; absolute: boolean } {
  const numeric = sections.slice(0, 3)
  if (numeric.some((section) => section.condition)) {
    for (let i = 0; i < numeric.length; i++) {
      const condition = numeric[i].condition
      if (condition && test(condition, value)) return { section: numeric[i], absolute: i > 0 && value < 0 }
      if (!condition) return { section: numeric[i], absolute: value < 0 && i > 0 }
    }
    return { section: numeric[numeric.length - 1], absolute: false }
  }
  if (numeric.length === 1) return { section: numeric[0], absolute: false }
  if (value > 0) return { section: numeric[0], absolute: false }
  if (value < 0) return { section: numeric[1], absolute: true }
  return { section: numeric[2] ?? numeric[0], absolute: false }
}

function test(condition: { operator: string; value: number }, value: number): boolean {
  switch (condition.operator) {
    case '<':
      return value < condition.value
    case '<=':
      return value <= condition.value
    case '>':
      return value > condition.value
    case '>=':
      return value >= condition.value
    case '<>':
      return value !== condition.value
    default:
      return value === condition.value
  }
}

export function parseFormat(format: string): Section[] {
  const cached = cache.get(format)
  if (cached) return cached
  const sections = splitSections(format).map(parseSection)
  if (cache.size > 500) cache.clear()
  cache.set(format, sections)
  return sections
}

function splitSections(format: string): string[] {
  const sections: string[] = []
  let current = ''
  let quoted = false
  for (let i = 0; i < format.length; i++) {
    const ch = format[i]
    if (ch === '"') quoted = !quoted
    if (!quoted && ch === '\\' && i + 1 < format.length) {
      current += ch + format[++i]
      continue
    }
    if (!quoted && ch === ';') {
      sections.push(current)
      current = ''
      continue
    }
    current += ch
  }
  sections.push(current)
  return sections.slice(0, 4)
}

function parseSection(source: string): Section {
  const tokens: Token[] = []
  const section: Section = { tokens, isDate: false }
  let i = 0
  const lower = source.toLowerCase()
  const push = (token: Token) => tokens.push(token)
  while (i < source.length) {
    const ch = source[i]
    const lc = lower[i]
    if (ch === '"') {
      const end = source.indexOf('"', i + 1)
      push({ kind: 'literal', text: source.slice(i + 1, end < 0 ? source.length : end) })
      i = end < 0 ? source.length : end + 1
      continue
    }
    if (ch === '\\') {
      push({ kind: 'literal', text: source[i + 1] ?? '' })
      i += 2
      continue
    }
    if (ch === '_') {
      push({ kind: 'literal', text: ' ' })
      i += 2
      continue
    }
    if (ch === '*') {
      i += 2
      continue
    }
    if (ch === '[') {
      const end = source.indexOf(']', i)
      const inner = source.slice(i + 1, end < 0 ? source.length : end)
      i = end < 0 ? source.length : end + 1
      const innerLower = inner.toLowerCase()
      if (COLORS.includes(innerLower)) section.color = innerLower
      else if (/^color\d+$/.test(innerLower)) section.color = innerLower
      else if (/^(h+|m+|s+)$/.test(innerLower)) {
        push({ kind: 'elapsed', unit: innerLower[0] as 'h' | 'm' | 's', width: inner.length })
        section.isDate = true
      } else if (/^(<=|>=|<>|<|>|=)-?\d+(\.\d+)?$/.test(inner)) {
        const match = /^(<=|>=|<>|<|>|=)(.*)$/.exec(inner) as RegExpExecArray
        section.condition = { operator: match[1], value: Number(match[2]) }
      } else if (inner.startsWith('$')) {
        const symbol = inner.slice(1).split('-')[0]
        if (symbol) push({ kind: 'literal', text: symbol })
      }
      continue
    }
    if (lower.startsWith('general', i)) {
      push({ kind: 'general' })
      i += 7
      continue
    }
    if (lower.startsWith('am/pm', i)) {
      push({ kind: 'ampm', morning: source.slice(i, i + 2), afternoon: source.slice(i + 3, i + 5) })
      section.isDate = true
      i += 5
      continue
    }
    if (lower.startsWith('a/p', i)) {
      push({ kind: 'ampm', morning: source[i], afternoon: source[i + 2] })
      section.isDate = true
      i += 3
      continue
    }
    if (ch === '0' || ch === '#' || ch === '?') {
      push({ kind: 'digit', char: ch })
      i++
      continue
    }
    if (ch === '.') {
      // `.0` right after seconds is a fraction of a second.
      const previous = tokens[tokens.length - 1]
      if (previous?.kind === 'date' && previous.code.startsWith('s')) {
        let j = i + 1
        while (source[j] === '0') j++
        push({ kind: 'date', code: '.' + '0'.repeat(j - i - 1) })
        i = j
        continue
      }
      push({ kind: 'point' })
      i++
      continue
    }
    if (ch === '/' && tokens[tokens.length - 1]?.kind === 'digit') {
      // A bar after a digit placeholder makes a fraction; digits after it fix its denominator.
      const fixed = /^[1-9]\d*/.exec(source.slice(i + 1))
      push({ kind: 'fraction-bar', denominator: fixed ? Number(fixed[0]) : undefined })
      i += 1 + (fixed ? fixed[0].length : 0)
      continue
    }
    if (ch === ',') {
      push({ kind: 'comma' })
      i++
      continue
    }
    if (ch === '%') {
      push({ kind: 'percent' })
      i++
      continue
    }
    if ((ch === 'E' || ch === 'e') && (source[i + 1] === '+' || source[i + 1] === '-')) {
      push({ kind: 'exponent', sign: source[i + 1] as '+' | '-' })
      i += 2
      continue
    }
    if (ch === '@') {
      push({ kind: 'text' })
      i++
      continue
    }
    if ('ymdhs'.includes(lc)) {
      let j = i
      while (lower[j] === lc) j++
      push({ kind: 'date', code: lower.slice(i, j) })
      section.isDate = true
      i = j
      continue
    }
    if (lc === 'b' && (lower[i + 1] === '1' || lower[i + 1] === '2')) {
      i += 2
      continue
    }
    push({ kind: 'literal', text: ch })
    i++
  }
  // `m` means minutes right after hours or right before seconds.
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t]
    if (token.kind !== 'date' || token.code[0] !== 'm' || token.code.length > 2) continue
    const before = previousDateToken(tokens, t)
    const after = nextDateToken(tokens, t)
    if ((before && before.code[0] === 'h') || (after && after.code[0] === 's')) {
      tokens[t] = { kind: 'date', code: token.code === 'm' ? 'n' : 'nn' }
    }
  }
  return section
}

function previousDateToken(tokens: Token[], index: number): { code: string } | undefined {
  for (let i = index - 1; i >= 0; i--) {
    const token = tokens[i]
    if (token.kind === 'date') return token
    if (token.kind === 'elapsed') return { code: token.unit }
  }
  return undefined
}

function nextDateToken(tokens: Token[], index: number): { code: string } | undefined {
  for (let i = index + 1; i < tokens.length; i++) {
    const token = tokens[i]
    if (token.kind === 'date') return token
    if (token.kind === 'elapsed') return { code: token.unit }
  }
  return undefined
}

function renderText(section: Section, value: string): string {
  let out = ''
  for (const token of section.tokens) {
    if (token.kind === 'text') out += value
    else if (token.kind === 'literal') out += token.text
  }
  return out
}

function renderNumber(section: Section, value: number): string {
  const tokens = section.tokens
  if (tokens.length === 0) return ''
  if (tokens.some((token) => token.kind === 'general')) {
    let out = ''
    for (const token of tokens) {
      if (token.kind === 'general') out += generalNumber(value)
      else if (token.kind === 'literal') out += token.text
    }
    return out
  }
  if (tokens.some((token) => token.kind === 'fraction-bar')) return renderFraction(tokens, value)
  const digitIndexes: number[] = []
  tokens.forEach((token, index) => {
    if (token.kind === 'digit') digitIndexes.push(index)
  })
  const pointIndex = tokens.findIndex((token) => token.kind === 'point')
  const exponentIndex = tokens.findIndex((token) => token.kind === 'exponent')
  const percentCount = tokens.filter((token) => token.kind === 'percent').length
  const mantissaEnd = exponentIndex >= 0 ? exponentIndex : tokens.length
  const integerDigits = digitIndexes.filter((i) => i < mantissaEnd && (pointIndex < 0 || i < pointIndex))
  const fractionDigits = digitIndexes.filter((i) => pointIndex >= 0 && i > pointIndex && i < mantissaEnd)
  const exponentDigits = digitIndexes.filter((i) => exponentIndex >= 0 && i > exponentIndex)
  const lastIntegerDigit = integerDigits.length > 0 ? integerDigits[integerDigits.length - 1] : -1
  const mantissaDigits = digitIndexes.filter((i) => i < mantissaEnd)
  const lastDigit = mantissaDigits.length > 0 ? mantissaDigits[mantissaDigits.length - 1] : -1
  // Commas right after the last digit placeholder scale by 1000 each; one between placeholders groups.
  let scaleCommas = 0
  for (let i = lastDigit + 1; i < tokens.length && tokens[i].kind === 'comma'; i++) scaleCommas++
  const grouping = tokens.some(
    (token, i) => token.kind === 'comma' && i < lastIntegerDigit && integerDigits.length > 0 && i > integerDigits[0],
  )
  let scaled = value * Math.pow(100, percentCount) / Math.pow(1000, scaleCommas)
  const negative = scaled < 0
  scaled = Math.abs(scaled)
  const decimals = fractionDigits.length
  let exponent = 0
  if (exponentIndex >= 0 && scaled !== 0) {
    // Engineering notation (`##0.0E+0`): integer placeholders that start with # make the exponent a
    // multiple of their count; otherwise the integer placeholders are all filled.
    const step = integerDigits.length > 1 && (tokens[integerDigits[0]] as { char: string }).char === '#' ? integerDigits.length : 1
    exponent = Math.floor(Math.log10(scaled))
    if (step > 1) exponent = Math.floor(exponent / step) * step
    else exponent -= Math.max(0, integerDigits.length - 1)
    scaled /= Math.pow(10, exponent)
    const width = step > 1 ? step : Math.max(1, integerDigits.length)
    if (Number(scaled.toFixed(decimals)) >= Math.pow(10, width)) {
      scaled /= Math.pow(10, step)
      exponent += step
    }
  }
  const fixed = roundToFixed(scaled, decimals)
  const [integerPart, fractionText = ''] = fixed.split('.')
  let integerText = integerPart
  if (integerText === '0' && integerDigits.every((i) => (tokens[i] as { char: string }).char !== '0')) integerText = ''
  // Fraction placeholders: '0' keeps its digit, '#' drops trailing zeros, '?' turns them into spaces.
  const fractionChars = fractionText.split('')
  for (let k = fractionChars.length - 1; k >= 0; k--) {
    const placeholder = (tokens[fractionDigits[k]] as { char: string }).char
    if (fractionChars[k] !== '0' || placeholder === '0') break
    fractionChars[k] = placeholder === '?' ? ' ' : ''
  }
  const isZero = /^0*$/.test(integerText.replace(/\D/g, '')) && /^0*$/.test(fractionText)
  const minimumIntegerDigits = integerDigits.filter((i) => (tokens[i] as { char: string }).char === '0').length
  if (integerText.length < minimumIntegerDigits) integerText = integerText.padStart(minimumIntegerDigits, '0')
  const groupedInteger = grouping ? groupThousands(integerText) : integerText
  const integerSlots = distribute(groupedInteger, integerDigits.map((i) => (tokens[i] as { char: string }).char), grouping)
  let out = ''
  let fractionPosition = 0
  let exponentWritten = false
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]
    switch (token.kind) {
      case 'literal':
        out += token.text
        break
      case 'digit':
        if (i < mantissaEnd && (pointIndex < 0 || i < pointIndex)) out += integerSlots.get(i) ?? ''
        else if (i < mantissaEnd) out += fractionChars[fractionPosition++] ?? ''
        else if (!exponentWritten) {
          exponentWritten = true
          const digits = String(Math.abs(exponent)).padStart(exponentDigits.length, '0')
          out += digits
        }
        break
      case 'point':
        out += '.'
        break
      case 'percent':
        out += '%'
        break
      case 'exponent':
        out += 'E' + (exponent < 0 ? '-' : token.sign === '+' ? '+' : '')
        break
      case 'text':
        break
      default:
        break
    }
  }
  return negative && !isZero ? '-' + out : out

  function distribute(text: string, placeholders: string[], grouped: boolean): Map<number, string> {
    const slots = new Map<number, string>()
    if (placeholders.length === 0) return slots
    if (grouped) {
      // The grouped digits go to the first placeholder; the others print nothing.
      slots.set(integerDigits[0], text)
      return slots
    }
    let remaining = text
    for (let k = placeholders.length - 1; k >= 0; k--) {
      const index = integerDigits[k]
      if (k === 0) {
        slots.set(index, remaining.length > 0 ? remaining : placeholders[k] === '0' ? '0' : placeholders[k] === '?' ? ' ' : '')
        break
      }
      if (remaining.length > 0) {
        slots.set(index, remaining[remaining.length - 1])
        remaining = remaining.slice(0, -1)
      } else slots.set(index, placeholders[k] === '0' ? '0' : placeholders[k] === '?' ? ' ' : '')
    }
    return slots
  }
}

type Placeholder = '0' | '#' | '?'

/** Pads digits to a placeholder group: '0' adds zeros, '?' spaces (before, or after when `trailing`). */
function padDigits(digits: string, placeholders: Placeholder[], trailing = false): string {
  const zeros = placeholders.filter((char) => char === '0').length
  let text = digits.padStart(zeros, '0')
  const width = zeros + placeholders.filter((char) => char === '?').length
  if (text.length < width) text = trailing ? text.padEnd(width, ' ') : text.padStart(width, ' ')
  return text
}

/**
 * The fraction nearest to `value` whose denominator is at most `maxDenominator`: the continued-fraction
 * convergents, and at the end the best semiconvergent, so `# ??/??` shows pi as 3 14/99 (the closest with
 * two digits) rather than the last convergent 3 1/7.
 */
export function nearestFraction(value: number, maxDenominator: number): { numerator: number; denominator: number } {
  let [previousNumerator, previousDenominator, numerator, denominator] = [0, 1, 1, 0]
  let rest = value
  for (let step = 0; step < 64; step++) {
    const whole = Math.floor(rest)
    const nextDenominator = previousDenominator + whole * denominator
    if (nextDenominator > maxDenominator) {
      const k = Math.floor((maxDenominator - previousDenominator) / denominator)
      const semiNumerator = previousNumerator + k * numerator
      const semiDenominator = previousDenominator + k * denominator
      if (k > 0 && Math.abs(value - semiNumerator / semiDenominator) < Math.abs(value - numerator / denominator)) {
        return { numerator: semiNumerator, denominator: semiDenominator }
      }
      break
    }
    ;[previousNumerator, previousDenominator, numerator, denominator] = [
      numerator,
      denominator,
      previousNumerator + whole * numerator,
      nextDenominator,
    ]
    const remainder = rest - whole
    if (remainder < 1e-12 || Math.abs(value - numerator / denominator) < 1e-15 * Math.max(1, value)) break
    rest = 1 / remainder
  }
  return { numerator, denominator }
}

/**
 * A fraction section: `# ?/?` shows a whole part and a proper fraction, `?/?` an improper fraction. The
 * denominator is the closest one with as many digits as its placeholders, or the one the format fixes.
 * A zero fraction of a mixed number shows as spaces under `?`, as nothing under `#`, and as 0/1 under `0`.
 */
function renderFraction(tokens: Token[], value: number): string {
  const bar = tokens.findIndex((token) => token.kind === 'fraction-bar')
  const fixedDenominator = (tokens[bar] as { denominator?: number }).denominator
  let numeratorStart = bar
  while (numeratorStart > 0 && tokens[numeratorStart - 1].kind === 'digit') numeratorStart--
  const integerIndexes: number[] = []
  for (let i = 0; i < numeratorStart; i++) if (tokens[i].kind === 'digit') integerIndexes.push(i)
  let denominatorEnd = bar + 1
  if (fixedDenominator === undefined) while (denominatorEnd < tokens.length && tokens[denominatorEnd].kind === 'digit') denominatorEnd++
  const charsOf = (from: number, to: number) => tokens.slice(from, to).map((token) => (token as { char: Placeholder }).char)
  const numeratorChars = charsOf(numeratorStart, bar)
  const denominatorChars = charsOf(bar + 1, denominatorEnd)
  const mixed = integerIndexes.length > 0
  const grouping = tokens.some((token, i) => token.kind === 'comma' && i > integerIndexes[0] && i < numeratorStart)

  const magnitude = Math.abs(value)
  let whole = mixed ? Math.floor(magnitude) : 0
  const part = magnitude - whole
  const maxDenominator = Math.pow(10, Math.min(denominatorChars.length, 7)) - 1
  const fraction =
    fixedDenominator !== undefined
      ? { numerator: Math.round(part * fixedDenominator), denominator: fixedDenominator }
      : nearestFraction(part, maxDenominator)
  const denominator = fraction.denominator
  let numerator = fraction.numerator
  if (mixed && numerator === denominator) {
    whole += 1
    numerator = 0
  }
  const zeroFraction = mixed && numerator === 0
  // Under `#` or `0` a mixed number with no whole part starts at its fraction; `?` keeps the space.
  const fractionShown = !zeroFraction || numeratorChars.includes('0')
  const fractionBlanked = zeroFraction && !numeratorChars.includes('0') && numeratorChars.includes('?')
  let integerText = mixed && whole === 0 && !zeroFraction ? '' : String(whole)
  if (mixed) integerText = padDigits(grouping ? groupThousands(integerText) : integerText, integerIndexes.map((i) => (tokens[i] as { char: Placeholder }).char))
  const keepSeparator = integerText !== '' ? fractionShown || fractionBlanked : numeratorChars.includes('?')
  const firstInteger = integerIndexes[0]
  const lastInteger = integerIndexes[integerIndexes.length - 1]

  let out = ''
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]
    const separator = mixed && i > lastInteger && i < numeratorStart
    if (token.kind === 'literal') {
      if (!separator || keepSeparator) out += token.text
    } else if (token.kind === 'percent') out += '%'
    else if (i === firstInteger) out += integerText
    else if (i === numeratorStart) {
      const width = numeratorChars.length + 1 + denominatorChars.length
      if (fractionShown) out += padDigits(String(numerator), numeratorChars)
      else if (fractionBlanked) out += ' '.repeat(width)
    } else if (token.kind === 'fraction-bar' && fractionShown) {
      out += '/' + (fixedDenominator !== undefined ? String(fixedDenominator) : padDigits(String(denominator), denominatorChars, true))
    }
  }
  return (whole !== 0 || numerator !== 0) && value < 0 ? '-' + out : out
}

function roundToFixed(value: number, decimals: number): string {
  if (value >= 1e21) {
    // toFixed writes these in exponent form; Excel writes 15 significant digits and then zeros.
    const [mantissa, power] = value.toExponential(14).split('e')
    const digits = mantissa.replace('.', '')
    const integer = digits.padEnd(Number(power) + 1, '0')
    return decimals > 0 ? `${integer}.${'0'.repeat(decimals)}` : integer
  }
  // Round half away from zero on the decimal representation, as Excel does (1.005 → 1.01).
  const shifted = Number(Math.round(Number(value + 'e' + decimals)) + 'e-' + decimals)
  const result = Number.isFinite(shifted) ? shifted : value
  return result.toFixed(decimals)
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

function renderDate(section: Section, value: number): string {
  if (value < 0 || value > 2_958_465.99999) return '#'.repeat(11)
  const tokens = section.tokens
  const hasAmPm = tokens.some((token) => token.kind === 'ampm')
  const fractionToken = tokens.find((token) => token.kind === 'date' && token.code.startsWith('.')) as
    | { code: string }
    | undefined
  const fractionDigits = fractionToken ? fractionToken.code.length - 1 : 0
  // Round to the smallest unit shown so that 0.99999999 shows as the next second, not 59.999.
  const unit = 86_400 * Math.pow(10, fractionDigits)
  const rounded = Math.round(value * unit) / unit
  const date = dateFromSerial(rounded)
  const time = timeFromSerial(rounded)
  const totalSeconds = rounded * 86_400
  let out = ''
  for (const token of tokens) {
    switch (token.kind) {
      case 'literal':
        out += token.text
        break
      case 'digit':
        out += token.char === '0' ? '0' : ''
        break
      case 'point':
        out += '.'
        break
      case 'comma':
        out += ','
        break
      case 'percent':
        out += '%'
        break
      case 'ampm':
        out += time.hours < 12 ? token.morning : token.afternoon
        break
      case 'elapsed': {
        const amount =
          token.unit === 'h'
            ? Math.floor(totalSeconds / 3600)
            : token.unit === 'm'
              ? Math.floor(totalSeconds / 60)
              : Math.floor(totalSeconds)
        out += String(amount).padStart(token.width, '0')
        break
      }
      case 'date':
        out += dateCode(token.code, date, time, hasAmPm, rounded)
        break
      default:
        break
    }
  }
  return out
}

function dateCode(
  code: string,
  date: { year: number; month: number; day: number },
  time: { hours: number; minutes: number; seconds: number; ms: number },
  hasAmPm: boolean,
  serial: number,
): string {
  if (code.startsWith('.')) {
    const digits = code.length - 1
    return '.' + String(Math.floor(time.ms / Math.pow(10, 3 - digits))).padStart(digits, '0')
  }
  switch (code[0]) {
    case 'y':
      return code.length <= 2 ? String(date.year % 100).padStart(2, '0') : String(date.year)
    case 'm':
      if (code.length === 1) return String(date.month)
      if (code.length === 2) return String(date.month).padStart(2, '0')
      if (code.length === 3) return MONTH_NAMES[date.month - 1].slice(0, 3)
      if (code.length === 5) return MONTH_NAMES[date.month - 1][0]
      return MONTH_NAMES[date.month - 1]
    case 'd':
      if (code.length === 1) return String(date.day)
      if (code.length === 2) return String(date.day).padStart(2, '0')
      if (code.length === 3) return DAY_NAMES[weekdayFromSerial(serial)].slice(0, 3)
      return DAY_NAMES[weekdayFromSerial(serial)]
    case 'h': {
      let hours = time.hours
      if (hasAmPm) hours = hours % 12 === 0 ? 12 : hours % 12
      return code.length === 1 ? String(hours) : String(hours).padStart(2, '0')
    }
    case 'n':
      return code.length === 1 ? String(time.minutes) : String(time.minutes).padStart(2, '0')
    case 's':
      return code.length === 1 ? String(time.seconds) : String(time.seconds).padStart(2, '0')
    default:
      return code
  }
}

/** Whether a format code shows dates or times (so a cell with it holds a date serial). */
export function isDateFormat(format: string): boolean {
  return parseFormat(format).some((section) => section.isDate)
}
