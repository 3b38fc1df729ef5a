import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const WEB_ROOT = resolve(fileURLToPath(new URL('../../../web', import.meta.url)))

/**
 * Builds the web app with Vite into a fresh temporary folder, together with the grid harness page
 * the grid tests and the benchmark open. Returns the folder, ready to be served.
 */
export async function buildWebForTests(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'finsheet-web-'))
  const { build } = await import('vite')
  await build({
    root: WEB_ROOT,
    configFile: join(WEB_ROOT, 'vite.config.ts'),
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      sourcemap: false,
      rollupOptions: { input: { index: join(WEB_ROOT, 'index.html'), harness: join(WEB_ROOT, 'grid-harness.html') } },
    },
  })
  return outDir
}
