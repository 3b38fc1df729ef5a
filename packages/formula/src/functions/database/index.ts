import type { FunctionDefinition } from '../types.js'
import { functions as database } from './database.js'

export const functions: readonly FunctionDefinition[] = [...database]
