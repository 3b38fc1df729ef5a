/**
 * Local servers speaking the providers' HTTP APIs, for tests that drive the real SDKs (and the
 * service behind the gateway) without a paid model: scripted replies, recorded requests.
 */
export { startOpenAiStub } from './openai-stub.js'
export { startAnthropicStub } from './anthropic-stub.js'
export { startVertexStub } from './vertex-stub.js'
export type { RecordedRequest, ScriptedReply, ScriptedToolCall, ScriptedTurn, StubOptions, StubServer, TurnSource } from './scripted-server.js'
export { startAiTestApp, parseEventStream } from './test-app.js'
export type { AiTestApp, AiTestAppOptions } from './test-app.js'
