import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { freePort, waitForPort } from './servers.js'

export interface FirebaseAuthEmulator {
  /** host:port, the value of FIREBASE_AUTH_EMULATOR_HOST */
  host: string
  projectId: string
  stop(): Promise<void>
}

/**
 * The firebase-tools Authentication emulator on free loopback ports. With a `demo-` project id it
 * needs no credentials and no network.
 */
export async function startFirebaseAuthEmulator(projectId = 'demo-finsheet'): Promise<FirebaseAuthEmulator> {
  const require = createRequire(import.meta.url)
  const firebaseCli = join(dirname(require.resolve('firebase-tools/package.json')), 'lib', 'bin', 'firebase.js')
  const directory = mkdtempSync(join(tmpdir(), 'firebase-emulator-'))
  const [authPort, hubPort, loggingPort] = [await freePort(), await freePort(), await freePort()]
  writeFileSync(
    join(directory, 'firebase.json'),
    JSON.stringify({
      emulators: {
        auth: { host: '127.0.0.1', port: authPort },
        hub: { host: '127.0.0.1', port: hubPort },
        logging: { host: '127.0.0.1', port: loggingPort },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  )
  const child = spawn(process.execPath, [firebaseCli, 'emulators:start', '--only', 'auth', '--project', projectId], {
    cwd: directory,
    env: { ...process.env, HOME: directory, XDG_CONFIG_HOME: directory, FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true', NO_UPDATE_NOTIFIER: '1', CI: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  // A test process that ends without stop() must not leave the emulator behind.
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)
  try {
    await waitForPort(authPort, 60_000)
    for (let attempt = 0; attempt < 100; attempt++) {
      const ready = await fetch(`http://127.0.0.1:${authPort}/`).then(
        (response) => response.ok,
        () => false,
      )
      if (ready) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  } catch (error) {
    child.kill('SIGKILL')
    rmSync(directory, { recursive: true, force: true })
    throw new Error(`The Auth emulator did not start: ${(error as Error).message}\n${output}`)
  }
  return {
    host: `127.0.0.1:${authPort}`,
    projectId,
    stop: async () => {
      process.off('exit', killOnExit)
      child.kill('SIGINT')
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000)
      await exited
      clearTimeout(killer)
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
