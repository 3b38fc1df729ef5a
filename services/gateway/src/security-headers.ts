import helmet from '@fastify/helmet'
import type { ServiceApp } from '@finsheet/platform'

export interface ContentSecurityOptions {
  /** Firebase Authentication, when the web app signs in with its SDK. */
  firebase?: { projectId: string; emulatorHost?: string }
}

type Directives = Record<string, string[]>

/**
 * The Content Security Policy of the web app and the API. Scripts come only from the app's own
 * files (its build has no inline script), so injected markup cannot run code; no page may frame the
 * app; plugins and <base> tricks are off. Data and blob images are the favicon and chart exports.
 * With Firebase, the SDK's endpoints are allowed, and Google's script and frames for the popup.
 */
export function contentSecurityDirectives(options: ContentSecurityOptions = {}): Directives {
  const directives: Directives = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'worker-src': ["'self'", 'blob:'],
    'frame-src': ["'none'"],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
  }
  const firebase = options.firebase
  if (firebase) {
    const authDomain = `https://${firebase.projectId}.firebaseapp.com`
    directives['connect-src'].push('https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com')
    directives['script-src'].push('https://apis.google.com')
    directives['frame-src'] = [authDomain, 'https://apis.google.com']
    if (firebase.emulatorHost) {
      directives['connect-src'].push(`http://${firebase.emulatorHost}`)
      directives['frame-src'].push(`http://${firebase.emulatorHost}`)
    }
  }
  return directives
}

/** The policy as the header carries it, for servers that send it without helmet (nginx). */
export function contentSecurityPolicy(options: ContentSecurityOptions = {}): string {
  return Object.entries(contentSecurityDirectives(options))
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ')
}

/** The other security headers, as name and value: what nginx must send beside the policy. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  // The Google sign-in popup reports back to its opener.
  'Cross-Origin-Opener-Policy': 'same-origin-allow-popups',
  'Cross-Origin-Resource-Policy': 'same-origin',
}

/** Security headers on every answer of the gateway: its pages, its assets and the proxied API. */
export async function registerSecurityHeaders(app: ServiceApp, options: ContentSecurityOptions = {}): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityDirectives(options) },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
  })
}
