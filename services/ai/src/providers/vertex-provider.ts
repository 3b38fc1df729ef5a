/**
 * Gemini on Google Vertex AI through @google/genai in Vertex mode: the project and location from
 * config, credentials from Application Default Credentials (or the auth options given).
 */
import { ApiError, GoogleGenAI, type Content, type GenerateContentConfig, type GenerateContentResponse, type GoogleGenAIOptions, type Part } from '@google/genai'
import {
  DEFAULT_MAX_OUTPUT_TOKENS,
  systemText,
  toolCallsById,
  type ChatProvider,
  type CompletionRequest,
  type CompletionResult,
  type ConversationMessage,
  type StopReason,
  type StreamCallbacks,
  type ToolCall,
} from './conversation.js'
import { abortedError, connectionReason, isConnectionFailure, providerErrorForStatus, ProviderError, timeoutError, unreachableError } from './provider-error.js'
import { AttemptTimeoutError, PROVIDER_ATTEMPTS, retryingFetch, type Fetch, type RetryingFetchOptions } from './provider-fetch.js'

export interface VertexProviderOptions {
  project: string
  location: string
  /** Per attempt. */
  timeoutMs: number
  /** Another endpoint than `https://{location}-aiplatform.googleapis.com/`. */
  baseUrl?: string
  /** Credentials other than Application Default Credentials (a test's token, a service account). */
  googleAuthOptions?: GoogleGenAIOptions['googleAuthOptions']
  /** The retry policy's waits, for tests. */
  retry?: Pick<RetryingFetchOptions, 'baseDelayMs' | 'maxWaitMs'>
  fetch?: Fetch
}

/** Gemini may leave out call ids; ours carry this prefix and are not sent back. */
const MADE_UP_ID = 'vertex-call-'

export function createVertexProvider(options: VertexProviderOptions): ChatProvider {
  const fetchWithRetries = retryingFetch({ timeoutMs: options.timeoutMs, fetch: options.fetch, ...options.retry })
  const client = new GoogleGenAI({
    vertexai: true,
    project: options.project,
    location: options.location,
    googleAuthOptions: options.googleAuthOptions,
    httpOptions: { ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}), fetch: fetchWithRetries },
  })

  return {
    provider: 'vertex',
    async complete(request: CompletionRequest, callbacks?: StreamCallbacks): Promise<CompletionResult> {
      // The last answer's headers, for the wait a final 429 asks for (the SDK's error leaves them out).
      let lastHeaders: Headers | undefined
      const recordingFetch: Fetch = async (input, init) => {
        const response = await fetchWithRetries(input, init)
        lastHeaders = response.headers
        return response
      }
      const system = systemText(request.messages)
      const config: GenerateContentConfig = {
        maxOutputTokens: request.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        ...(system === undefined ? {} : { systemInstruction: system }),
        ...(request.tools && request.tools.length > 0
          ? { tools: [{ functionDeclarations: request.tools.map((tool) => ({ name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters })) }] }
          : {}),
        ...(request.signal ? { abortSignal: request.signal } : {}),
        httpOptions: { fetch: recordingFetch },
      }
      const params = { model: request.model, contents: toVertexContents(request.messages), config }
      try {
        if (!callbacks) return readResponse(await client.models.generateContent(params), request.model)
        const stream = await client.models.generateContentStream(params)
        return await readStream(stream, request.model, callbacks)
      } catch (error) {
        throw providerError(error, lastHeaders, request.signal)
      }
    },
  }

  function providerError(error: unknown, headers: Headers | undefined, signal: AbortSignal | undefined): unknown {
    if (error instanceof ProviderError) return error
    if (signal?.aborted) return abortedError('vertex')
    if (error instanceof AttemptTimeoutError) return timeoutError('vertex', options.timeoutMs, error.attempts)
    if (error instanceof ApiError) {
      return providerErrorForStatus('vertex', error.status, headers, providerMessage(error.message), {
        attempts: PROVIDER_ATTEMPTS,
        credentialVariable: 'the Application Default Credentials of GOOGLE_CLOUD_PROJECT',
        secrets: [],
      })
    }
    if (isConnectionFailure(error)) return unreachableError('vertex', connectionReason(error))
    // Application Default Credentials that are missing or refused fail before any request is sent.
    if (error instanceof Error && /default credentials|access token|refresh token|invalid_grant|unauthorized_client/i.test(error.message)) {
      return new ProviderError('authentication', 'vertex', `Google Vertex AI has no usable credentials (Unauthorized): set up application default credentials for ${options.project}`)
    }
    return error
  }
}

