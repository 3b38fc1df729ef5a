import react from '@vitejs/plugin-react'
import { defaultClientConditions, defineConfig } from 'vite'

// Workspace packages (the formula engine, the contracts) export their TypeScript sources under the
// "development" condition; the app bundles those sources in every mode so no package build is needed.
const conditions = ['development', ...defaultClientConditions.filter((c) => c !== 'development|production')]

export default defineConfig({
  plugins: [react()],
  resolve: { conditions },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1500 },
  server: {
    // `npm run dev -w web` talks to the gateway of `npm start`
    proxy: { '/api': { target: process.env.FINSHEET_GATEWAY_URL ?? 'http://localhost:8080', changeOrigin: true } },
  },
})
