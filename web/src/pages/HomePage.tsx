import { useNavigate } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { useSession } from '../app/app-context'
import { AssistantLauncher, AssistantPanel } from '../assistant/AssistantPanel'
import { useAssistant } from '../assistant/assistant-react'
import { useShellActions } from '../shell/shell-actions'
import type { FunctionSuggestion } from '../spreadsheet/SpreadsheetView'
import { SpreadsheetView } from '../spreadsheet/SpreadsheetView'
import { toast } from '../toasts/toast-store'
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

export function HomePage({ functions }: { functions: readonly FunctionSuggestion[] }) {
  const [session, controller] = useSession()
  const actions = useShellActions()
  const [tourOpen, setTourOpen] = useState(false)
  const navigate = useNavigate()
  const [assistantState] = useAssistant()
  const showWelcome = session.status === 'ready' && !controller.hasRealWorkbook && !session.showGrid

  useEffect(() => {
    if (session.status !== 'ready') return
    if (!readFlag(TOUR_FLAG)) setTourOpen(true)
    if (controller.hasRealWorkbook || readFlag(WELCOME_FLAG)) return
    const timer = setTimeout(() => {
      setFlag(WELCOME_FLAG)
      toast({ title: 'Welcome to Finsheet', description: 'Upload an Excel file or start with a blank workbook to begin.', duration: 5000 })
    }, WELCOME_NOTICE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [session.status, controller])

  return (
    <>
      <div className="home-layout">
        <div className="home-main">
          {showWelcome ? (
            <WelcomeScreen
              signedIn
              onUpload={actions.openImport}
              onStartBlank={() => void controller.startBlank()}
              onContinue={() => controller.continueWithWorkbook()}
              onClearAll={actions.confirmClearAll}
            />
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
