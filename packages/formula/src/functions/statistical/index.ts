import type { FunctionDefinition } from '../types.js'
import { omittedAsEmpty } from '../math/numeric.js'
import { functions as aggregates } from './aggregates.js'
import { functions as conditional } from './conditional.js'
import { functions as distributions } from './distributions.js'
import { functions as hypothesisTests } from './hypothesis-tests.js'
import { functions as ranking } from './ranking.js'
import { functions as regression } from './regression.js'

export const functions: readonly FunctionDefinition[] = [
  ...aggregates,
  ...conditional,
  ...ranking,
  ...distributions,
  ...regression,
  ...hypothesisTests,
].map(omittedAsEmpty)
