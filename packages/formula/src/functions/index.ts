/**
 * Every built-in function, one list per category folder. Each folder's index.ts exports `functions`;
 * add new functions there, not here.
 */
import { functions as database } from './database/index.js'
import { functions as date } from './date/index.js'
import { functions as engineering } from './engineering/index.js'
import { functions as external } from './external/index.js'
import { functions as financial } from './financial/index.js'
import { functions as information } from './information/index.js'
import { functions as logical } from './logical/index.js'
import { functions as lookup } from './lookup/index.js'
import { functions as math } from './math/index.js'
import { functions as statistical } from './statistical/index.js'
import { functions as text } from './text/index.js'
import { FunctionRegistry } from './registry.js'
import type { FunctionCatalogueEntry, FunctionDefinition } from './types.js'

export const builtinFunctionDefinitions: readonly FunctionDefinition[] = [
  ...math,
  ...statistical,
  ...logical,
  ...information,
  ...text,
  ...lookup,
  ...financial,
  ...date,
  ...engineering,
  ...database,
  ...external,
]

/** A registry of every built-in function; engines get a fresh one so that additions stay local. */
export function createBuiltinRegistry(): FunctionRegistry {
  builtins ??= new FunctionRegistry(builtinFunctionDefinitions)
  return builtins.fork()
}

/** The built-in functions' table, shared by the registries of every engine until one registers more. */
let builtins: FunctionRegistry | undefined

/** The catalogue of every built-in function (spec 1 §3), generated from the metadata. */
export function functionCatalogue(): FunctionCatalogueEntry[] {
  return new FunctionRegistry(builtinFunctionDefinitions).catalogue()
}
