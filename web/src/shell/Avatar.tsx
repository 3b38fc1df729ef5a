import { useEffect, useState } from 'react'
import { initials } from './user-display'

export type AvatarImageState = 'idle' | 'loading' | 'loaded' | 'error'

/**
 * Spec 1 §2: the photo when it loads, otherwise the initials of up to 2 words of the name, or 'U'.
 * The image goes idle → loading → loaded or error, and the fallback shows until it has loaded.
 */
export function Avatar({ photoURL, name, size = 32 }: { photoURL: string | null; name: string | null; size?: number }) {
  const [status, setStatus] = useState<AvatarImageState>(photoURL ? 'loading' : 'idle')
  useEffect(() => setStatus(photoURL ? 'loading' : 'idle'), [photoURL])
  return (
    <span className="avatar" style={{ width: size, height: size }} data-state={status}>
      {photoURL && status !== 'error' && (
        <img
          src={photoURL}
          alt=""
          referrerPolicy="no-referrer"
          onLoad={() => setStatus('loaded')}
          onError={() => setStatus('error')}
          style={{ display: status === 'loaded' ? 'block' : 'none' }}
        />
      )}
      {status !== 'loaded' && (
        <span className="avatar-fallback" aria-hidden="true">
          {initials(name)}
        </span>
      )}
    </span>
  )
}
