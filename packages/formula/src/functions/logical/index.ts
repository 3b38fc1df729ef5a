import type { FunctionDefinition } from '../types.js'
import { omittedAsEmpty } from '../math/numeric.js'
import { functions as choices } from './choices.js'
import { functions as core } from './core.js'

export const functions: readonly FunctionDefinition[] = [...core, ...choices].map(omittedAsEmpty)
