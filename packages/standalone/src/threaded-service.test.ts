import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { vectordbThread } from './threaded-service.js'

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

async function health(url: string): Promise<number> {
  try {
    return (await fetch(`${url}/health`)).status
  } catch {
    return 0
  }
}

describe('the vectordb service in a thread of its own', () => {
  it('listens on its port from another thread, is started again when its thread stops, and closes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'finsheet-vectordb-thread-'))
    const service = vectordbThread({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, false)
    try {
      const port = await freePort()
      const url = `http://127.0.0.1:${port}`
      await service.listen({ port, host: '127.0.0.1' })
      expect(await health(url)).toBe(200)
      const first = service.thread!
      expect(first.threadId).toBeGreaterThan(0)

      await first.terminate()
      const deadline = Date.now() + 30_000
      while (Date.now() < deadline && (service.thread === first || (await health(url)) !== 200)) await new Promise((resolve) => setTimeout(resolve, 50))
      expect(service.thread).not.toBe(first)
      expect(await health(url)).toBe(200)

      await service.close()
      expect(await health(url)).toBe(0)
    } finally {
      await service.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})
