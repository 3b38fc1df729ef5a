import type { ReactNode } from 'react'
import { useState } from 'react'

/**
 * Renders a dialog only from the first time it opens: one the user never opens costs the first screen
 * nothing (its code is not even compiled then), and one opened before stays mounted when closed, so
 * it keeps what was typed in it (Find and Replace remembers what was searched), as Excel's do. The
 * dialog is given `open` to show or hide itself.
 */
export function OpenedOnce({ open, children }: { open: boolean; children: (open: boolean) => ReactNode }) {
  const [opened, setOpened] = useState(open)
  // state adjusted while rendering (React's pattern for state that follows a prop): no extra commit
  if (open && !opened) setOpened(true)
  return opened || open ? children(open) : null
}
