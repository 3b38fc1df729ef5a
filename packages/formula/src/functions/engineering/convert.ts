/**
 * CONVERT: measurement units by Excel's names, with metric (and, for information, binary) prefixes on
 * the units Excel allows them on.
 */
import { CellError } from '../../values.js'
import { strictNumber } from '../date/serials.js'
import type { FunctionDefinition } from '../types.js'

interface Unit {
  readonly group: string
  /** The unit in the group's base unit (g, m, s, Pa, N, J, W, T, m², m³, bit, m/s). */
  readonly factor: number
  /** Whether metric prefixes (k, m, µ...) may be put in front. */
  readonly metric?: boolean
}

function units(group: string, entries: Record<string, number>, metric: readonly string[] = []): [string, Unit][] {
  return Object.entries(entries).map(([name, factor]) => [name, { group, factor, metric: metric.includes(name) }])
}

const UNITS = new Map<string, Unit>([
  ...units(
    'mass',
    {
      g: 1,
      sg: 14593.90293720636,
      lbm: 453.59237,
      u: 1.6605390666e-24,
      ozm: 28.349523125,
      grain: 0.06479891,
      cwt: 45359.237,
      shweight: 45359.237,
      uk_cwt: 50802.34544,
      lcwt: 50802.34544,
      hweight: 50802.34544,
      stone: 6350.29318,
      ton: 907184.74,
      uk_ton: 1016046.9088,
      LTON: 1016046.9088,
      brton: 1016046.9088,
    },
    ['g', 'u'],
  ),
  ...units(
    'distance',
    {
      m: 1,
      mi: 1609.344,
      Nmi: 1852,
      in: 0.0254,
      ft: 0.3048,
      yd: 0.9144,
      ang: 1e-10,
      ell: 1.143,
      ly: 9460730472580800,
      parsec: 30856775812815500,
      pc: 30856775812815500,
      Picapt: 0.0254 / 72,
      Pica: 0.0254 / 72,
      pica: 0.0254 / 6,
      survey_mi: 1609.3472186944373,
    },
    ['m', 'ang', 'ly', 'parsec', 'pc'],
  ),
  ...units('time', { yr: 31557600, day: 86400, d: 86400, hr: 3600, mn: 60, min: 60, sec: 1, s: 1 }, ['sec', 's']),
  ...units(
    'pressure',
    { Pa: 1, p: 1, atm: 101325, at: 101325, mmHg: 133.322, psi: 6894.757293168361, Torr: 101325 / 760 },
    ['Pa', 'p', 'atm', 'at', 'mmHg'],
  ),
  ...units('force', { N: 1, dyn: 1e-5, dy: 1e-5, lbf: 4.4482216152605, pond: 0.00980665 }, ['N', 'dyn', 'dy', 'pond']),
  ...units(
    'energy',
    {
      J: 1,
      e: 1e-7,
      c: 4.184,
      cal: 4.1868,
      eV: 1.602176634e-19,
      ev: 1.602176634e-19,
      HPh: 2684519.5376961706,
      hh: 2684519.5376961706,
      Wh: 3600,
      wh: 3600,
      flb: 1.3558179483314,
      BTU: 1055.05585262,
      btu: 1055.05585262,
    },
    ['J', 'e', 'c', 'cal', 'eV', 'ev', 'Wh', 'wh'],
  ),
  ...units('power', { W: 1, w: 1, HP: 745.6998715822702, h: 745.6998715822702, PS: 735.49875 }, ['W', 'w']),
  ...units('magnetism', { T: 1, ga: 1e-4 }, ['T', 'ga']),
  ...units(
    'volume',
    {
      tsp: 4.92892159375e-6,
      tspm: 5e-6,
      tbs: 1.478676478125e-5,
      oz: 2.95735295625e-5,
      cup: 2.365882365e-4,
      pt: 4.73176473e-4,
      us_pt: 4.73176473e-4,
      uk_pt: 5.6826125e-4,
      qt: 9.46352946e-4,
      uk_qt: 1.1365225e-3,
      gal: 3.785411784e-3,
      uk_gal: 4.54609e-3,
      l: 1e-3,
      L: 1e-3,
      lt: 1e-3,
      ang3: 1e-30,
      ang3_: 1e-30,
      barrel: 0.158987294928,
      bushel: 0.03523907016688,
      ft3: 0.028316846592,
      in3: 1.6387064e-5,
      ly3: 9460730472580800 ** 3,
      m3: 1,
      mi3: 1609.344 ** 3,
      yd3: 0.764554857984,
      Nmi3: 1852 ** 3,
      Pica3: (0.0254 / 72) ** 3,
      Picapt3: (0.0254 / 72) ** 3,
      GRT: 2.8316846592,
      regton: 2.8316846592,
      MTON: 1.13267386368,
    },
    ['l', 'L', 'lt', 'ang3', 'm3'],
  ),
  ...units(
    'area',
    {
      uk_acre: 4046.8564224,
      us_acre: 4046.872609874252,
      ang2: 1e-20,
      ar: 100,
      ft2: 0.09290304,
      ha: 10000,
      in2: 0.00064516,
      ly2: 9460730472580800 ** 2,
      m2: 1,
      Morgen: 2500,
      mi2: 1609.344 ** 2,
      Nmi2: 1852 ** 2,
      Pica2: (0.0254 / 72) ** 2,
      Picapt2: (0.0254 / 72) ** 2,
      yd2: 0.83612736,
    },
    ['ang2', 'ar', 'm2'],
  ),
  ...units('information', { bit: 1, byte: 8 }, ['bit', 'byte']),
  ...units(
    'speed',
    { admkn: 1853.184 / 3600, kn: 1852 / 3600, 'm/h': 1 / 3600, 'm/hr': 1 / 3600, 'm/s': 1, 'm/sec': 1, mph: 0.44704 },
    ['m/h', 'm/hr', 'm/s', 'm/sec'],
  ),
])

