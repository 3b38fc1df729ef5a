import type { FunctionDefinition } from '../types.js'

export const TODAY: FunctionDefinition = {
  name: 'TODAY',
  category: 'date',
  minArgs: 0,
  maxArgs: 0,
  volatile: true,
  resultFormat: 'm/d/yyyy',
  args: [],
  syntax: 'TODAY()',
  description: "Returns today's date as a date serial number.",
  example: 'TODAY()',
  impl: (_args, ctx) => Math.floor(ctx.now()),
}

export const NOW: FunctionDefinition = {
  name: 'NOW',
  category: 'date',
  minArgs: 0,
  maxArgs: 0,
  volatile: true,
  resultFormat: 'm/d/yyyy h:mm',
  args: [],
  syntax: 'NOW()',
  description: 'Returns the current date and time as a date-time serial number.',
  example: 'NOW()',
  impl: (_args, ctx) => ctx.now(),
}

export const functions: readonly FunctionDefinition[] = [TODAY, NOW]
