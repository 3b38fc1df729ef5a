import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import { ensureSigningKeys, LocalTokenIssuer, type ServiceApp } from '@finsheet/platform'
import type { FileJobResponse } from '@finsheet/contracts'
import { multipart } from './make-files.js'

export interface TestUsers {
  dataDir: string
  tokenFor(uid: string): Promise<string>
  cleanup(): void
}

/** A DATA_DIR with the users service's signing keys, and tokens for any user id. */
export async function testUsers(prefix = 'finsheet-files-'): Promise<TestUsers> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix))
  const keys = await ensureSigningKeys(dataDir)
  const issuer = new LocalTokenIssuer(keys, { issuer: 'finsheet-users', audience: 'finsheet', sessionTtlSeconds: 3600 })
  return {
    dataDir,
    tokenFor: (uid) => issuer.issueSessionToken({ uid, email: `${uid}@example.com`, name: uid, anonymous: false }),
    cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
  }
}

export function client(app: ServiceApp, token: string) {
  const auth = { authorization: `Bearer ${token}` }
  return {
    get: (url: string) => app.inject({ method: 'GET', url, headers: auth }),
    delete: (url: string) => app.inject({ method: 'DELETE', url, headers: auth }),
    post: (url: string, payload?: object) => app.inject({ method: 'POST', url, headers: auth, payload }),
    async upload(url: string, file: { name: string; bytes: Buffer; type?: string; field?: string }, fields: Record<string, string> = {}) {
      const body = await multipart(fields, file)
      return app.inject({ method: 'POST', url, headers: { ...auth, ...body.headers }, payload: body.payload })
    },
    /** Polls GET /jobs/{id} until the job has ended, and returns its last answer. */
    async job(id: string, timeoutMs = 60_000): Promise<FileJobResponse> {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const response = await app.inject({ method: 'GET', url: `/jobs/${encodeURIComponent(id)}`, headers: auth })
        expect(response.statusCode).toBe(200)
        const job = response.json() as FileJobResponse
        if (job.state === 'completed' || job.state === 'failed') return job
        if (Date.now() > deadline) throw new Error(`job ${id} still ${job.state} at ${job.progress}%`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
  }
}
