import { functionCatalogue } from '@finsheet/formula'
import { RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { AppProviders } from './app/app-context'
import { api, authService } from './app/services'
import { AuthProvider } from './auth/auth-context'
import { createAppRouter } from './router'
import { SessionController } from './session/session-controller'
import { Workspace } from './spreadsheet/workspace'
import './styles/app.css'

const functions = functionCatalogue()
const workspace = new Workspace()
const session = new SessionController(api, workspace)
const router = createAppRouter(functions)

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AuthProvider service={authService}>
      <AppProviders session={session} workspace={workspace}>
        <RouterProvider router={router} />
      </AppProviders>
    </AuthProvider>
  </StrictMode>,
)
