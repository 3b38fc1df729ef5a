import { Compile } from 'typebox/compile'
import { VectorSearchCellsResponse, type CellMatch, type VectorSearchCellsBody } from '@finsheet/contracts'
import { AppError } from '@finsheet/platform'

const answerCheck = Compile(VectorSearchCellsResponse)

export interface VectorSearchClient {
  /** Cells by meaning, as the user whose token is given; null when the workbook is not theirs. */
  searchCells(token: string, body: VectorSearchCellsBody): Promise<CellMatch[] | null>
}

const unavailable = () => new AppError('VECTOR_SEARCH_UNAVAILABLE', 503, 'The vector search is unavailable; search without semantic to match text')

/** The vectordb service's POST /search/cells, called with the user's own token; answers checked against the contract. */
export function createVectorSearchClient(baseUrl: string, timeoutMs = 15_000): VectorSearchClient {
  return {
    async searchCells(token, body) {
      let response: Response
      try {
        response = await fetch(new URL('/search/cells', baseUrl), {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        })
      } catch {
        throw unavailable()
      }
      const answer: unknown = await response.json().catch(() => null)
      if (response.status === 404) return null
      if (response.status === 400) {
        const message = (answer as { error?: { message?: string } } | null)?.error?.message ?? 'Invalid search'
        throw new AppError('INVALID_QUERY', 400, message)
      }
      if (!response.ok || !answerCheck.Check(answer)) throw unavailable()
      return answer.results
    },
  }
}
