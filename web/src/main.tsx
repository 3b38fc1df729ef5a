import { functionCatalogue } from '@finsheet/formula'
import { RouterProvider } from '@tanstack/react-router'
import { startTransition, StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { AppProviders } from './app/app-context'
import { AssistantController } from './assistant/assistant-controller'
import { AssistantProvider } from './assistant/assistant-react'
import { api, authService } from './app/services'
import { AuthProvider } from './auth/auth-context'
import { createAppRouter } from './router'
import { SessionController } from './session/session-controller'
import { Workspace } from './spreadsheet/workspace'
import { toast } from './toasts/toast-store'
import './styles/app.css'

const functions = functionCatalogue()
const workspace = new Workspace()
const session = new SessionController(api, workspace)
const assistant = new AssistantController({
  api,
  stream: { getToken: () => authService.getToken(), onUnauthorized: () => authService.expire() },
  workspace,
  workbooks: session,
  notify: toast,
})
assistant.start()
const router = createAppRouter(functions)
// A saved sign-in is read and the user's session asked for before the first render, not in effects
// after it: the session's round trips then overlap the app's first render instead of following it.
authService.start()
if (authService.current.status === 'signed-in') void session.start(authService.current.user)

// The first render yields to the browser every few milliseconds (a transition), so the session's
// answers are taken as they arrive rather than after the whole first screen has rendered.
const root = createRoot(document.getElementById('root')!)
startTransition(() =>
  root.render(
    <StrictMode>
      <AuthProvider service={authService}>
        <AppProviders session={session} workspace={workspace}>
          <AssistantProvider assistant={assistant}>
            <RouterProvider router={router} />
          </AssistantProvider>
        </AppProviders>
      </AuthProvider>
    </StrictMode>,
  ),
)
