// Lets the benchmarks import the workspace packages' TypeScript sources (resolved through the
// "development" export condition) without a build step.
import { register } from 'tsx/esm/api'

register()
