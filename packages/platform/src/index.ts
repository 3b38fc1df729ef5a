export { loadConfig, ConfigError, exitOnConfigError, platformEnvProperties, PlatformEnv } from './config/config.js'
export type { PlatformConfig } from './config/config.js'
export { AppError, isAppError, platformErrors } from './errors/app-error.js'
export { handleError, toAppError, errorBody } from './errors/error-handler.js'
export { createServiceApp, errorResponses } from './kit/create-service-app.js'
export type { ServiceApp, ServiceAppOptions, StatusProbe } from './kit/create-service-app.js'
export { closeOnSignals } from './kit/lifecycle.js'
export { createLogger, loggerOptions } from './kit/logger.js'
export type { Logger } from './kit/logger.js'
export { authPlugin, currentUser } from './auth/auth-plugin.js'
export { authErrors, bearerTokenFrom } from './auth/token-verifier.js'
export type { AuthUser, TokenVerifier } from './auth/token-verifier.js'
export { ensureSigningKeys, readPublicJwks } from './auth/local-keys.js'
export type { SigningKeys } from './auth/local-keys.js'
export { LocalTokenIssuer, LocalTokenVerifier } from './auth/local-tokens.js'
export type { LocalTokenOptions } from './auth/local-tokens.js'
export { FirebaseTokenVerifier, firebaseAuth, authUserFromFirebase } from './auth/firebase.js'
export type { FirebaseOptions } from './auth/firebase.js'
export { createTokenVerifier } from './auth/create-verifier.js'
export { DuplicateKeyError, InvalidQueryError } from './documents/port.js'
export type {
  CollectionOptions,
  Document,
  DocumentCollection,
  DocumentStore,
  DocumentTransaction,
  FieldCondition,
  FieldOperators,
  FieldValue,
  Filter,
  FindOptions,
  IndexSpec,
  SortDirection,
} from './documents/port.js'
export { createSqliteDocumentStore, SqliteDocumentStore } from './documents/sqlite-document-store.js'
export { createMongoDocumentStore, MongoDocumentStore } from './documents/mongo-document-store.js'
