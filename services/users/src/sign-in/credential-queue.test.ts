import { describe, expect, it } from 'vitest'
import { CredentialQueue, CredentialQueueRefused } from './credential-queue.js'

/** Work that finishes when told to, recording the order it started in. */
function gatedWork(started: string[]) {
  const releases = new Map<string, () => void>()
  const work = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name)
      releases.set(name, () => resolve(name))
    })
  const finish = async (name: string) => {
    releases.get(name)!()
    await new Promise((resolve) => setImmediate(resolve))
  }
  return { work, finish }
}

describe('CredentialQueue', () => {
  it('runs at most `concurrency` checks at once and passes each freed slot on', async () => {
    const started: string[] = []
    const { work, finish } = gatedWork(started)
    const queue = new CredentialQueue({ concurrency: 2 })
    const answers = ['a', 'b', 'c'].map((name) => queue.run(name, 'first', work(name)))
    await Promise.resolve()
    expect(started).toEqual(['a', 'b'])
    expect(queue.load).toEqual({ running: 2, waiting: 1 })
    await finish('a')
    expect(started).toEqual(['a', 'b', 'c'])
    await finish('b')
    await finish('c')
    expect(await Promise.all(answers)).toEqual(['a', 'b', 'c'])
    expect(queue.load).toEqual({ running: 0, waiting: 0 })
  })

  it('serves waiting clients in turn, so a flood from one does not hold up another', async () => {
    const started: string[] = []
    const { work, finish } = gatedWork(started)
    const queue = new CredentialQueue({ concurrency: 1, maxWaitingPerClient: 10 })
    const runs = [queue.run('flood', 'first', work('flood-0'))]
    for (let i = 1; i <= 4; i++) runs.push(queue.run('flood', 'first', work(`flood-${i}`)))
    runs.push(queue.run('ada', 'first', work('ada')))
    for (const name of ['flood-0', 'flood-1', 'ada', 'flood-2', 'flood-3', 'flood-4']) await finish(name)
    await Promise.all(runs)
    // ada came in sixth and went second: one flood check ahead of her, not four.
    expect(started).toEqual(['flood-0', 'flood-1', 'ada', 'flood-2', 'flood-3', 'flood-4'])
  })

  it('lets clients without recent failures go before those with them', async () => {
    const started: string[] = []
    const { work, finish } = gatedWork(started)
    const queue = new CredentialQueue({ concurrency: 1 })
    const runs = [queue.run('x', 'later', work('running'))]
    for (let i = 0; i < 3; i++) runs.push(queue.run(`attacker-${i}`, 'later', work(`attacker-${i}`)))
    runs.push(queue.run('ada', 'first', work('ada')))
    for (const name of ['running', 'ada', 'attacker-0', 'attacker-1', 'attacker-2']) await finish(name)
    await Promise.all(runs)
    expect(started).toEqual(['running', 'ada', 'attacker-0', 'attacker-1', 'attacker-2'])
  })

  it('refuses at once past the waiting bounds, per client and in all', async () => {
    const started: string[] = []
    const { work, finish } = gatedWork(started)
    const queue = new CredentialQueue({ concurrency: 1, maxWaiting: 3, maxWaitingPerClient: 2 })
    const runs = [queue.run('a', 'first', work('a0')), queue.run('a', 'first', work('a1')), queue.run('a', 'first', work('a2'))]
    await expect(queue.run('a', 'first', work('a3'))).rejects.toEqual(new CredentialQueueRefused('tooMany'))
    runs.push(queue.run('b', 'first', work('b0')))
    await expect(queue.run('c', 'first', work('c0'))).rejects.toMatchObject({ reason: 'busy' })
    for (const name of ['a0', 'a1', 'b0', 'a2']) await finish(name)
    await Promise.all(runs)
    expect(started).not.toContain('a3')
    expect(started).not.toContain('c0')
  })

  it('gives up a check that waited longer than maxWaitMs, and frees its place', async () => {
    const started: string[] = []
    const { work, finish } = gatedWork(started)
    const queue = new CredentialQueue({ concurrency: 1, maxWaitMs: 30 })
    const first = queue.run('a', 'first', work('a'))
    await expect(queue.run('b', 'first', work('b'))).rejects.toMatchObject({ reason: 'busy' })
    expect(queue.load).toEqual({ running: 1, waiting: 0 })
    await finish('a')
    await first
    expect(started).toEqual(['a'])
    expect(queue.load).toEqual({ running: 0, waiting: 0 })
  })

  it('frees the slot when a check fails', async () => {
    const queue = new CredentialQueue({ concurrency: 1 })
    await expect(queue.run('a', 'first', () => Promise.reject(new Error('scrypt failed')))).rejects.toThrow('scrypt failed')
    expect(await queue.run('a', 'first', async () => 'next')).toBe('next')
  })
})
