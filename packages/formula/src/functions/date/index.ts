import type { FunctionDefinition } from '../types.js'
import { functions as calendar } from './calendar.js'
import { functions as core } from './core.js'
import { functions as dayCounts } from './day-counts.js'
import { functions as weeks } from './weeks.js'
import { functions as workdays } from './workdays.js'

export const functions: readonly FunctionDefinition[] = [...core, ...calendar, ...dayCounts, ...weeks, ...workdays]
