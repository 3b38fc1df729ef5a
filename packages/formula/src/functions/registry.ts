import type { FunctionCatalogueEntry, FunctionDefinition } from './types.js'
import { CATEGORY_LABELS } from './types.js'

/** The functions an engine knows, by upper-case name. */
export class FunctionRegistry {
  private byName = new Map<string, FunctionDefinition>()
  /** Whether `byName` is another registry's too (see fork): it is copied before the first change. */
  private shared = false

  constructor(definitions: Iterable<FunctionDefinition> = []) {
    for (const definition of definitions) this.register(definition)
  }

  /**
   * A registry with the same functions that shares their table with this one until either registers
   * another: every engine starts from the built-ins, and a table of hundreds of functions per engine
   * would cost more than many a workbook's cells.
   */
  fork(): FunctionRegistry {
    const fork = new FunctionRegistry()
    fork.byName = this.byName
    fork.shared = true
    this.shared = true
    return fork
  }

  /** Adds a function; a second definition of the same name is a programming error. */
  register(definition: FunctionDefinition): void {
    const name = definition.name.toUpperCase()
    if (this.byName.has(name)) throw new Error(`Function ${name} is defined twice`)
    if (definition.minArgs > definition.maxArgs) throw new Error(`Function ${name} has minArgs > maxArgs`)
    if (this.shared) {
      this.byName = new Map(this.byName)
      this.shared = false
    }
    this.byName.set(name, definition)
  }

  /** Looks a function up by name, case-insensitively; Excel's `_xlfn.` prefix is accepted. */
  get(name: string): FunctionDefinition | undefined {
    const upper = name.toUpperCase()
    return this.byName.get(upper.startsWith('_XLFN.') ? upper.slice(6) : upper)
  }

  has(name: string): boolean {
    return this.get(name) !== undefined
  }

  get size(): number {
    return this.byName.size
  }

  list(): FunctionDefinition[] {
    return [...this.byName.values()].sort((a, b) => (a.name < b.name ? -1 : 1))
  }

  /** The function catalogue (spec 1 §3) generated from the metadata, sorted by name. */
  catalogue(): FunctionCatalogueEntry[] {
    return this.list().map((definition) => ({
      name: definition.name,
      syntax: definition.syntax,
      description: definition.description,
      category: CATEGORY_LABELS[definition.category],
      example: definition.example,
      minArgs: definition.minArgs,
      maxArgs: definition.maxArgs,
    }))
  }
}
