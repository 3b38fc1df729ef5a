import type { FunctionDefinition } from '../types.js'
import { omittedAsEmpty } from '../math/numeric.js'
import { functions as cell } from './cell.js'
import { functions as isFunctions } from './is-functions.js'
import { functions as sheet } from './sheet.js'

export const functions: readonly FunctionDefinition[] = [...isFunctions, ...cell, ...sheet].map(omittedAsEmpty)
