import { FilePlus2, FileUp, FolderOpen, RotateCcw } from 'lucide-react'

interface WelcomeScreenProps {
  signedIn: boolean
  onUpload(): void
  onStartBlank(): void
  onContinue(): void
  onClearAll(): void
}

/** Spec 1 §2 Home without a real workbook. */
export function WelcomeScreen({ signedIn, onUpload, onStartBlank, onContinue, onClearAll }: WelcomeScreenProps) {
  return (
    <div className="welcome">
      <div className="welcome-card">
        <span className="brand-mark large" aria-hidden="true">
          F
        </span>
        <h1>Welcome to Finsheet</h1>
        <p className="welcome-lead">Build financial models in a spreadsheet that speaks Excel, with an AI assistant at your side.</p>
        <div className="welcome-actions">
          <button type="button" className="welcome-action" onClick={onUpload}>
            <FileUp size={22} aria-hidden="true" />
            <span className="welcome-action-title">Upload Excel File</span>
            <span className="welcome-action-text">.xlsx, .xls, .csv or .pdf</span>
          </button>
          <button type="button" className="welcome-action" onClick={onStartBlank}>
            <FilePlus2 size={22} aria-hidden="true" />
            <span className="welcome-action-title">Start Blank</span>
            <span className="welcome-action-text">An empty workbook with Sheet1</span>
          </button>
          {signedIn && (
            <button type="button" className="welcome-action" onClick={onContinue}>
              <FolderOpen size={22} aria-hidden="true" />
              <span className="welcome-action-title">Continue with existing workbook</span>
              <span className="welcome-action-text">Pick up where you left off</span>
            </button>
          )}
        </div>
        <p className="welcome-help">
          Having issues?{' '}
          <button type="button" className="link-button" onClick={onClearAll}>
            <RotateCcw size={14} aria-hidden="true" /> Clear All Data &amp; Refresh
          </button>
        </p>
      </div>
    </div>
  )
}
