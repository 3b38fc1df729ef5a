import type { FunctionDefinition } from '../types.js'
import { functions as annuity } from './annuity.js'
import { functions as bonds } from './bonds.js'
import { functions as cashFlows } from './cash-flows.js'
import { functions as depreciation } from './depreciation.js'
import { functions as oddPeriod } from './odd-period.js'
import { functions as securities } from './securities.js'

export const functions: readonly FunctionDefinition[] = [...annuity, ...cashFlows, ...depreciation, ...securities, ...bonds, ...oddPeriod]
