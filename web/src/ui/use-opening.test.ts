// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react'
import { createElement, useLayoutEffect, useState } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { useOpening } from './use-opening'

/** A dialog whose field starts from `from` each time it opens; `committed` gets the field's value at every commit while open. */
function Field({ open, from, committed }: { open: boolean; from: string; committed: string[] }) {
  const [text, setText] = useState('')
  useOpening(open, () => setText(from))
  useLayoutEffect(() => {
    if (open) committed.push(text)
  })
  return open ? createElement('input', { 'aria-label': 'range', value: text, readOnly: true }) : null
}

const field = (open: boolean, from: string, committed: string[]) => createElement(Field, { open, from, committed })

describe('useOpening', () => {
  afterEach(cleanup)

  it('fills the field in the render that opens the dialog: no commit shows it empty', () => {
    const committed: string[] = []
    const view = render(field(false, 'A1:D7', committed))
    view.rerender(field(true, 'A1:D7', committed))
    expect((view.getByLabelText('range') as HTMLInputElement).value).toBe('A1:D7')
    expect(committed).toEqual(['A1:D7'])
  })

  it('starts again from where the user is each time it opens, not as that moves while it is open', () => {
    const committed: string[] = []
    const view = render(field(true, 'B2', committed))
    expect((view.getByLabelText('range') as HTMLInputElement).value).toBe('B2')
    view.rerender(field(true, 'C3', committed))
    expect((view.getByLabelText('range') as HTMLInputElement).value).toBe('B2')
    view.rerender(field(false, 'C3', committed))
    view.rerender(field(true, 'C3', committed))
    expect((view.getByLabelText('range') as HTMLInputElement).value).toBe('C3')
    expect(committed).toEqual(['B2', 'B2', 'C3'])
  })
})
