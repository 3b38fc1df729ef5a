/**
 * The stack's outside dependencies as processes a fault suite owns: redis-server and s3rver, each on
 * its own loopback port and data folder, which the suite kills (SIGKILL, as a crash or a lost host
 * would) and starts again on the same port and data; and a TCP proxy in front of either that adds
 * latency on demand, as a congested network or an overloaded server would.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { connect, createServer, type Server, type Socket } from 'node:net'
import { freePort, readLines, spawnTypeScript, waitForPort } from '@finsheet/platform/testing'

export interface Dependency {
  port: number
  /** Stops it with SIGKILL; what it acknowledged is on disk (Redis: an fsync per write). */
  kill(): Promise<void>
  /** Starts it again on the same port and data folder, and waits until it accepts connections. */
  start(): Promise<void>
  stop(): Promise<void>
}

async function processDependency(port: number, begin: () => Promise<ChildProcess>): Promise<Dependency> {
  let child: ChildProcess | null = await begin()
  // A suite that ends without stop() must not leave the process behind.
  const killOnExit = () => child?.kill('SIGKILL')
  process.on('exit', killOnExit)
  const end = async (signal: NodeJS.Signals) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return void (child = null)
    const exited = new Promise((resolve) => child!.once('exit', resolve))
    child.kill(signal)
    await exited
    child = null
  }
  return {
    port,
    kill: () => end('SIGKILL'),
    async start() {
      if (child) throw new Error(`port ${port}: still running`)
      child = await begin()
    },
    async stop() {
      await end('SIGTERM')
      process.off('exit', killOnExit)
    },
  }
}

/** redis-server with an append-only file synced on every write, as a queue's Redis is run. */
export async function startRedis(dataDir: string): Promise<Dependency> {
  mkdirSync(dataDir, { recursive: true })
  const port = await freePort()
  return processDependency(port, async () => {
    const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dataDir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', ''], {
      stdio: 'ignore',
    })
    await waitForPort(port)
    return child
  })
}

/** s3rver with one bucket, its objects kept in `dataDir`. */
export async function startS3(dataDir: string, bucket: string): Promise<Dependency & { accessKey: string; secretKey: string }> {
  mkdirSync(dataDir, { recursive: true })
  const port = await freePort()
  const dependency = await processDependency(port, async () => {
    const child = spawnTypeScript(new URL('./s3rver-process.ts', import.meta.url), [dataDir, String(port), bucket])
    await new Promise<void>((resolve, reject) => {
      void readLines(child, (line) => line === 'READY' && resolve()).then(({ code, stderr }) => reject(new Error(`s3rver exited (${code}): ${stderr}`)))
    })
    return child
  })
  // s3rver's fixed credentials
  return { ...dependency, accessKey: 'S3RVER', secretKey: 'S3RVER' }
}

export interface LatencyProxy {
  port: number
  /** Added to every chunk in either direction from now on (order kept); 0 passes them at once. */
  setDelay(ms: number): void
  close(): Promise<void>
}

/**
 * A TCP proxy on a free loopback port to `targetPort`. A connection it cannot make upstream (the
 * target is down) is closed, as a load balancer in front of a dead server does.
 */
export async function startLatencyProxy(targetPort: number): Promise<LatencyProxy> {
  let delayMs = 0
  const sockets = new Set<Socket>()
  // Each direction is a queue of chunks released in order, each `delayMs` after it arrived.
  const relay = (from: Socket, to: Socket) => {
    let last = 0
    from.on('data', (chunk: Buffer) => {
      if (delayMs === 0 && last <= Date.now()) {
        to.write(chunk)
        return
      }
      const due = Math.max(Date.now() + delayMs, last)
      last = due
      setTimeout(() => !to.destroyed && to.write(chunk), due - Date.now())
    })
    from.on('end', () => setTimeout(() => to.end(), Math.max(0, last - Date.now())))
  }
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1')
    sockets.add(client).add(upstream)
    const closeBoth = () => {
      client.destroy()
      upstream.destroy()
      sockets.delete(client)
      sockets.delete(upstream)
    }
    client.on('error', closeBoth).on('close', closeBoth)
    upstream.on('error', closeBoth).on('close', closeBoth)
    relay(client, upstream)
    relay(upstream, client)
  })
  const port = await freePort()
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    port,
    setDelay: (ms) => (delayMs = ms),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
