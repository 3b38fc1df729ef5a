import { useState } from 'react'

/**
 * Runs `start` in the render in which `open` turns true, so that a dialog opens with its fields already
 * filled from where the user was: from an effect they would show empty for a frame, and what was typed
 * in that frame would be overwritten. `start` sets the dialog's own state (React's pattern for state
 * that follows a prop: the render is made again at once, before anything is shown).
 */
export function useOpening(open: boolean, start: () => void): void {
  const [wasOpen, setWasOpen] = useState(false)
  if (open !== wasOpen) {
    setWasOpen(open)
    if (open) start()
  }
}
