// @vitest-environment happy-dom
import { act, render } from '@testing-library/react'
import { createElement, useState } from 'react'
import { describe, expect, it } from 'vitest'
import { OpenedOnce } from './OpenedOnce'

/** A dialog-like child that remembers what was typed in it while it stays mounted. */
function Remembering({ open }: { open: boolean }) {
  const [text, setText] = useState('')
  return createElement('div', { 'data-testid': 'child', 'data-open': String(open) }, createElement('input', { 'aria-label': 'text', value: text, onChange: (e: { target: { value: string } }) => setText(e.target.value) }))
}

const tree = (open: boolean, onRender?: () => void) =>
  createElement(OpenedOnce, {
    open,
    children: () => {
      onRender?.()
      return createElement(Remembering, { open })
    },
  })

describe('OpenedOnce', () => {
  it('renders nothing, nor calls its render function, until first opened', () => {
    let renders = 0
    const view = render(tree(false, () => renders++))
    view.rerender(tree(false, () => renders++))
    expect(view.queryByTestId('child')).toBeNull()
    expect(renders).toBe(0)
  })

  it('stays mounted once opened, so what was typed is still there when it opens again', () => {
    const view = render(tree(false))
    view.rerender(tree(true))
    const input = view.getByLabelText('text') as HTMLInputElement
    act(() => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, 'revenue')
      input.dispatchEvent(new Event('input', { bubbles: true }))
    })
    expect(input.value).toBe('revenue')
    view.rerender(tree(false))
    expect(view.getByTestId('child').dataset.open).toBe('false')
    view.rerender(tree(true))
    expect((view.getByLabelText('text') as HTMLInputElement).value).toBe('revenue')
  })
})
