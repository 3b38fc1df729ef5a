/**
 * Runs tasks one at a time per key (a workbook id) and concurrently across keys, so that writes to a
 * workbook are applied and stored in the order they arrived and none overwrites another.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>()

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve()
    const result = previous.then(task, task)
    const tail = result.catch(() => undefined)
    this.tails.set(key, tail)
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key)
    })
    return result
  }

  /** Keys with a task running or waiting. */
  get busyKeys(): number {
    return this.tails.size
  }
}
