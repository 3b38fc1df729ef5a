import react from '@vitejs/plugin-react'
import { defaultClientConditions, defineConfig } from 'vite'

// Workspace packages (the formula engine, the contracts) export their TypeScript sources under the
// "development" condition; the app bundles those sources in every mode so no package build is needed.
const conditions = ['development', ...defaultClientConditions.filter((c) => c !== 'development|production')]

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
  resolve: { conditions },
  define,
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1500 },
  server: {
    // `npm run dev -w web` talks to the gateway of `npm start`
    proxy: { '/api': { target: process.env.FINSHEET_GATEWAY_URL ?? 'http://localhost:8080', changeOrigin: true } },
  },
})
