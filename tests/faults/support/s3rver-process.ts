/**
 * s3rver (an S3-compatible server) in a process of its own, so a fault suite can kill it as a blob
 * store would go down. Arguments: its data folder (kept), its port, its bucket. Prints `READY`.
 */
import S3rver from 's3rver'

const [directory, port, bucket] = process.argv.slice(2)
const server = new S3rver({ port: Number(port), address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] })
await server.run()
process.stdout.write('READY\n')
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)))
