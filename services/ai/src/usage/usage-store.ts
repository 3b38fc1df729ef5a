/**
 * Model tokens per user: one record per request (written once, never updated, so replicas cannot
 * lose each other's counts), summed over the user's UTC day for the daily limit.
 */
import { randomUUID } from 'node:crypto'
import type { AiProvider } from '@finsheet/contracts'
import type { DocumentStore } from '@finsheet/platform'
import { aiErrors } from '../errors.js'
import type { TokenUsage } from '../providers/conversation.js'

export interface UsageRecord {
  id: string
  userId: string
  /** The UTC day, YYYY-MM-DD. */
  day: string
  at: string
  /** Which route spent them: chat, generate-formula, suggestions. */
  purpose: string
  model: string
  provider: AiProvider
  inputTokens: number
  outputTokens: number
}

export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10)
}

/** Seconds until the next UTC midnight. */
export function secondsUntilNextDay(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)
  return Math.ceil((next - now.getTime()) / 1000)
}

export function createUsageStore(store: DocumentStore, options: { dailyTokenLimit?: number; clock?: () => Date } = {}) {
  const records = store.collection<UsageRecord>('ai_usage', { indexes: [{ fields: ['userId', 'day'] }] })
  const clock = options.clock ?? (() => new Date())

  async function usedToday(userId: string): Promise<number> {
    let total = 0
    for (const record of await records.find({ userId, day: utcDay(clock()) })) total += record.inputTokens + record.outputTokens
    return total
  }

  return {
    dailyTokenLimit: options.dailyTokenLimit,
    usedToday,
    /** Refuses with 429 once the user's tokens today reach the daily limit; a request under it may cross it once. */
    async assertWithinDailyLimit(userId: string): Promise<void> {
      const limit = options.dailyTokenLimit
      if (limit === undefined) return
      const used = await usedToday(userId)
      if (used >= limit) throw aiErrors.dailyLimitReached(used, limit, secondsUntilNextDay(clock()))
    },
    async record(userId: string, usage: TokenUsage, details: Pick<UsageRecord, 'purpose' | 'model' | 'provider'>): Promise<void> {
      if (usage.inputTokens === 0 && usage.outputTokens === 0) return
      const now = clock()
      await records.insert({ id: randomUUID(), userId, day: utcDay(now), at: now.toISOString(), ...details, ...usage })
    },
  }
}

export type UsageStore = ReturnType<typeof createUsageStore>