/** The SDK's error message is the JSON error body; its `error.message` says what was wrong. */
function providerMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } }
    if (typeof body.error?.message === 'string') return body.error.message
  } catch {
    // not JSON: the text itself
  }
  return text
}

function readResponse(response: GenerateContentResponse, requested: string): CompletionResult {
  const reader = new ResponseReader(requested)
  reader.add(response, undefined)
  return reader.result()
}

async function readStream(stream: AsyncIterable<GenerateContentResponse>, requested: string, callbacks: StreamCallbacks): Promise<CompletionResult> {
  const reader = new ResponseReader(requested)
  for await (const chunk of stream) reader.add(chunk, callbacks)
  return reader.result()
}

/** Gathers a response, whole or chunk by chunk: text pieces, whole function calls, the final usage. */
class ResponseReader {
  private content = ''
  private readonly toolCalls: ToolCall[] = []
  private finishReason: string | undefined
  private usage = { inputTokens: 0, outputTokens: 0 }
  private model: string

  constructor(requested: string) {
    this.model = requested
  }

  add(response: GenerateContentResponse, callbacks: StreamCallbacks | undefined): void {
    if (response.modelVersion) this.model = response.modelVersion
    const metadata = response.usageMetadata
    if (metadata) {
      this.usage = {
        inputTokens: metadata.promptTokenCount ?? this.usage.inputTokens,
        outputTokens: (metadata.candidatesTokenCount ?? 0) + (metadata.thoughtsTokenCount ?? 0) || this.usage.outputTokens,
      }
    }
    const candidate = response.candidates?.[0]
    if (candidate?.finishReason) this.finishReason = candidate.finishReason
    for (const part of candidate?.content?.parts ?? []) {
      if (part.thought) continue
      if (part.text) {
        this.content += part.text
        callbacks?.onTextDelta?.(part.text)
      }
      if (part.functionCall) {
        const args: unknown = part.functionCall.args ?? {}
        const call: ToolCall = {
          id: part.functionCall.id || `${MADE_UP_ID}${this.toolCalls.length + 1}`,
          name: part.functionCall.name ?? '',
          ...(args !== null && typeof args === 'object' && !Array.isArray(args)
            ? { arguments: args }
            : { arguments: null, argumentsError: 'The arguments must be a JSON object' }),
          ...(part.thoughtSignature ? { signature: part.thoughtSignature } : {}),
        }
        this.toolCalls.push(call)
        callbacks?.onToolCallStart?.({ id: call.id, name: call.name })
      }
    }
  }

  result(): CompletionResult {
    return {
      message: { role: 'assistant', content: this.content, toolCalls: this.toolCalls },
      stopReason: stopReasonOf(this.finishReason, this.toolCalls.length),
      usage: this.usage,
      model: this.model,
    }
  }
}

function stopReasonOf(reason: string | undefined, toolCalls: number): StopReason {
  if (toolCalls > 0) return 'tool_use'
  switch (reason) {
    case undefined:
    case 'STOP':
      return 'end_turn'
    case 'MAX_TOKENS':
      return 'max_tokens'
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
      return 'content_filter'
    default:
      return 'other'
  }
}

export function toVertexContents(messages: readonly ConversationMessage[]): Content[] {
  const calls = toolCallsById(messages)
  const contents: Content[] = []
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        break
      case 'user':
        contents.push({ role: 'user', parts: [{ text: message.content }] })
        break
      case 'assistant': {
        const parts: Part[] = []
        if (message.content !== '') parts.push({ text: message.content })
        for (const call of message.toolCalls) {
          const args = call.arguments !== null && typeof call.arguments === 'object' ? (call.arguments as Record<string, unknown>) : {}
          parts.push({
            functionCall: { ...(call.id.startsWith(MADE_UP_ID) ? {} : { id: call.id }), name: call.name, args },
            ...(call.signature ? { thoughtSignature: call.signature } : {}),
          })
        }
        contents.push({ role: 'model', parts: parts.length > 0 ? parts : [{ text: '' }] })
        break
      }
      case 'tool':
        // Gemini matches a response to its call by name (and id when the call had one).
        contents.push({
          role: 'user',
          parts: message.results.map((result) => ({
            functionResponse: {
              ...(result.toolCallId.startsWith(MADE_UP_ID) ? {} : { id: result.toolCallId }),
              name: calls.get(result.toolCallId)?.name ?? '',
              response: result.isError ? { error: result.content } : { output: result.content },
            },
          })),
        })
        break
    }
  }
  return contents
}
