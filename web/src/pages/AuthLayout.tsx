import type { ReactNode } from 'react'

/** The sign-in and registration frame: no side bar, no menu bar. */
export function AuthLayout({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <main className="auth-page">
      <section className="auth-hero" aria-hidden="true">
        <div className="brand large">
          <span className="brand-mark">F</span>
          <span className="brand-name">Finsheet</span>
        </div>
        <p className="auth-tagline">AI-driven spreadsheets for financial modelling</p>
        <ul className="auth-points">
          <li>DCF, LBO and three-statement models in minutes</li>
          <li>An Excel-compatible formula engine</li>
          <li>Import your workbooks and keep every formula</li>
        </ul>
      </section>
      <section className="auth-card">
        <h1>{title}</h1>
        <p className="auth-subtitle">{subtitle}</p>
        {children}
      </section>
    </main>
  )
}
