#!/usr/bin/env node
// The web app is bundled by Vite, not emitted by tsc, so it is typechecked on its own after `tsc -b`.
import { existsSync } from 'node:fs'
import { execFileSync } from 'node:child_process'

if (existsSync('web/tsconfig.json')) {
  execFileSync('npx', ['tsc', '-p', 'web/tsconfig.json', '--noEmit'], { stdio: 'inherit' })
}
