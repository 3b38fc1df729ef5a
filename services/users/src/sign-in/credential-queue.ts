export interface CredentialQueueOptions {
  /** Password checks running at once. */
  concurrency: number
  /** Checks waiting at most, from everyone; past it a new one is refused as `busy`. */
  maxWaiting: number
  /** Checks waiting at most from one client; past it that client's new one is refused as `tooMany`. */
  maxWaitingPerClient: number
  /** Longest wait before a check is given up as `busy`, in ms. */
  maxWaitMs: number
}

export const DEFAULT_CREDENTIAL_QUEUE: CredentialQueueOptions = { concurrency: 2, maxWaiting: 64, maxWaitingPerClient: 4, maxWaitMs: 10_000 }

/** Whose turn comes first: clients without recent failures go before those with them. */
export type CredentialPriority = 'first' | 'later'

export type QueueRefusal = 'busy' | 'tooMany'

/** A check the queue did not run: too many were waiting, or it waited too long. */
export class CredentialQueueRefused extends Error {
  override readonly name = 'CredentialQueueRefused'
  constructor(readonly reason: QueueRefusal) {
    super(reason === 'busy' ? 'Too many password checks are waiting' : 'Too many password checks from one client are waiting')
  }
}

interface Waiting {
  client: string
  start: () => void
  refuse: (error: CredentialQueueRefused) => void
  timer: NodeJS.Timeout
}

/** Per-client waiting lines of one priority, served in turn. */
class Tier {
  private readonly lines = new Map<string, Waiting[]>()
  /** Clients with someone waiting, in the order their turn comes. */
  private readonly turns: string[] = []

  get isEmpty(): boolean {
    return this.turns.length === 0
  }

  waitingFor(client: string): number {
    return this.lines.get(client)?.length ?? 0
  }

  push(entry: Waiting): void {
    const line = this.lines.get(entry.client)
    if (line) line.push(entry)
    else {
      this.lines.set(entry.client, [entry])
      this.turns.push(entry.client)
    }
  }

  /** The first in line of the client whose turn it is; that client goes to the back. */
  next(): Waiting | undefined {
    const client = this.turns.shift()
    if (client === undefined) return undefined
    const line = this.lines.get(client)!
    const entry = line.shift()!
    if (line.length > 0) this.turns.push(client)
    else this.lines.delete(client)
    return entry
  }

  remove(entry: Waiting): boolean {
    const line = this.lines.get(entry.client)
    const index = line?.indexOf(entry) ?? -1
    if (!line || index === -1) return false
    line.splice(index, 1)
    if (line.length === 0) {
      this.lines.delete(entry.client)
      this.turns.splice(this.turns.indexOf(entry.client), 1)
    }
    return true
  }
}

/**
 * Runs password checks (scrypt: tens of milliseconds and 32 MiB each, on the thread pool that file
 * and crypto work share) a few at a time. Without a bound, 32 concurrent wrong passwords fill the
 * pool and a real sign-in waits behind all of them. Waiting checks are served one client at a time in
 * turn, so a flood from one address queues behind itself; and clients with recent failures wait
 * behind those without, so a flood spread over many addresses still lets clean sign-ins through
 * first. Past its bounds a check is refused at once rather than queued without end.
 */
export class CredentialQueue {
  private readonly options: CredentialQueueOptions
  private readonly tiers: Record<CredentialPriority, Tier> = { first: new Tier(), later: new Tier() }
  private running = 0
  private waiting = 0

  constructor(options: Partial<CredentialQueueOptions> = {}) {
    this.options = { ...DEFAULT_CREDENTIAL_QUEUE, ...options }
  }

  /** How many checks run and wait now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting }
  }

  async run<T>(client: string, priority: CredentialPriority, work: () => Promise<T>): Promise<T> {
    if (this.running >= this.options.concurrency) await this.wait(client, priority)
    else this.running++
    try {
      return await work()
    } finally {
      this.release()
    }
  }

  private wait(client: string, priority: CredentialPriority): Promise<void> {
    const waitingForClient = this.tiers.first.waitingFor(client) + this.tiers.later.waitingFor(client)
    if (waitingForClient >= this.options.maxWaitingPerClient) return Promise.reject(new CredentialQueueRefused('tooMany'))
    if (this.waiting >= this.options.maxWaiting) return Promise.reject(new CredentialQueueRefused('busy'))
    const tier = this.tiers[priority]
    return new Promise<void>((start, refuse) => {
      const entry: Waiting = {
        client,
        start,
        refuse,
        timer: setTimeout(() => {
          if (tier.remove(entry)) {
            this.waiting--
            refuse(new CredentialQueueRefused('busy'))
          }
        }, this.options.maxWaitMs),
      }
      tier.push(entry)
      this.waiting++
    })
  }

  /** A check ended: its slot passes straight to the next in turn, or frees up. */
  private release(): void {
    const next = this.tiers.first.next() ?? this.tiers.later.next()
    if (!next) {
      this.running--
      return
    }
    this.waiting--
    clearTimeout(next.timer)
    next.start()
  }
}
