#!/usr/bin/env node
// The test suite starts real servers and a real browser: redis-server for the BullMQ adapter,
// Chromium for the browser tests, LibreOffice to open exported xlsx files. On a fresh machine this
// installs what is missing with apt-get when running as root, or stops at once naming the packages.
import { execFileSync, spawnSync } from 'node:child_process'

const required = [
  { command: 'redis-server', debianPackage: 'redis-server' },
  { command: 'chromium', debianPackage: 'chromium' },
  { command: 'soffice', debianPackage: 'libreoffice-calc-nogui' },
]

const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0
const missing = required.filter(({ command }) => !onPath(command))

if (missing.length > 0) {
  const packages = missing.map((m) => m.debianPackage)
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  if (!isRoot) {
    console.error(`The tests need these system packages: ${packages.join(' ')}\nInstall them with: sudo apt-get install -y ${packages.join(' ')}`)
    process.exit(1)
  }
  console.log(`Installing system packages the tests need: ${packages.join(' ')}`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { stdio: 'inherit', env })
  const stillMissing = missing.filter(({ command }) => !onPath(command))
  if (stillMissing.length > 0) {
    console.error(`Could not install: ${stillMissing.map((m) => m.debianPackage).join(' ')}`)
    process.exit(1)
  }
}
