import type { CreateWorkbookResponse, ListTemplatesResponse, TemplateSummary } from '@finsheet/contracts'
import type { ApiClient } from '../api/api-client'

/** The built-in templates with the lists the filters offer. */
export function loadTemplates(api: ApiClient, signal?: AbortSignal): Promise<ListTemplatesResponse> {
  return api.get<ListTemplatesResponse>('/spreadsheet/templates', { signal })
}

/** A new workbook of the spreadsheet service filled from the template; resolves with its id and name. */
export async function createFromTemplate(api: ApiClient, template: Pick<TemplateSummary, 'id' | 'name'>): Promise<{ id: string; name: string }> {
  const answer = await api.post<CreateWorkbookResponse>('/spreadsheet/workbooks', { name: template.name, templateId: template.id })
  return { id: answer.workbookId, name: answer.workbook.name }
}
