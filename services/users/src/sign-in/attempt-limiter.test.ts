import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createSqliteDocumentStore, type DocumentStore } from '@finsheet/platform'
import { SIGN_IN_ATTEMPTS, SignInAttemptLimiter } from './attempt-limiter.js'

let store: DocumentStore
let now: number
const limits = { accountFailures: 3, addressFailures: 5, windowMs: 60_000, lockoutMs: 1_000, maxLockoutMs: 4_000 }
const limiter = () => new SignInAttemptLimiter(store, limits, () => now)

beforeEach(() => {
  store = createSqliteDocumentStore({ path: ':memory:' })
  now = 1_000_000
})
afterEach(async () => store.close())

describe('SignInAttemptLimiter', () => {
  it('locks an account after its limit of failures, refusing even the right password until the lockout ends', async () => {
    const attempts = limiter()
    expect(await attempts.gate('ada@example.com', '10.0.0.1')).toEqual({ lockedForMs: null, suspect: false })
    expect(await attempts.failed('ada@example.com', '10.0.0.1')).toBeNull()
    expect(await attempts.gate('ada@example.com', '10.0.0.1')).toEqual({ lockedForMs: null, suspect: true })
    expect(await attempts.failed('ada@example.com', '10.0.0.2')).toBeNull()
    // The third failure, from yet another address, still counts against the account.
    expect(await attempts.failed('ada@example.com', '10.0.0.3')).toBe(1_000)
    expect((await attempts.gate('ada@example.com', '10.0.0.9')).lockedForMs).toBe(1_000)
    now += 600
    expect((await attempts.gate('ada@example.com', '10.0.0.9')).lockedForMs).toBe(400)
    now += 400
    expect((await attempts.gate('ada@example.com', '10.0.0.9')).lockedForMs).toBeNull()
  })

  it('doubles the lockout with each failure after the first lockout, up to the longest', async () => {
    const attempts = limiter()
    for (let i = 0; i < 2; i++) await attempts.failed('bob@example.com', `10.0.1.${i}`)
    const lockouts: Array<number | null> = []
    for (let i = 0; i < 5; i++) {
      lockouts.push(await attempts.failed('bob@example.com', `10.0.2.${i}`))
      now += lockouts.at(-1) ?? 0
    }
    expect(lockouts).toEqual([1_000, 2_000, 4_000, 4_000, 4_000])
  })

  it('locks an address that fails across many accounts, without locking those accounts for others', async () => {
    const attempts = limiter()
    const results: Array<number | null> = []
    for (let i = 0; i < 5; i++) results.push(await attempts.failed(`user${i}@example.com`, '192.0.2.7'))
    expect(results).toEqual([null, null, null, null, 1_000])
    expect((await attempts.gate('someone-else@example.com', '192.0.2.7')).lockedForMs).toBe(1_000)
    expect(await attempts.gate('user0@example.com', '198.51.100.1')).toEqual({ lockedForMs: null, suspect: true })
  })

  it("clears the account's failures on success but keeps the address's", async () => {
    const attempts = limiter()
    await attempts.failed('cy@example.com', '10.1.1.1')
    await attempts.failed('cy@example.com', '10.1.1.1')
    await attempts.succeeded('cy@example.com')
    expect(await attempts.gate('cy@example.com', '10.9.9.9')).toEqual({ lockedForMs: null, suspect: false })
    expect((await attempts.gate('other@example.com', '10.1.1.1')).suspect).toBe(true)
    // Two more failures do not lock: the count started again.
    expect(await attempts.failed('cy@example.com', '10.2.2.2')).toBeNull()
    expect(await attempts.failed('cy@example.com', '10.2.2.3')).toBeNull()
  })

  it('forgets failures a window after the last one, and sweeps records that no longer count', async () => {
    const attempts = limiter()
    await attempts.failed('dee@example.com', '10.3.3.3')
    await attempts.failed('dee@example.com', '10.3.3.3')
    now += limits.windowMs + 1
    expect(await attempts.gate('dee@example.com', '10.3.3.3')).toEqual({ lockedForMs: null, suspect: false })
    expect(await attempts.failed('dee@example.com', '10.3.3.4')).toBeNull()
    // dee (started again), and the two addresses
    expect(await store.collection(SIGN_IN_ATTEMPTS).count()).toBe(3)
    now += limits.windowMs + limits.maxLockoutMs + 1
    await attempts.failed('eve@example.com', '10.4.4.4')
    // Only eve's two records (account and address) remain.
    expect(await store.collection(SIGN_IN_ATTEMPTS).count()).toBe(2)
  })
})
