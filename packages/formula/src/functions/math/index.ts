import type { FunctionDefinition } from '../types.js'
import { omittedAsEmpty } from './numeric.js'
import { functions as aggregate } from './aggregate.js'
import { functions as arithmetic } from './arithmetic.js'
import { functions as conditional } from './conditional.js'
import { functions as core } from './core.js'
import { functions as generators } from './generators.js'
import { functions as matrix } from './matrix.js'
import { functions as numerals } from './numerals.js'
import { functions as rounding } from './rounding.js'
import { functions as trigonometry } from './trigonometry.js'

export const functions: readonly FunctionDefinition[] = [
  ...core,
  ...aggregate,
  ...arithmetic,
  ...rounding,
  ...trigonometry,
  ...conditional,
  ...matrix,
  ...numerals,
  ...generators,
].map(omittedAsEmpty)
