// @vitest-environment happy-dom
import { render } from '@testing-library/react'
import { createElement } from 'react'
import { describe, expect, it } from 'vitest'
import type { AssistantController } from './assistant-controller'
import type { AssistantMessage } from './conversation'
import { MessageView } from './MessageView'

const answer: AssistantMessage = {
  id: 'm1',
  role: 'assistant',
  at: '2026-11-27T12:00:00Z',
  route: 'chat',
  text: 'WACC is **8.2%**:\n\n| input | value |\n|---|---|\n| Re | 10% |',
  status: 'done',
  steps: [],
}

describe('MessageView', () => {
  it('shows an answer as plain text at once, then rendered from its Markdown once the renderer has loaded', async () => {
    // an answer without a changeset or buttons never calls the controller
    const view = render(createElement(MessageView, { message: answer, assistant: {} as AssistantController, workbookId: 'w1', sending: false }))
    const plain = view.container.querySelector('.assistant-plain-text')
    expect(plain?.textContent).toBe(answer.text)
    expect(await view.findByText('8.2%', { selector: 'strong' })).toBeTruthy()
    expect(view.getByRole('table')).toBeTruthy()
    expect(view.container.querySelector('.assistant-plain-text')).toBeNull()
  })
})
