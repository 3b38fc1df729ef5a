import type { FunctionDefinition } from '../types.js'
import { functions as arrays } from './arrays.js'
import { functions as core } from './core.js'
import { functions as dynamic } from './dynamic.js'
import { functions as lambdas } from './lambdas.js'
import { functions as lookups } from './lookups.js'
import { functions as references } from './references.js'

export const functions: readonly FunctionDefinition[] = [
  ...core,
  ...lookups,
  ...references,
  ...arrays,
  ...dynamic,
  ...lambdas,
]
