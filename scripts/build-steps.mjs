// Build steps shared by `npm run build` and `npm start`.
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

export const repoRoot = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(import.meta.url)

function run(command, args, label) {
  const started = Date.now()
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit' })
  if (result.status !== 0) throw new Error(`${label} failed`)
  console.log(`${label} done in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}

/** Every workspace the services load, in dependency order. */
export const SERVER_WORKSPACES = [
  'packages/contracts',
  'packages/formula',
  'packages/workbook',
  'packages/platform',
  'services/users',
  'services/spreadsheet',
  'services/files',
  'services/ai',
  'services/vectordb',
  'services/gateway',
  'packages/standalone',
]

function listFiles(dir) {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? listFiles(path) : [path]
  })
}

const modifiedAt = (file) => (existsSync(file) ? statSync(file).mtimeMs : -1)

/** The file a source becomes in dist: its JavaScript, or the asset copied as it is. */
const outputOf = (src, dist, source) => join(dist, relative(src, source)).replace(/\.ts$/, '.js')

/**
 * Emits JavaScript for each workspace whose dist is missing or older than its sources. esbuild
 * strips the types without checking them (`npm run build` and CI type-check with tsc -b): a clean
 * clone starts in seconds instead of waiting for a full type-checked build.
 */
export async function transpileWorkspaces(workspaces = SERVER_WORKSPACES) {
  const started = Date.now()
  const esbuild = await import('esbuild')
  const built = []
  for (const workspace of workspaces) {
    const src = join(repoRoot, workspace, 'src')
    const dist = join(repoRoot, workspace, 'dist')
    const sources = listFiles(src).filter((file) => !/\.test\.ts$/.test(file))
    if (sources.length === 0) continue
    // Each source against its own output: tsc -b writes declarations into dist too, so the newest
    // file there says nothing about whether the JavaScript is current.
    const emitted = sources.filter((file) => !file.endsWith('.d.ts'))
    if (emitted.every((source) => modifiedAt(outputOf(src, dist, source)) >= modifiedAt(source))) continue
    const code = emitted.filter((file) => file.endsWith('.ts'))
    await esbuild.build({ entryPoints: code, outdir: dist, outbase: src, format: 'esm', platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' })
    for (const asset of emitted.filter((file) => !file.endsWith('.ts'))) {
      const target = join(dist, relative(src, asset))
      mkdirSync(dirname(target), { recursive: true })
      copyFileSync(asset, target)
    }
    built.push(workspace)
  }
  if (built.length > 0) console.log(`transpiled ${built.join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
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
