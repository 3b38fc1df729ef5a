import type { FunctionDefinition } from '../types.js'
import { functions as bases } from './bases.js'
import { functions as bits } from './bits.js'
import { functions as complex } from './complex.js'
import { functions as convert } from './convert.js'
import { functions as special } from './special.js'

export const functions: readonly FunctionDefinition[] = [...bases, ...bits, ...special, ...complex, ...convert]
