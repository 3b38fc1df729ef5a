import { Bell, LogOut, Settings, User } from 'lucide-react'
import { useSyncExternalStore } from 'react'
import type { CurrentUser } from '../auth/auth-service'
import { toasts, type PastNotification } from '../toasts/toast-store'
import { Menu } from '../ui/Menu'
import { Avatar } from './Avatar'

interface TopBarProps {
  user: CurrentUser
  workbookTitle: string
  saveState?: string
  onSignOut(): void
  onProfile(): void
}

const subscribeToNotifications = (listener: () => void) => toasts.subscribe(listener)
const timeText = (at: number) => new Date(at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })

/** What the app told the user this session, newest first: a toast lasts seconds, this list stays. */
function NotificationList({ notifications }: { notifications: readonly PastNotification[] }) {
  if (notifications.length === 0) return <p className="menu-note">No notifications yet.</p>
  return (
    <ul className="notification-list" aria-label="Notification history">
      {notifications.map((notification) => (
        <li key={notification.id} className={`notification notification-${notification.variant}`}>
          <strong>{notification.title}</strong>
          {notification.description && <span>{notification.description}</span>}
          <time dateTime={new Date(notification.at).toISOString()}>{timeText(notification.at)}</time>
        </li>
      ))}
    </ul>
  )
}

/** Brand, the active workbook's name, notifications and the user menu. */
export function TopBar({ user, workbookTitle, saveState, onSignOut, onProfile }: TopBarProps) {
  const name = user.displayName ?? user.email ?? null
  const notifications = useSyncExternalStore(subscribeToNotifications, () => toasts.history)
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
          entries={[{ custom: () => <NotificationList notifications={notifications} /> }]}
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
