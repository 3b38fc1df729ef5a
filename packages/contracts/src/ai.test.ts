import { describe, expect, it } from 'vitest'
import { AI_ERROR_CODES, ASSISTANT_ERROR_TEXTS, ASSISTANT_ERROR_TIPS, FALLBACK_MODEL_VALUES, HOSTED_MODELS, assistantErrorText } from './constants.js'

describe('assistantErrorText', () => {
  it('words each failure as the assistant panel shows it, always with the tips', () => {
    expect(assistantErrorText({ status: 401, code: 'TOKEN_EXPIRED', message: 'Token expired' })).toEqual({
      text: ASSISTANT_ERROR_TEXTS.authentication,
      hint: ASSISTANT_ERROR_TEXTS.authenticationHint,
      tips: ASSISTANT_ERROR_TIPS,
    })
    expect(assistantErrorText({ status: 400, message: 'API Error 401: Unauthorized' }).text).toBe(ASSISTANT_ERROR_TEXTS.authentication)
    // The provider refused the service's own key: the same text, with a hint that is not about the session.
    const provider = assistantErrorText({ status: 502, code: AI_ERROR_CODES.providerAuthentication, message: 'OpenAI refused the service’s credentials (401 Unauthorized); check OPENAI_API_KEY' })
    expect(provider).toMatchObject({ text: 'Authentication error. Please refresh the page and try again.', hint: ASSISTANT_ERROR_TEXTS.providerAuthenticationHint })
    expect(assistantErrorText({ status: 404, message: 'Route POST /api/ai/nope not found' }).text).toBe(ASSISTANT_ERROR_TEXTS.endpointNotFound)
    expect(assistantErrorText({ status: 0, message: 'Failed to fetch' }).text).toBe(ASSISTANT_ERROR_TEXTS.unreachable)
    expect(assistantErrorText({ status: 500, message: 'Internal server error' })).toMatchObject({ text: 'Server error. The backend service encountered an error.', hint: ASSISTANT_ERROR_TEXTS.serverHint })
    expect(assistantErrorText({ status: 429, code: AI_ERROR_CODES.dailyLimit, message: 'You have used today’s AI allowance' }).text).toBe('Error: You have used today’s AI allowance')
  })
})

describe('the model catalogue', () => {
  it('falls back to one GPT-4o and two Claude models that it lists', () => {
    const values = new Set(HOSTED_MODELS.map((model) => model.value))
    for (const value of FALLBACK_MODEL_VALUES) expect(values.has(value)).toBe(true)
    expect(FALLBACK_MODEL_VALUES.filter((value) => value.startsWith('claude'))).toHaveLength(2)
    expect(FALLBACK_MODEL_VALUES[0]).toBe('gpt-4o')
  })
})
