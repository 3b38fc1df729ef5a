/**
 * Starts a worker thread on a module of this repository: its compiled JavaScript beside the caller,
 * or, when the caller itself runs from TypeScript sources (tests, `--conditions=development`), the
 * TypeScript source through tsx, which a worker thread does not inherit from its parent's loader.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker, type WorkerOptions } from 'node:worker_threads'

/**
 * `moduleUrl` is the worker's module without extension, relative to the caller's
 * (`new URL('./xlsx-worker', import.meta.url)`); `.js` or `.ts` is chosen by how the caller runs.
 */
export function startModuleWorker(moduleUrl: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const fromSources = import.meta.url.endsWith('.ts')
  if (!fromSources) return new Worker(new URL(`${moduleUrl.href}.js`), options)
  // The ESM entry of tsx's API, as its exports map names it (require.resolve would give the CommonJS one).
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json')
  const entry = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api'].import.default
  const tsx = pathToFileURL(join(dirname(manifest), entry)).href
  const source = `${moduleUrl.href}.ts`
  return new Worker(`import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}) })`, {
    ...options,
    eval: true,
    execArgv: [...(options.execArgv ?? []), '--conditions=development'],
  })
}
