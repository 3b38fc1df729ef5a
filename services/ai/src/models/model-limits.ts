/** How long a generate-financial-model request waits for its job by default before answering that it is still running. */
export const DEFAULT_MODEL_WAIT_MS = 60_000
