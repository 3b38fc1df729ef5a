import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers'
import { MongoClient } from 'mongodb'

/** MongoDB as a single-node replica set, so transactions work as in the compose stack. */
export async function startMongoReplicaSet(): Promise<{ url: string; stop(): Promise<void> }> {
  const container: StartedTestContainer = await new GenericContainer('mongo:7')
    .withCommand(['--replSet', 'rs0', '--bind_ip_all'])
    .withExposedPorts(27017)
    .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
    .start()
  await container.exec(['mongosh', '--quiet', '--eval', 'rs.initiate({_id: "rs0", members: [{_id: 0, host: "localhost:27017"}]})'])
  const url = `mongodb://${container.getHost()}:${container.getMappedPort(27017)}/?directConnection=true`
  const client = new MongoClient(url)
  try {
    for (let attempt = 0; attempt < 60; attempt++) {
      const hello = await client.db('admin').command({ hello: 1 })
      if (hello.isWritablePrimary) break
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
  } finally {
    await client.close()
  }
  return { url, stop: async () => void (await container.stop()) }
}

export async function startQdrant(): Promise<{ url: string; stop(): Promise<void> }> {
  const container = await new GenericContainer('qdrant/qdrant:v1.12.4')
    .withExposedPorts(6333)
    .withWaitStrategy(Wait.forHttp('/readyz', 6333))
    .start()
  return { url: `http://${container.getHost()}:${container.getMappedPort(6333)}`, stop: async () => void (await container.stop()) }
}
