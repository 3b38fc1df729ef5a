/** The page's localStorage, or undefined where there is none or it is refused (private modes, tests). */
export function browserStorage(): Storage | undefined {
  try {
    return globalThis.localStorage
  } catch {
    return undefined
  }
}
