import { existsSync } from 'node:fs'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { ServiceApp } from '@finsheet/platform'

export const PLACEHOLDER_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Finsheet</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
</head>
<body>
<h1>Finsheet</h1>
<p>The API is running. The web app has not been built yet: once <code>web/</code> has a build, it is served here.</p>
<p>Health of every service: <a href="/health">/health</a>. API documents: <a href="/api/users/docs/json">/api/users/docs/json</a>, and likewise for spreadsheet, files, ai and vectordb.</p>
</body>
</html>
`

/** Whether a request looks like a browser navigating to a page of the single-page app. */
export function wantsPage(method: string, path: string, accept: string | undefined): boolean {
  return (method === 'GET' || method === 'HEAD') && !path.startsWith('/api/') && (accept ?? '').includes('text/html')
}

/**
 * Serves the built web app from `webRoot`, with index.html for client-side routes; without a
 * build, a placeholder page at /.
 */
export async function registerWeb(app: ServiceApp, webRoot: string | undefined): Promise<{ hasBuild: boolean }> {
  const hasBuild = webRoot !== undefined && existsSync(join(webRoot, 'index.html'))
  if (hasBuild) {
    await app.register(fastifyStatic, { root: webRoot, prefix: '/', wildcard: false, index: ['index.html'], cacheControl: true, maxAge: '1h' })
  } else {
    app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(PLACEHOLDER_PAGE))
  }
  return { hasBuild }
}
