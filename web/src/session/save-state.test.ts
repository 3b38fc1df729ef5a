import { describe, expect, it } from 'vitest'
import { SAVE_LABELS, saveStateOf } from './save-state'

describe('saveStateOf', () => {
  it('says saved when nothing waits, saving while a request is on its way, unsaved while edits wait', () => {
    expect(saveStateOf({ pending: 0, sending: false, failure: null })).toBe('saved')
    expect(saveStateOf({ pending: 2, sending: true, failure: null })).toBe('saving')
    expect(saveStateOf({ pending: 0, sending: true, failure: null })).toBe('saving')
    expect(saveStateOf({ pending: 1, sending: false, failure: null })).toBe('unsaved')
  })

  it('keeps saying why the last attempt failed while it is retried', () => {
    expect(saveStateOf({ pending: 1, sending: true, failure: 'offline' })).toBe('offline')
    expect(saveStateOf({ pending: 1, sending: false, failure: 'unavailable' })).toBe('error')
    expect(saveStateOf({ pending: 0, sending: false, failure: 'refused' })).toBe('error')
  })

  it('labels each state, the failures saying the edits are not saved', () => {
    expect(SAVE_LABELS.offline).toContain('Not saved')
    expect(SAVE_LABELS.error).toBe('Not saved')
    expect(new Set(Object.values(SAVE_LABELS)).size).toBe(5)
  })
})
