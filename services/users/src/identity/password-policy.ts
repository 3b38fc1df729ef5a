import { ZxcvbnFactory } from '@zxcvbn-ts/core'
import * as common from '@zxcvbn-ts/language-common'
import * as english from '@zxcvbn-ts/language-en'
import { PASSWORD_TOO_WEAK_MESSAGE } from '@finsheet/contracts'

/**
 * zxcvbn's score runs from 0 to 4. Below 2 a password falls to fewer than a million guesses: the
 * common passwords list (123456, password1, qwerty123), a dictionary word with a digit (secret1),
 * keyboard walks and sequences (abcdef). From 2 on it resists guessing as slow as sign-in allows.
 */
export const MIN_PASSWORD_SCORE = 2

let estimator: ZxcvbnFactory | null = null

/** The estimator with the common-password list and English words, names and wiki terms; built on first use. */
function strength(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  })
  return estimator
}

/**
 * Why a new password would be refused, or null when it is strong enough. `related` are words the
 * user gave with it (email, name): a password made of them is as weak as a common one.
 */
export function weakPasswordReason(password: string, related: string[] = []): string | null {
  const userInputs = related
    .map((text) => text.toLowerCase().trim())
    .flatMap((text) => [text, text.replace(/[^\p{L}\p{N}]+/gu, ''), ...text.split(/[^\p{L}\p{N}]+/u)])
    .filter((word) => word.length >= 3)
  const result = strength().check(password, userInputs)
  if (result.score >= MIN_PASSWORD_SCORE) return null
  const advice = [result.feedback.warning, ...result.feedback.suggestions].filter((text): text is string => Boolean(text))
  return [`${PASSWORD_TOO_WEAK_MESSAGE}.`, ...advice].join(' ')
}
