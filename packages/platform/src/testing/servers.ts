import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, createConnection } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A TCP port on loopback that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

export async function waitForPort(port: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' })
      socket.once('connect', () => {
        socket.destroy()
        resolve(true)
      })
      socket.once('error', () => resolve(false))
    })
    if (open) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`Nothing listens on port ${port} after ${timeoutMs} ms`)
}

export interface RunningServer {
  url: string
  port: number
  stop(): Promise<void>
}

/** A throwaway redis-server on a free loopback port, with persistence off. */
export async function startRedisServer(): Promise<RunningServer> {
  const port = await freePort()
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  // A test process that ends without stop() must not leave redis-server behind.
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)
  let spawnError: Error | null = null
  child.once('error', (error) => (spawnError = error))
  try {
    await waitForPort(port)
  } catch (error) {
    child.kill('SIGKILL')
    throw spawnError ?? error
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: async () => {
      process.off('exit', killOnExit)
      child.kill('SIGTERM')
      await exited
    },
  }
}

/** s3rver, an S3-compatible server, on a free loopback port with one bucket. */
export async function startS3rver(bucket: string): Promise<RunningServer & { accessKey: string; secretKey: string }> {
  const { default: S3rver } = (await import('s3rver')) as { default: new (options: object) => { run(): Promise<unknown>; close(): Promise<void> } }
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'))
  const port = await freePort()
  const server = new S3rver({ port, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] })
  await server.run()
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    // s3rver's fixed credentials
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    stop: async () => {
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
