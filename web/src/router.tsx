import { createRootRoute, createRoute, createRouter, Outlet } from '@tanstack/react-router'
import { FilesPage } from './pages/FilesPage'
import { InsightsPage } from './pages/InsightsPage'
import { LoginPage } from './pages/LoginPage'
import { ModelsPage } from './pages/ModelsPage'
import { NotFoundPage } from './pages/NotFoundPage'
import { RegisterPage } from './pages/RegisterPage'
import { HomePage } from './pages/HomePage'
import { ShortcutsPage } from './pages/ShortcutsPage'
import { VersionControlPage } from './pages/VersionControlPage'
import { VisualizationsPage } from './pages/VisualizationsPage'
import { WorkbooksPage } from './pages/WorkbooksPage'
import { WorkflowsPage } from './pages/WorkflowsPage'
import { GuardedShell } from './shell/AppShell'
import { Toaster } from './toasts/Toaster'
import type { FunctionSuggestion } from './spreadsheet/SpreadsheetView'

/** A workbook's address may name the sheet shown: `/workbooks/abc?sheet=Revenue`. */
export interface WorkbookSearch {
  sheet?: string
}

function workbookSearch(search: Record<string, unknown>): WorkbookSearch {
  return typeof search.sheet === 'string' && search.sheet !== '' ? { sheet: search.sheet } : {}
}

/**
 * The route tree of spec 1 §2, built in code, with the workbooks list and each workbook's own address
 * (`/workbooks/$workbookId`), which a reload, a bookmark or a second tab opens again.
 */
export function createAppRouter(functions: readonly FunctionSuggestion[]) {
  const rootRoute = createRootRoute({
    component: () => (
      <>
        <Outlet />
        <Toaster />
      </>
    ),
    notFoundComponent: NotFoundPage,
  })

  const loginRoute = createRoute({ getParentRoute: () => rootRoute, path: '/login', component: LoginPage })
  const registerRoute = createRoute({ getParentRoute: () => rootRoute, path: '/register', component: RegisterPage })

  // every other screen needs a signed-in user and sits in the shell
  const appRoute = createRoute({ getParentRoute: () => rootRoute, id: 'app', component: GuardedShell })
  const child = { getParentRoute: () => appRoute }
  const workbookRoute = createRoute({
    ...child,
    path: '/workbooks/$workbookId',
    validateSearch: workbookSearch,
    component: function WorkbookScreen() {
      const { workbookId } = workbookRoute.useParams()
      const { sheet } = workbookRoute.useSearch()
      return <HomePage functions={functions} workbookId={workbookId} sheet={sheet} />
    },
  })
  const routeTree = rootRoute.addChildren([
    loginRoute,
    registerRoute,
    appRoute.addChildren([
      createRoute({ ...child, path: '/', component: () => <HomePage functions={functions} /> }),
      createRoute({ ...child, path: '/workbooks', component: WorkbooksPage }),
      workbookRoute,
      createRoute({ ...child, path: '/models', component: ModelsPage }),
      createRoute({ ...child, path: '/files', component: FilesPage }),
      createRoute({ ...child, path: '/workflows', component: WorkflowsPage }),
      createRoute({ ...child, path: '/visualizations', component: VisualizationsPage }),
      createRoute({ ...child, path: '/shortcuts', component: ShortcutsPage }),
      createRoute({ ...child, path: '/insights', component: InsightsPage }),
      createRoute({ ...child, path: '/version-control', component: VersionControlPage }),
    ]),
  ])

  return createRouter({ routeTree, notFoundMode: 'root', defaultPreload: false })
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>
  }
}
