import type { ReactNode } from 'react'

/**
 * The frame of the screens that later issues fill (templates, files, version control, insights,
 * visualizations, workflows): their title and what they are for.
 */
export function SectionPage({ title, description, children }: { title: string; description: string; children?: ReactNode }) {
  return (
    <div className="page">
      <header className="page-header">
        <h1>{title}</h1>
        <p>{description}</p>
      </header>
      {children}
    </div>
  )
}
