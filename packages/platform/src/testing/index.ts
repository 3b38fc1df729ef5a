// Helpers for tests across the workspace: throwaway servers on free loopback ports.
export { freePort, waitForPort, startRedisServer, startS3rver } from './servers.js'
export type { RunningServer } from './servers.js'
export { startFirebaseAuthEmulator } from './firebase-emulator.js'
export type { FirebaseAuthEmulator } from './firebase-emulator.js'
export { dockerAvailable, NO_DOCKER_REASON } from './docker.js'
export { spawnTypeScript, readLines } from './child-process.js'
