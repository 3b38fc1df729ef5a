/**
 * An array whose items are made the first time anything reads or writes it. A batch of 100,000 cells
 * (a paste or an import) reports 100,000 changes; making their objects costs more than the batch
 * itself, and a caller that never looks at the list should not pay for it. Every read (index, length,
 * iteration, methods, keys, JSON) makes the items first, then answers from the real array, so that the
 * list behaves as the array it stands for: `Array.isArray` is true, equality and spreading see its items.
 *
 * `make` must not depend on state that may change after the list is returned: it is called later, at
 * the first read. It is a Proxy: copy it (`[...list]`) before posting it to another thread.
 */
export function deferredList<T>(make: () => T[]): T[] {
  const target: T[] = []
  let made = false
  const items = (): T[] => {
    if (!made) {
      made = true
      const list = make()
      target.length = list.length
      for (let i = 0; i < list.length; i++) target[i] = list[i]
    }
    return target
  }
  return new Proxy(target, {
    get: (_, key) => Reflect.get(items(), key),
    set: (_, key, value) => Reflect.set(items(), key, value),
    has: (_, key) => Reflect.has(items(), key),
    ownKeys: () => Reflect.ownKeys(items()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(items(), key),
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(items(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(items(), key),
    preventExtensions: () => Reflect.preventExtensions(items()),
  })
}
