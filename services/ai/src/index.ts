export { buildAiApp } from './app.js'
export type { AiAppDependencies } from './app.js'
export { createAiService } from './service.js'
export type { AiServiceOptions } from './service.js'
export { loadAiConfig, AiEnv } from './config.js'
export type { AiConfig } from './config.js'
export { aiErrors, RetryLaterError } from './errors.js'

// The provider layer the agent runs on.
export { DEFAULT_MAX_OUTPUT_TOKENS, parseToolArguments, systemText, toolCallsById } from './providers/conversation.js'
export type {
  AssistantMessage,
  ChatProvider,
  CompletionRequest,
  CompletionResult,
  ConversationMessage,
  StopReason,
  StreamCallbacks,
  SystemMessage,
  TokenUsage,
  ToolCall,
  ToolResult,
  ToolResultsMessage,
  ToolSpec,
  UserMessage,
} from './providers/conversation.js'
export { ProviderError } from './providers/provider-error.js'
export type { ProviderErrorKind } from './providers/provider-error.js'
export { createOpenAiProvider } from './providers/openai-provider.js'
export { createAnthropicProvider } from './providers/anthropic-provider.js'
export { createVertexProvider } from './providers/vertex-provider.js'
export { createModelRegistry, modelRegistryFromConfig } from './providers/model-registry.js'
export type { ModelRegistry, ProviderEntry, ProviderOverrides, ResolvedModel } from './providers/model-registry.js'
export { PROVIDER_ATTEMPTS, MAX_RETRY_WAIT_MS } from './providers/provider-fetch.js'

// Conversations with tools, chat and its hooks.
export { runConversation, compactToolResults, MAX_TOOL_RESULT_CHARS } from './conversation/tool-loop.js'
export type { ConversationCallbacks, ConversationOutcome, ConversationRun, RunnableToolCall, ToolOutcome, Toolset } from './conversation/tool-loop.js'
export { runChat, checkAssistantMessage, recordUsage, MAX_CHAT_TOOL_CALLS } from './chat/chat-service.js'
export type { AssistantServices, ChatEvents, ChatInput, ChatToolsFactory, ChatToolsRequest } from './chat/chat-service.js'
export { createUsageStore } from './usage/usage-store.js'
export type { UsageRecord, UsageStore } from './usage/usage-store.js'
export { answerLocally } from './local/local-assistant.js'
export { searchFunctions, namedFunctions } from './local/function-search.js'
export { FINANCE_GLOSSARY, glossaryEntriesIn } from './local/finance-glossary.js'
export { createSpreadsheetClient } from './clients/spreadsheet-client.js'
export type { SpreadsheetClient } from './clients/spreadsheet-client.js'

// Agent mode and its seams.
export { processAction } from './agent/agent-service.js'
export type { AgentEvents, AgentInput, AgentServices } from './agent/agent-service.js'
export type { FinancialModelGenerator, ModelGenerationOptions } from './agent/model-generator.js'
export { readModelCommand, describeModelRequest, UNNAMED_COMPANY } from './agent/model-command.js'
export type { ModelRequest } from './agent/model-command.js'
export { describeToolCall } from './agent/tool-descriptions.js'
export { WorkbookToolset } from './agent/workbook-toolset.js'
export type { WorkbookToolsetOptions } from './agent/workbook-toolset.js'
export { DEFAULT_AGENT_DEADLINE_MS, DEFAULT_AGENT_TOKEN_BUDGET, AGENT_COMPACT_RESULTS_OVER_CHARS } from './agent/agent-limits.js'
// The offline planner (model `local`) and the reading of model requests.
export { createPlannerProvider, parseCommand, PLANNER_CAPABILITIES } from './planner/index.js'
export type { PlannerCommand } from './planner/index.js'

// Financial model generation: the generator the routes call, and the ai.generate-model job.
export { FinancialModelGenerator as QueuedFinancialModelGenerator } from './models/financial-model-generator.js'
export type { FinancialModelGeneratorDependencies } from './models/financial-model-generator.js'
export { createModelProcessor, startModelWorker, modelImportId, progressMessage, MODEL_JOB_ATTEMPTS } from './models/model-jobs.js'
export type { ModelProcessorDependencies } from './models/model-jobs.js'
export type { ModelJobData } from './models/model-request.js'
