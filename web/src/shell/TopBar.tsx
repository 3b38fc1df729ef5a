import { Bell, LogOut, Settings, User } from 'lucide-react'
import type { CurrentUser } from '../auth/auth-service'
import { Menu } from '../ui/Menu'
import { Avatar } from './Avatar'

interface TopBarProps {
  user: CurrentUser
  workbookTitle: string
  saveState?: string
  onSignOut(): void
  onProfile(): void
}

/** Brand, the active workbook's name, notifications and the user menu. */
export function TopBar({ user, workbookTitle, saveState, onSignOut, onProfile }: TopBarProps) {
  const name = user.displayName ?? user.email ?? null
  return (
    <header className="top-bar">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          F
        </span>
        <span className="brand-name">Finsheet</span>
      </div>
      <div className="workbook-title">
        <span data-testid="workbook-title">{workbookTitle}</span>
        {saveState && <span className="save-state">{saveState}</span>}
      </div>
      <div className="top-bar-actions">
        <Menu
          label={<Bell size={18} aria-hidden="true" />}
          ariaLabel="Notifications"
          title="Notifications"
          buttonClassName="icon-button"
          align="right"
          entries={[{ custom: () => <p className="menu-note">Coming Soon</p> }]}
        />
        <Menu
          label={<Avatar photoURL={user.photoURL} name={user.displayName ?? user.email} />}
          ariaLabel="User menu"
          buttonClassName="avatar-button"
          align="right"
          entries={[
            {
              custom: () => (
                <div className="user-card">
                  <strong>{name ?? 'User'}</strong>
                  {user.email && <span>{user.email}</span>}
                </div>
              ),
            },
            'separator',
            { label: 'Profile', icon: <User size={16} />, onSelect: onProfile },
            { label: 'Settings', icon: <Settings size={16} />, onSelect: onProfile },
            'separator',
            { label: 'Sign out', icon: <LogOut size={16} />, onSelect: onSignOut },
          ]}
        />
      </div>
    </header>
  )
}
