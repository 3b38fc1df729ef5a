import type { FunctionDefinition } from '../types.js'
import { functions as aggregates } from './aggregates.js'
import { functions as conditional } from './conditional.js'
import { functions as ranking } from './ranking.js'

export const functions: readonly FunctionDefinition[] = [...aggregates, ...conditional, ...ranking]
