#!/usr/bin/env node
// npm start: builds what is not built, then runs every service in this one process on loopback
// ports behind the gateway on http://localhost:8080 (PORT to change), with the embedded adapters
// and data under ./data (DATA_DIR to move it).
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { buildWeb, repoRoot, transpileWorkspaces, webDist } from './build-steps.mjs'

await transpileWorkspaces()
try {
  buildWeb()
} catch (error) {
  console.error(`${error.message}: serving the API without the web app`)
}

const { startAllInOne } = await import(pathToFileURL(join(repoRoot, 'packages/standalone/dist/index.js')).href)
const stack = await startAllInOne({
  port: Number(process.env.PORT ?? 8080),
  dataDir: process.env.DATA_DIR ?? join(repoRoot, 'data'),
  webRoot: process.env.WEB_ROOT ?? webDist,
})
console.log(`Finsheet is running on http://localhost:${stack.port} (data in ${stack.dataDir})`)

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    if (stopping) return
    stopping = true
    console.log('Stopping Finsheet…')
    const force = setTimeout(() => process.exit(1), 10_000)
    force.unref()
    stack.close().then(() => process.exit(0), () => process.exit(1))
  })
}
