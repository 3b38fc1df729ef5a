import { useNavigate } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { useSession } from '../app/app-context'
import { AssistantLauncher, AssistantPanel } from '../assistant/AssistantPanel'
import { useAssistant } from '../assistant/assistant-react'
import { useShellActions } from '../shell/shell-actions'
import type { FunctionSuggestion } from '../spreadsheet/SpreadsheetView'
import { SpreadsheetView } from '../spreadsheet/SpreadsheetView'
import { toast } from '../toasts/toast-store'
import { useWorkbookRoute } from './use-workbook-route'
import { WelcomeScreen } from './WelcomeScreen'
import { WelcomeTour } from './WelcomeTour'

/** Spec 1 §4 and §9: local flags, and the welcome notice about a second after load. */
export const TOUR_FLAG = 'hasSeenTour'
export const WELCOME_FLAG = 'welcomeShown'
const WELCOME_NOTICE_DELAY_MS = 1000

function readFlag(name: string): boolean {
  try {
    return localStorage.getItem(name) === 'true'
  } catch {
    return true
  }
}

function setFlag(name: string): void {
  try {
    localStorage.setItem(name, 'true')
  } catch {
    // without storage the notice may show again next time; nothing else depends on it
  }
}

/**
 * The spreadsheet screen, at `/` and at `/workbooks/$workbookId`: the workbook the address names, or
 * at `/` the active one (or the welcome screen for a user without a workbook).
 */
export function HomePage({ functions, workbookId, sheet }: { functions: readonly FunctionSuggestion[]; workbookId?: string; sheet?: string }) {
  const [session, controller] = useSession()
  const actions = useShellActions()
  const [tourOpen, setTourOpen] = useState(false)
  const navigate = useNavigate()
  const screen = useWorkbookRoute(workbookId, sheet)
  const showWelcome = screen === 'welcome'
  const [assistantState] = useAssistant()

  useEffect(() => {
    if (session.status !== 'ready') return
    if (!readFlag(TOUR_FLAG)) setTourOpen(true)
    if (controller.hasRealWorkbook || readFlag(WELCOME_FLAG)) return
    const timer = setTimeout(() => {
      setFlag(WELCOME_FLAG)
      toast({ title: 'Welcome to Finsheet', description: 'Upload an Excel file or start with a blank workbook to begin.', duration: 5000 })
    }, WELCOME_NOTICE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [session.status, session.workbooks, controller])

  return (
    <>
      <div className="home-layout">
        <div className="home-main">
          {showWelcome ? (
            <WelcomeScreen
              signedIn
              onUpload={actions.openImport}
              onStartBlank={() => void controller.startBlank()}
              onContinue={() => void controller.continueWithWorkbook()}
              onClearAll={actions.confirmClearAll}
            />
          ) : screen === 'resolving' ? (
            <div className="loading-screen" role="status">
              Loading workbook data...
            </div>
          ) : (
            <SpreadsheetView functions={functions} onClearEverything={actions.confirmClearAll} onGo={(path) => void navigate({ to: path })} />
          )}
        </div>
        {assistantState.open && <AssistantPanel />}
      </div>
      <AssistantLauncher />
      <WelcomeTour
        open={tourOpen}
        onDone={() => {
          setFlag(TOUR_FLAG)
          setTourOpen(false)
        }}
      />
    </>
  )
}
