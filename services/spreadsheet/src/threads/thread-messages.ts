/** What a spreadsheet thread is started with, and what it tells its parent. */
export interface ThreadData {
  /** The service's environment (its config is read from it, as from process.env in a process of its own). */
  env: Record<string, string | undefined>
  /** Its log level, or false for silence. */
  logLevel: string | false
  /** How often it beats, in milliseconds. */
  beatMs: number
}

export type ThreadMessage = { type: 'listening'; port: number } | { type: 'failed'; message: string } | { type: 'beat' }
