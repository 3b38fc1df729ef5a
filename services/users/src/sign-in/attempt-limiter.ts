import type { DocumentCollection, DocumentStore } from '@finsheet/platform'

export interface SignInLimits {
  /** Failures for one account before it is locked out. */
  accountFailures: number
  /** Failures from one client address, across accounts, before the address is locked out. */
  addressFailures: number
  /** Failures are forgotten this long after the last one (and after any lockout has ended), in ms. */
  windowMs: number
  /** The first lockout; each further one lasts twice as long, up to `maxLockoutMs`. */
  lockoutMs: number
  maxLockoutMs: number
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  accountFailures: 5,
  addressFailures: 20,
  windowMs: 15 * 60_000,
  lockoutMs: 30_000,
  maxLockoutMs: 15 * 60_000,
}

/** What is known of a sign-in before its password is checked. */
export interface SignInGate {
  /** Set while the account or the address is locked out: the attempt is refused unchecked. */
  lockedForMs: number | null
  /** The account or the address failed recently: its attempts wait behind everyone else's. */
  suspect: boolean
}

interface AttemptRecord {
  /** `account:<email>` or `address:<client address>`. */
  id: string
  /** Failures since the record began or since its last lockout. */
  failures: number
  /** Lockouts so far; the next one lasts twice as long as the last. */
  lockouts: number
  /** Epoch ms until which sign-in is refused; 0 when never locked. */
  lockedUntil: number
  lastFailureAt: number
}

export const SIGN_IN_ATTEMPTS = 'sign_in_attempts'

const accountKey = (email: string) => `account:${email}`
const addressKey = (address: string) => `address:${address}`

/**
 * Counts failed sign-ins per account and per client address in the users database, so every replica
 * sees the same counts. Past the limit the account (or address) is locked out for `lockoutMs`; once it
 * has been locked, each further failure locks it again for twice as long, up to `maxLockoutMs`. While
 * locked, even the right password is refused without being checked: guessing stays slow whatever the
 * attacker's speed, and a locked-out flood costs no password hashing. A success clears the account's
 * count, never the address's, so one account of the attacker's own cannot reset it.
 */
export class SignInAttemptLimiter {
  private readonly limits: SignInLimits
  private lastSweepAt = 0

  constructor(
    private readonly store: DocumentStore,
    limits: Partial<SignInLimits> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.limits = { ...DEFAULT_SIGN_IN_LIMITS, ...limits }
  }

  private get attempts(): DocumentCollection<AttemptRecord> {
    return this.store.collection<AttemptRecord>(SIGN_IN_ATTEMPTS, { indexes: [{ fields: ['lastFailureAt'] }] })
  }

  /** Whether a sign-in for `email` from `address` may have its password checked now. */
  async gate(email: string, address: string): Promise<SignInGate> {
    const now = this.now()
    const records = await this.attempts.getMany([accountKey(email), addressKey(address)])
    let lockedForMs: number | null = null
    let suspect = false
    for (const record of records) {
      if (this.forgotten(record, now)) continue
      if (record.lockedUntil > now) lockedForMs = Math.max(lockedForMs ?? 0, record.lockedUntil - now)
      if (record.failures > 0 || record.lockouts > 0) suspect = true
    }
    return { lockedForMs, suspect }
  }

  /** Counts a failed sign-in; answers how long the account or the address is now locked, if it is. */
  async failed(email: string, address: string): Promise<number | null> {
    const now = this.now()
    const lockedUntil = await this.store.transaction(async (tx) => {
      const attempts = tx.collection<AttemptRecord>(SIGN_IN_ATTEMPTS, { indexes: [{ fields: ['lastFailureAt'] }] })
      let latest = 0
      for (const [id, limit] of [
        [accountKey(email), this.limits.accountFailures],
        [addressKey(address), this.limits.addressFailures],
      ] as const) {
        const stored = await attempts.get(id)
        const record: AttemptRecord = stored && !this.forgotten(stored, now) ? { ...stored } : { id, failures: 0, lockouts: 0, lockedUntil: 0, lastFailureAt: now }
        record.failures += 1
        record.lastFailureAt = now
        if (record.failures >= (record.lockouts === 0 ? limit : 1)) {
          record.lockedUntil = now + Math.min(this.limits.maxLockoutMs, this.limits.lockoutMs * 2 ** record.lockouts)
          record.lockouts += 1
          record.failures = 0
        }
        await attempts.put(record)
        latest = Math.max(latest, record.lockedUntil)
      }
      return latest
    })
    await this.sweep(now)
    return lockedUntil > now ? lockedUntil - now : null
  }

  /** A correct password for `email`: its account starts again from no failures. */
  async succeeded(email: string): Promise<void> {
    await this.attempts.delete(accountKey(email))
  }

  /** A record whose last failure, and lockout, ended longer ago than the window no longer counts. */
  private forgotten(record: AttemptRecord, now: number): boolean {
    return record.lockedUntil <= now && now - Math.max(record.lastFailureAt, record.lockedUntil) > this.limits.windowMs
  }

  /** Deletes records that no longer count, at most once a window, so guessed emails do not pile up. */
  private async sweep(now: number): Promise<void> {
    if (now - this.lastSweepAt < this.limits.windowMs) return
    this.lastSweepAt = now
    // A record is old once its last failure is older than the window plus the longest lockout.
    await this.attempts.deleteMany({ lastFailureAt: { $lt: now - this.limits.windowMs - this.limits.maxLockoutMs } })
  }
}
