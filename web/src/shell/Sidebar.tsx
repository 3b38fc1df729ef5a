import { Link, useRouterState } from '@tanstack/react-router'
import { isSpreadsheetPath, NAVIGATION } from './navigation-items'

/** The side bar: eight icons with tooltips, the current route highlighted. */
export function Sidebar() {
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  return (
    <nav className="sidebar" aria-label="Main">
      <ul>
        {NAVIGATION.map((item) => {
          const current = item.path === '/' ? isSpreadsheetPath(pathname) : pathname === item.path
          const Icon = item.icon
          return (
            <li key={item.path}>
              <Link
                to={item.path}
                className={`sidebar-link ${current ? 'active' : ''}`}
                aria-label={item.label}
                aria-current={current ? 'page' : undefined}
                data-tooltip={item.label}
              >
                <Icon size={20} strokeWidth={1.8} aria-hidden="true" />
              </Link>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}
