import type { ReactNode } from 'react'

interface StatCardProps {
  icon: ReactNode
  label: string
  value: ReactNode
  tone?: 'success' | 'danger'
}

/** A figure with its icon and label, at the top of the Version Control and Insights screens. */
export function StatCard({ icon, label, value, tone }: StatCardProps) {
  return (
    <div className={`card stat-card ${tone ?? ''}`}>
      <span className="stat-icon" aria-hidden="true">
        {icon}
      </span>
      <div>
        <p className="stat-label">{label}</p>
        <p className="stat-value">{value}</p>
      </div>
    </div>
  )
}
