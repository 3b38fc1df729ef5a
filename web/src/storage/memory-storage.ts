/** The Web Storage interface over a Map, as localStorage behaves, for tests of what keeps data in the browser. */
export class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>()
  /** When set, writes fail as a full localStorage does. */
  failWrites = false
  get length() {
    return this.items.size
  }
  clear() {
    this.items.clear()
  }
  getItem(key: string) {
    return this.items.get(key) ?? null
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null
  }
  removeItem(key: string) {
    this.items.delete(key)
  }
  setItem(key: string, value: string) {
    if (this.failWrites) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
    this.items.set(key, value)
  }
}
