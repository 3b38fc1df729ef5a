// Build steps shared by `npm run build` and `npm start`.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const repoRoot = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(import.meta.url)

function run(command, args, label) {
  const started = Date.now()
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit' })
  if (result.status !== 0) throw new Error(`${label} failed`)
  console.log(`${label} done in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}

/** TypeScript project references: incremental, so quick when nothing changed. */
export function buildTypeScript(project = '.') {
  run(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', project], `tsc -b ${project}`)
}

function newestChange(path) {
  if (!existsSync(path)) return 0
  const info = statSync(path)
  if (!info.isDirectory()) return info.mtimeMs
  let newest = info.mtimeMs
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue
    newest = Math.max(newest, newestChange(join(path, entry)))
  }
  return newest
}

const webDir = join(repoRoot, 'web')
export const webDist = join(webDir, 'dist')

/** Whether web/ has an app to build yet (a Vite entry page and config). */
export function webHasBuild() {
  return existsSync(join(webDir, 'index.html')) && ['vite.config.ts', 'vite.config.js', 'vite.config.mjs'].some((name) => existsSync(join(webDir, name)))
}

/** Builds the web app when its sources are newer than web/dist. */
export function buildWeb({ force = false } = {}) {
  if (!webHasBuild()) return false
  const built = existsSync(join(webDist, 'index.html')) ? statSync(join(webDist, 'index.html')).mtimeMs : 0
  const sources = Math.max(
    newestChange(join(webDir, 'src')),
    newestChange(join(webDir, 'public')),
    ...['index.html', 'package.json', 'vite.config.ts', 'vite.config.js', 'vite.config.mjs', 'tsconfig.json'].map((name) => newestChange(join(webDir, name))),
  )
  if (!force && built >= sources) return false
  // vite's exports map hides bin/, so find the package and take its bin from there
  const vite = join(dirname(require.resolve('vite/package.json', { paths: [webDir] })), 'bin', 'vite.js')
  run(process.execPath, [vite, 'build', webDir], 'web build (vite)')
  return true
}
