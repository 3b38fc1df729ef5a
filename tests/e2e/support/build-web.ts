import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const WEB_ROOT = resolve(fileURLToPath(new URL('../../../web', import.meta.url)))

/**
 * Builds the web app with Vite into a fresh temporary folder, together with the grid harness page
 * the grid tests and the benchmark open. Returns the folder, ready to be served. `env` gives the
 * build its VITE_ settings (the Firebase project, for one), as a .env file would.
 */
export async function buildWebForTests(env: Record<string, string> = {}): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'finsheet-web-'))
  const envDir = mkdtempSync(join(tmpdir(), 'finsheet-web-env-'))
  // the build lives as long as the test process that serves it
  process.once('exit', () => {
    rmSync(outDir, { recursive: true, force: true })
    rmSync(envDir, { recursive: true, force: true })
  })
  writeFileSync(join(envDir, '.env'), Object.entries(env).map(([name, value]) => `${name}=${value}`).join('\n') + '\n')
  const { build } = await import('vite')
  await build({
    root: WEB_ROOT,
    configFile: join(WEB_ROOT, 'vite.config.ts'),
    envDir,
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
