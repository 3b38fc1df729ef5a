#!/usr/bin/env node
// The `finsheet` command. It runs the compiled package (dist/); when dist/ is missing or older than the
// sources, as right after `npm install` in the repository, it builds the package first with `tsc -b`.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..')
const entry = join(packageDir, 'dist', 'cli', 'run.js')
// tsc -b touches its build info on every build, even when no output changed.
const buildInfo = join(packageDir, 'tsconfig.tsbuildinfo')
const sourceDirs = [join(packageDir, 'src'), join(packageDir, '..', 'formula', 'src')]

function newestSourceTime(dir) {
  if (!existsSync(dir)) return 0
  let newest = 0
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, item.name)
    if (item.isDirectory()) newest = Math.max(newest, newestSourceTime(path))
    else if (item.name.endsWith('.ts') && !item.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

const builtAt = existsSync(entry) ? statSync(existsSync(buildInfo) ? buildInfo : entry).mtimeMs : 0
if (builtAt === 0 || sourceDirs.some((dir) => newestSourceTime(dir) > builtAt)) {
  let tsc
  try {
    tsc = createRequire(join(packageDir, 'package.json')).resolve('typescript/bin/tsc')
  } catch {
    if (builtAt === 0) {
      process.stderr.write('finsheet: the package is not built and TypeScript is not installed to build it\n')
      process.exit(2)
    }
  }
  if (tsc) {
    // Build output goes to stderr so that stdout carries only the command's result.
    // A build info left behind by a deleted dist/ would make tsc -b think there is nothing to do.
    const force = builtAt === 0 ? ['--force'] : []
    const build = spawnSync(process.execPath, [tsc, '-b', ...force, join(packageDir, 'tsconfig.json')], { stdio: ['ignore', 2, 2] })
    if (build.status !== 0) {
      if (!existsSync(entry)) {
        process.stderr.write('finsheet: building the package failed\n')
        process.exit(2)
      }
      process.stderr.write('finsheet: the build reported errors; running the last compiled version\n')
    }
  }
}

await import(pathToFileURL(entry).href)
