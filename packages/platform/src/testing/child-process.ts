import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

/**
 * Runs a TypeScript file in a child Node process (through tsx, with the workspace's development
 * condition so it loads sources), for tests that kill a process mid-work.
 */
export function spawnTypeScript(file: string | URL, args: string[] = [], env: NodeJS.ProcessEnv = {}): ChildProcess {
  const path = file instanceof URL ? fileURLToPath(file) : file
  return spawn(process.execPath, ['--conditions=development', '--import', 'tsx', path, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

/** Calls `onLine` for each stdout line; resolves when the process exits. */
export function readLines(child: ChildProcess, onLine: (line: string) => void): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  createInterface({ input: child.stdout! }).on('line', onLine)
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stderr })))
}
