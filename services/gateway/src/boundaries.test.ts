import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const gatewayRoot = fileURLToPath(new URL('..', import.meta.url))
const SERVICE_PACKAGE = /@finsheet\/(users|spreadsheet|files|ai|vectordb)-service|services\/(users|spreadsheet|files|ai|vectordb)\b/

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []))
}

describe('the gateway package', () => {
  it('depends on no service package, so its image carries none', () => {
    const manifest = JSON.parse(readFileSync(join(gatewayRoot, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>
    const dependencies = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies })
    expect(dependencies.filter((name) => SERVICE_PACKAGE.test(name))).toEqual([])
    const references = (JSON.parse(readFileSync(join(gatewayRoot, 'tsconfig.json'), 'utf8')) as { references?: Array<{ path: string }> }).references ?? []
    expect(references.filter(({ path }) => SERVICE_PACKAGE.test(path))).toEqual([])
  })

  it('imports no service package from any of its sources, tests included', () => {
    const offenders = sources(join(gatewayRoot, 'src')).filter((file) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g)].some(([, specifier]) => SERVICE_PACKAGE.test(specifier)),
    )
    expect(offenders).toEqual([])
    // The check itself finds what it looks for.
    expect(SERVICE_PACKAGE.test('@finsheet/users-service')).toBe(true)
    expect(SERVICE_PACKAGE.test('../../services/files/src/app.js')).toBe(true)
  })
})
