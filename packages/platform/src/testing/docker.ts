import { getContainerRuntimeClient } from 'testcontainers'

let answer: Promise<boolean> | null = null

/** Whether a Docker engine answers here; Testcontainers suites skip themselves when none does. */
export function dockerAvailable(): Promise<boolean> {
  answer ??= Promise.race([
    getContainerRuntimeClient().then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000).unref()),
  ])
  return answer
}

export const NO_DOCKER_REASON = 'skipped: no Docker engine'
