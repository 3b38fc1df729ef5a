/**
 * Which spreadsheet thread answers a request. A workbook's requests go to the thread that has it open
 * (its home), so its engine is reused, unless that thread's event loop is held (by another workbook's
 * calculation: a request sent there would wait it out); then to the thread whose event loop answered
 * last and that has the fewest requests under way, which becomes the workbook's home. While a
 * workbook has requests under way it stays where they are, so that they are applied in order.
 */

/**
 * How long a thread may go without a beat, beyond the freshest thread's, before its event loop counts
 * as held. A request sent to a held thread waits out the calculation holding it (up to 1 s), so the
 * mark is low; an event loop stalled that long by other work (a collection) only moves a few workbooks.
 */
export const HELD_AFTER_MS = 20
/** Workbooks whose home is remembered; the least recently used are forgotten first. */
const REMEMBERED_WORKBOOKS = 10_000

export interface RoutedThread {
  /** When its last beat reached the router (performance.now()). */
  lastBeat: number
  /** Requests under way, by the workbook they name ('' for none). */
  inFlight: Map<string, number>
  stopped: boolean
}

export class ThreadRouting<T extends RoutedThread> {
  private readonly homes = new Map<string, T>()

  constructor(private readonly threads: () => readonly (T | undefined)[]) {}

  /** The thread for a request naming `workbookId` ('' for none), or undefined when none runs. */
  choose(workbookId: string): T | undefined {
    const running = this.threads().filter((thread): thread is T => thread !== undefined && !thread.stopped)
    if (workbookId) {
      const home = this.homes.get(workbookId)
      if (home && !home.stopped && (home.inFlight.has(workbookId) || silence(home, running) <= HELD_AFTER_MS)) {
        this.remember(workbookId, home)
        return home
      }
    }
    let best: T | undefined
    let bestScore = Infinity
    for (const thread of running) {
      const quiet = silence(thread, running)
      const score = (quiet > HELD_AFTER_MS ? 1_000_000 + quiet : 0) + requestsUnderWay(thread)
      if (score < bestScore) [best, bestScore] = [thread, score]
    }
    if (best && workbookId) this.remember(workbookId, best)
    return best
  }

  /** Counts a request under way on `thread` until the returned function is called (once). */
  begin(thread: T, workbookId: string): () => void {
    thread.inFlight.set(workbookId, (thread.inFlight.get(workbookId) ?? 0) + 1)
    let ended = false
    return () => {
      if (ended) return
      ended = true
      const left = (thread.inFlight.get(workbookId) ?? 1) - 1
      if (left > 0) thread.inFlight.set(workbookId, left)
      else thread.inFlight.delete(workbookId)
    }
  }

  /** Forgets the homes on a thread that stopped. */
  forget(thread: T): void {
    for (const [workbookId, home] of this.homes) if (home === thread) this.homes.delete(workbookId)
  }

  private remember(workbookId: string, thread: T): void {
    this.homes.delete(workbookId)
    this.homes.set(workbookId, thread)
    if (this.homes.size > REMEMBERED_WORKBOOKS) this.homes.delete(this.homes.keys().next().value as string)
  }
}

/**
 * How much longer than the freshest thread this one has been silent. Beats reach the router late when
 * its own event loop is busy (in one process it serves the other services too), and that delays every
 * thread's beats alike.
 */
function silence(thread: RoutedThread, running: readonly RoutedThread[]): number {
  let freshest = thread.lastBeat
  for (const other of running) freshest = Math.max(freshest, other.lastBeat)
  return freshest - thread.lastBeat
}

function requestsUnderWay(thread: RoutedThread): number {
  let count = 0
  for (const n of thread.inFlight.values()) count += n
  return count
}
