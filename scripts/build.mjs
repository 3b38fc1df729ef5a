#!/usr/bin/env node
// npm run build: every TypeScript project, then the web app.
import { buildTypeScript, buildWeb } from './build-steps.mjs'

try {
  buildTypeScript('.')
  buildWeb({ force: process.argv.includes('--force') })
} catch (error) {
  console.error(error.message)
  process.exit(1)
}
