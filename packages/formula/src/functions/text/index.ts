import type { FunctionDefinition } from '../types.js'
import { omittedAsEmpty } from '../math/numeric.js'
import { functions as basic } from './basic.js'
import { functions as characters } from './characters.js'
import { functions as conversion } from './conversion.js'
import { functions as join } from './join.js'
import { functions as regex } from './regex.js'
import { functions as split } from './split.js'

export const functions: readonly FunctionDefinition[] = [
  ...basic,
  ...join,
  ...characters,
  ...conversion,
  ...split,
  ...regex,
].map(omittedAsEmpty)
