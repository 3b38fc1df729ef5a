import type { Changeset } from '@finsheet/contracts'
import { describe, expect, it } from 'vitest'
import { MemoryStorage } from '../storage/memory-storage'
import type { AssistantMessage, Message } from './conversation'
import { conversationKey, conversationStore, MAX_KEPT_CHANGES, MAX_KEPT_MESSAGES } from './conversation'

const answer = (patch: Partial<AssistantMessage> = {}): AssistantMessage => ({ id: 'a1', role: 'assistant', at: '2026-01-01T00:00:00Z', route: 'action', text: 'Done', status: 'done', steps: [], ...patch })

function changeset(changes: number): Changeset {
  return {
    id: 'cs1',
    workbookId: 'wb1',
    status: 'draft',
    applied: false,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    baseRevision: 3,
    description: `${changes} cells on Sheet1`,
    changes: Array.from({ length: changes }, (_, i) => ({ sheet: 'Sheet1', address: `A${i + 1}`, before: { input: '', value: null, display: '' }, after: { input: String(i), value: i, display: String(i) } })),
    changeCount: changes,
    structural: [],
    formats: [],
    charts: [],
    downstream: [],
    downstreamCount: 0,
    errors: [],
    needsApproval: false,
    approvalReasons: [],
    highlights: [],
    toolCalls: 1,
    changeId: null,
    appliedRevision: null,
    appliedAt: null,
  }
}

describe('conversationStore', () => {
  it('keeps one conversation per user and workbook', () => {
    const storage = new MemoryStorage()
    const ada = conversationStore('ada', storage)
    ada.save('wb1', [{ id: 'u1', role: 'user', text: 'Hello', at: '2026-01-01T00:00:00Z' }])
    expect(conversationStore('ada', storage).load('wb1')).toHaveLength(1)
    expect(conversationStore('ada', storage).load('wb2')).toEqual([])
    expect(conversationStore('eve', storage).load('wb1')).toEqual([])
    ada.save('wb1', [])
    expect(storage.getItem(conversationKey('ada', 'wb1'))).toBeNull()
  })

  it('reads back an answer cut off by a reload as stopped, and a changeset mid-request as it stood before', () => {
    const storage = new MemoryStorage()
    const store = conversationStore('ada', storage)
    store.save('wb1', [
      answer({ id: 'a1', status: 'streaming', steps: [{ id: 's1', description: 'Reading Sheet1!A1:B2', state: 'running' }] }),
      answer({ id: 'a2', changeset: { changeset: changeset(2), state: 'applying', appliedAtOnce: false } }),
      answer({ id: 'a3', changeset: { changeset: changeset(2), state: 'undoing', appliedAtOnce: false } }),
    ])
    const [stopped, applying, undoing] = store.load('wb1') as AssistantMessage[]
    expect(stopped.status).toBe('stopped')
    expect(stopped.steps[0]).toMatchObject({ state: 'failed', error: 'Stopped' })
    expect(applying.changeset?.state).toBe('draft')
    expect(undoing.changeset?.state).toBe('applied')
  })

  it('keeps the newest messages and a bounded list of a large changeset, with its counts whole', () => {
    const storage = new MemoryStorage()
    const store = conversationStore('ada', storage)
    const many: Message[] = Array.from({ length: MAX_KEPT_MESSAGES + 5 }, (_, i) => ({ id: `u${i}`, role: 'user', text: `m${i}`, at: '2026-01-01T00:00:00Z' }))
    store.save('wb1', [...many, answer({ id: 'big', changeset: { changeset: changeset(MAX_KEPT_CHANGES + 300), state: 'draft', appliedAtOnce: false } })])
    const kept = store.load('wb1')
    expect(kept).toHaveLength(MAX_KEPT_MESSAGES)
    expect(kept[0].id).toBe('u6')
    const big = kept.at(-1) as AssistantMessage
    expect(big.changeset?.changeset.changes).toHaveLength(MAX_KEPT_CHANGES)
    expect(big.changeset?.changeset.changeCount).toBe(MAX_KEPT_CHANGES + 300)
  })

  it('drops what it cannot read, and carries on when the storage is full', () => {
    const storage = new MemoryStorage()
    storage.setItem(conversationKey('ada', 'wb1'), '{not json')
    const store = conversationStore('ada', storage)
    expect(store.load('wb1')).toEqual([])
    expect(storage.getItem(conversationKey('ada', 'wb1'))).toBeNull()
    storage.setItem(conversationKey('ada', 'wb2'), JSON.stringify([{ id: 'x', role: 'assistant', text: 'no steps' }, { id: 'u', role: 'user', text: 'kept', at: '' }]))
    expect(store.load('wb2').map((message) => message.id)).toEqual(['u'])
    storage.failWrites = true
    expect(() => store.save('wb1', [answer()])).not.toThrow()
  })
})