const TEMPERATURES = new Set(['C', 'cel', 'F', 'fah', 'K', 'kel', 'Rank', 'Reau'])

const PREFIXES: Record<string, number> = {
  Y: 1e24,
  Z: 1e21,
  E: 1e18,
  P: 1e15,
  T: 1e12,
  G: 1e9,
  M: 1e6,
  k: 1e3,
  h: 1e2,
  da: 1e1,
  e: 1e1,
  d: 1e-1,
  c: 1e-2,
  m: 1e-3,
  u: 1e-6,
  µ: 1e-6,
  n: 1e-9,
  p: 1e-12,
  f: 1e-15,
  a: 1e-18,
  z: 1e-21,
  y: 1e-24,
}

const BINARY_PREFIXES: Record<string, number> = {
  ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
  Zi: 2 ** 70,
  Yi: 2 ** 80,
}

/** A unit name, possibly prefixed, as its group and factor (or a temperature scale). */
function resolve(name: string): { group: string; factor: number; temperature?: string; scale?: number } | undefined {
  const unit = UNITS.get(name)
  if (unit) return unit
  // Excel takes areas and volumes written with a caret too: ft^2 is ft2, m^3 is m3.
  if (/\^[23]$/.test(name)) return resolve(name.slice(0, -2) + name.slice(-1))
  if (TEMPERATURES.has(name)) return { group: 'temperature', factor: 1, temperature: name, scale: 1 }
  for (const table of [PREFIXES, BINARY_PREFIXES]) {
    for (const [prefix, multiplier] of Object.entries(table)) {
      if (!name.startsWith(prefix)) continue
      const rest = name.slice(prefix.length)
      const base = UNITS.get(rest)
      if (base?.metric && (table === PREFIXES || base.group === 'information')) {
        // Area and volume units take the prefix on the length: km2 is (1000 m)².
        const power = base.group === 'area' && rest.endsWith('2') ? 2 : base.group === 'volume' && rest.endsWith('3') ? 3 : 1
        return { group: base.group, factor: base.factor * multiplier ** power }
      }
      if ((rest === 'K' || rest === 'kel') && table === PREFIXES) {
        return { group: 'temperature', factor: 1, temperature: rest, scale: multiplier }
      }
    }
  }
  return undefined
}

function toKelvin(value: number, scale: string): number {
  switch (scale) {
    case 'C':
    case 'cel':
      return value + 273.15
    case 'F':
    case 'fah':
      return ((value - 32) * 5) / 9 + 273.15
    case 'Rank':
      return (value * 5) / 9
    case 'Reau':
      return value * 1.25 + 273.15
    default:
      return value
  }
}

function fromKelvin(value: number, scale: string): number {
  switch (scale) {
    case 'C':
    case 'cel':
      return value - 273.15
    case 'F':
    case 'fah':
      return ((value - 273.15) * 9) / 5 + 32
    case 'Rank':
      return (value * 9) / 5
    case 'Reau':
      return (value - 273.15) / 1.25
    default:
      return value
  }
}

export const CONVERT: FunctionDefinition = {
  name: 'CONVERT',
  category: 'engineering',
  minArgs: 3,
  maxArgs: 3,
  args: ['scalar', 'text', 'text'],
  syntax: 'CONVERT(number, from_unit, to_unit)',
  description: 'Converts a number from one measurement unit to another, such as "mi" to "km" or "F" to "C".',
  example: 'CONVERT(68, "F", "C")',
  impl: (args) => {
    const value = strictNumber(args[0])
    if (value instanceof CellError) return value
    const from = resolve(args[1] as string)
    const to = resolve(args[2] as string)
    if (!from || !to || from.group !== to.group) return CellError.NA
    if (from.temperature !== undefined && to.temperature !== undefined) {
      const kelvin = toKelvin(value * (from.scale ?? 1), from.temperature)
      return fromKelvin(kelvin, to.temperature) / (to.scale ?? 1)
    }
    return (value * from.factor) / to.factor
  },
}

export const functions: readonly FunctionDefinition[] = [CONVERT]
