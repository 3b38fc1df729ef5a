import type { UserSession } from '@finsheet/contracts'
import { describe, expect, it } from 'vitest'
import { UnsavedSession, unsavedSessionKey } from './unsaved-session'
import { MemoryStorage } from '../storage/memory-storage'

const session = (id: string, name: string): UserSession => ({ id, name, email: null, role: 'admin', activeWorkbook: 'defaultWorkbook', workbooks: {} })

describe('the session kept until the users service has it', () => {
  it('is kept per user while its save is on the way and forgotten once saved', () => {
    const storage = new MemoryStorage()
    const ada = new UnsavedSession('ada', storage)
    const write = ada.keep(session('ada', 'first'))
    expect(new UnsavedSession('ada', storage).pending()).toEqual(session('ada', 'first'))
    expect(new UnsavedSession('bob', storage).pending()).toBeNull()
    ada.saved(write)
    expect(new UnsavedSession('ada', storage).pending()).toBeNull()
  })

  it("keeps a newer session when an older save's answer arrives late", () => {
    const storage = new MemoryStorage()
    const ada = new UnsavedSession('ada', storage)
    const older = ada.keep(session('ada', 'older'))
    const newer = ada.keep(session('ada', 'newer'))
    ada.saved(older)
    expect(ada.pending()?.name).toBe('newer')
    ada.saved(newer)
    expect(ada.pending()).toBeNull()
  })

  it('numbers the writes of a new page after the session it found, and drops what it cannot read or what is not this user’s', () => {
    const storage = new MemoryStorage()
    new UnsavedSession('ada', storage).keep(session('ada', 'from the last page'))
    const reloaded = new UnsavedSession('ada', storage)
    expect(reloaded.pending()?.name).toBe('from the last page')
    const write = reloaded.keep(session('ada', 'typed after the reload'))
    reloaded.saved(write)
    expect(reloaded.pending()).toBeNull()

    storage.setItem(unsavedSessionKey('ada'), JSON.stringify({ write: 1, session: session('bob', 'not hers') }))
    expect(new UnsavedSession('ada', storage).pending()).toBeNull()
    storage.setItem(unsavedSessionKey('ada'), '{')
    expect(new UnsavedSession('ada', storage).pending()).toBeNull()
    expect(storage.length).toBe(0)
  })
})
