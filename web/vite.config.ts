import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import type { Alias } from 'vite'
import { defineConfig } from 'vite'

/**
 * Workspace packages (the formula engine, the contracts) export their TypeScript sources under the
 * "development" condition; the app bundles those sources in every mode, so no package build is needed.
 * Only theirs: the condition is not set for every package, or the production bundle would take other
 * packages' development builds too (micromark's, with its assertions and debug logging).
 */
function workspaceSources(): Alias[] {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
  const aliases: Alias[] = []
  for (const folder of ['packages', 'services']) {
    for (const name of readdirSync(join(root, folder))) {
      const manifestPath = join(root, folder, name, 'package.json')
      if (!existsSync(manifestPath)) continue
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { name: string; exports?: Record<string, { development?: string }> }
      for (const [subpath, targets] of Object.entries(manifest.exports ?? {})) {
        if (!targets.development) continue
        const specifier = manifest.name + subpath.slice(1)
        aliases.push({ find: new RegExp(`^${specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`), replacement: join(root, folder, name, targets.development) })
      }
    }
  }
  return aliases
}

// The services' Firebase settings (README) switch the web app to the Firebase SDK as well. Only
// these public values are passed into the bundle, never other FIREBASE_ variables.
const firebaseFromServices: Record<string, string | undefined> = {
  VITE_FIREBASE_API_KEY: process.env.FIREBASE_API_KEY,
  VITE_FIREBASE_PROJECT_ID: process.env.FIREBASE_PROJECT_ID,
  VITE_FIREBASE_AUTH_EMULATOR_URL: process.env.FIREBASE_AUTH_EMULATOR_HOST ? `http://${process.env.FIREBASE_AUTH_EMULATOR_HOST}` : undefined,
}
const define = Object.fromEntries(
  Object.entries(firebaseFromServices)
    .filter(([name, value]) => value !== undefined && process.env[name] === undefined)
    .map(([name, value]) => [`import.meta.env.${name}`, JSON.stringify(value)]),
)

export default defineConfig({
  plugins: [react()],
  resolve: { alias: workspaceSources() },
  define,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        // The formula engine and the workbook model (about half of the code the spreadsheet runs
        // before its first paint) go in a chunk of their own, so the browser parses the two halves
        // on two threads at once rather than one after the other.
        codeSplitting: { groups: [{ name: 'engine', test: /[\\/]packages[\\/](formula|workbook)[\\/]/ }] },
      },
    },
  },
  server: {
    // `npm run dev -w web` talks to the gateway of `npm start`
    proxy: { '/api': { target: process.env.FINSHEET_GATEWAY_URL ?? 'http://localhost:8080', changeOrigin: true } },
  },
})
