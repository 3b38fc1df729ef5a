import type { UserSession } from '@finsheet/contracts'
import { describe, expect, it } from 'vitest'
import { MemoryStorage } from '../storage/memory-storage'
import { forgetLegacySession, legacySessionKey, readLegacySession } from './legacy-session'

const session = (id: string): UserSession => ({ id, name: 'Ada', email: null, role: 'admin', activeWorkbook: 'defaultWorkbook', workbooks: {} })

describe('the session an earlier version kept in the browser', () => {
  it('is read for its own user only, and forgotten on request', () => {
    const storage = new MemoryStorage()
    storage.setItem(legacySessionKey('ada'), JSON.stringify({ write: 3, session: session('ada') }))
    expect(readLegacySession('bob', storage)).toBeNull()
    expect(readLegacySession('ada', storage)).toEqual(session('ada'))
    forgetLegacySession('ada', storage)
    expect(readLegacySession('ada', storage)).toBeNull()
  })

  it('drops what cannot be read, or belongs to someone else', () => {
    const storage = new MemoryStorage()
    storage.setItem(legacySessionKey('ada'), '{not json')
    expect(readLegacySession('ada', storage)).toBeNull()
    expect(storage.getItem(legacySessionKey('ada'))).toBeNull()
    storage.setItem(legacySessionKey('ada'), JSON.stringify({ write: 1, session: session('eve') }))
    expect(readLegacySession('ada', storage)).toBeNull()
    expect(storage.getItem(legacySessionKey('ada'))).toBeNull()
  })
})
