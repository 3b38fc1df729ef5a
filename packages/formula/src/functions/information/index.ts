import type { FunctionDefinition } from '../types.js'

export const functions: readonly FunctionDefinition[] = []
